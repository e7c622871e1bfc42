// SQL migrations are imported as text (Bun's `with { type: "text" }`) so the binary embeds them.
declare module "*.sql" {
  const text: string;
  export default text;
}

// The website chat's loader is plain JavaScript served as written, so it is imported as text too.
declare module "*/widget/sdk.js" {
  const text: string;
  export default text;
}
