// The languages Parley speaks (the web app's tables, the mail it sends its users) and how a
// Chatwoot locale code (pt_BR, es) or a browser's (pt-BR, es-MX) maps to one: else English.

export type Locale = "en" | "pt_BR" | "es";

export function localeFor(code: string | null | undefined): Locale {
  const language = (code ?? "").replace("-", "_").split("_")[0]!.toLowerCase();
  if (language === "pt") return "pt_BR";
  if (language === "es") return "es";
  return "en";
}
