// Light or dark: the system's choice (prefers-color-scheme) unless the user picked one in the
// profile menu (kept in this browser). The resolved theme goes on <html data-theme>, the one
// place the style sheet reads it, so a system change while the page is open applies at once.
import { signal } from "@preact/signals";

export type ThemeChoice = "system" | "light" | "dark";

const KEY = "parley-theme";
const CHOICES: readonly ThemeChoice[] = ["system", "light", "dark"];

function stored(): ThemeChoice {
  const value = localStorage.getItem(KEY);
  return CHOICES.includes(value as ThemeChoice) ? (value as ThemeChoice) : "system";
}

export const themeChoice = signal<ThemeChoice>("system");

const systemDark = () => window.matchMedia("(prefers-color-scheme: dark)");

function apply(): void {
  const dark = themeChoice.value === "dark" || (themeChoice.value === "system" && systemDark().matches);
  document.documentElement.dataset.theme = dark ? "dark" : "light";
}

export function chooseTheme(choice: ThemeChoice): void {
  themeChoice.value = choice;
  if (choice === "system") localStorage.removeItem(KEY);
  else localStorage.setItem(KEY, choice);
  apply();
}

/** Before the first render, so the page never flashes the other theme. */
export function startTheme(): void {
  themeChoice.value = stored();
  apply();
  systemDark().addEventListener("change", apply);
}
