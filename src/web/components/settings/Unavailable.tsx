// A settings section whose API this server does not have (it answered 404): says so, plainly.
export function Unavailable({ title, text }: { title: string; text: string }) {
  const id = `${title.toLowerCase()}-title`;
  return (
    <section class="settings-card" aria-labelledby={id}>
      <h2 id={id}>{title}</h2>
      <p>{text}</p>
    </section>
  );
}
