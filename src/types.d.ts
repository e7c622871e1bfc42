// SQL migrations are imported as text (Bun's `with { type: "text" }`) so the binary embeds them.
declare module "*.sql" {
  const text: string;
  export default text;
}
