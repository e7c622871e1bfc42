// A select's options from [value, label] pairs (a list not loaded yet gives none).
export function Options({ items }: { items: readonly (readonly [string | number, string])[] | undefined }) {
  return (
    <>
      {items?.map(([value, label]) => (
        <option key={value} value={value}>
          {label}
        </option>
      ))}
    </>
  );
}
