// The web app's words: one table per language (src/web/lib/locales/), English the source of truth
// and the fallback for a key another table lacks. The language follows the account's `locale`
// setting (Settings → Account; the profile API stores no language per user), and this browser
// remembers the last one so that the sign-in screen and the first paint after a reload use it.
// `t` reads the `locale` signal, so every component that renders words re-renders when it changes.
//
// Only English is in the bundle: another language's table comes from the server
// (/app/locales/pt_BR.json, src/http/web.routes.ts) when it is first needed, so each language added
// costs the script's size budget nothing.
import { signal } from "@preact/signals";
import { localeFor, type Locale } from "../../shared/locale.ts";
import { en, type Key } from "./locales/en/index.ts";

export type { Key };
export type { Locale };
export type Params = Record<string, string | number>;
export type Table = Partial<Record<Key, string>>;

const tables: Partial<Record<Locale, Table>> = { en };
const loading = new Map<Locale, Promise<void>>();
/** BCP 47 tags, for <html lang>, plural rules and dates. */
const TAGS: Record<Locale, string> = { en: "en", pt_BR: "pt-BR", es: "es" };
const KEY = "parley-locale";

export { localeFor };

function remembered(): Locale {
  try {
    return localeFor(localStorage.getItem(KEY));
  } catch {
    return "en";
  }
}

export const locale = signal<Locale>("en");

/** Makes a table available without asking the server (the unit tests use it). */
export function addTable(l: Locale, table: Table): void {
  tables[l] = table;
}

function loadTable(l: Locale): Promise<void> {
  if (tables[l]) return Promise.resolve();
  let promise = loading.get(l);
  if (!promise) {
    promise = fetch(`/app/locales/${l}.json`)
      .then((r) => {
        if (!r.ok) throw new Error(`GET /app/locales/${l}.json: ${r.status}`);
        return r.json() as Promise<Table>;
      })
      .then((table) => addTable(l, table))
      .finally(() => loading.delete(l));
    loading.set(l, promise);
  }
  return promise;
}

let wanted: Locale = "en";

/**
 * Switches every screen to the language of this locale code (an account's `locale`) once its table
 * is here. If it cannot be loaded the screens keep their language; the latest call wins.
 */
export async function setLocale(code: string | null | undefined): Promise<void> {
  const next = localeFor(code);
  wanted = next;
  try {
    await loadTable(next);
  } catch {
    return;
  }
  if (wanted !== next) return;
  locale.value = next;
  document.documentElement.lang = TAGS[next];
  try {
    localStorage.setItem(KEY, next);
  } catch {
    // private mode: the language still applies to this page
  }
}

/** Before the first render: the language this browser used last, its table loaded. */
export const startLocale = (): Promise<void> => setLocale(remembered());

/** The tag for Intl and toLocale*String; undefined in English keeps the browser's own conventions. */
export const dateLocale = (): string | undefined => (locale.value === "en" ? undefined : TAGS[locale.value]);

/** Whether the tables have this key (for words derived from identifiers, which may have none). */
export const hasKey = (key: string): key is Key => key in en;

/** The string for `key` in the current language, with `{name}` replaced by params.name. */
export function t(key: Key, params?: Params): string {
  const text = tables[locale.value]?.[key] ?? en[key];
  return params ? fill(text, params) : text;
}

export const fill = (text: string, params: Params): string =>
  text.replace(/\{(\w+)\}/g, (whole, name: string) => (name in params ? String(params[name]) : whole));

type PluralBase<K = Key> = K extends `${infer Base}.other` ? Base : never;

/** Counted words: `${base}.one` or `${base}.other` as the language's plural rules choose, with {count}. */
export function tn(base: PluralBase, count: number, params?: Params): string {
  const form = new Intl.PluralRules(TAGS[locale.value]).select(count) === "one" ? "one" : "other";
  return t(`${base}.${form}` as Key, { count, ...params });
}
