// A form's error that belongs to no one field (the server refused, or cannot be reached).
export function FormFailure({ message }: { message: string | null }) {
  if (!message) return null;
  return (
    <p class="alert" role="alert">
      {message}
    </p>
  );
}
