// The web app's translation tables: English is the source of truth, and Portuguese (Brazil) and
// Spanish have exactly its keys, each with the same {placeholders}; t() fills them in, falls back to
// English, and picks plural forms by the language's rules.
import { afterEach, describe, expect, test } from "bun:test";
import { addTable, fill, locale, localeFor, t, tn } from "../../src/web/lib/i18n.ts";
import { areas, en } from "../../src/web/lib/locales/en/index.ts";
import { es } from "../../src/web/lib/locales/es/index.ts";
import { pt_BR } from "../../src/web/lib/locales/pt_BR/index.ts";

const placeholders = (s: string) => [...s.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();

describe("the translation tables", () => {
  for (const [name, table] of [
    ["pt_BR", pt_BR],
    ["es", es],
  ] as const) {
    test(`${name} has exactly English's keys`, () => {
      expect(Object.keys(table).sort()).toEqual(Object.keys(en).sort());
    });
    test(`${name} keeps every {placeholder} of English, and adds none`, () => {
      const differ = Object.entries(en).filter(
        ([key, text]) => placeholders(text).join() !== placeholders(table[key as keyof typeof en]).join(),
      );
      expect(differ).toEqual([]);
    });
    test(`${name} has no empty string`, () => {
      expect(Object.entries(table).filter(([, text]) => text.trim() === "")).toEqual([]);
    });
  }
  test("no key is defined in two areas (a later one would silently win)", () => {
    const keys = areas.flatMap((a) => Object.keys(a));
    expect(keys.filter((k, i) => keys.indexOf(k) !== i)).toEqual([]);
    expect(keys.length).toBe(Object.keys(en).length);
  });
  test("plural keys come in pairs: .one and .other", () => {
    const keys = Object.keys(en);
    const ones = keys.filter((k) => k.endsWith(".one")).map((k) => k.slice(0, -4));
    const others = keys.filter((k) => k.endsWith(".other")).map((k) => k.slice(0, -6));
    expect(ones.sort()).toEqual(others.sort());
  });
});

describe("t", () => {
  addTable("pt_BR", pt_BR); // in the browser they come from the server (test/http/web.test.ts)
  addTable("es", es);
  afterEach(() => void (locale.value = "en"));

  test("the current language's string, with its placeholders filled", () => {
    expect(t("notallowed.text", { account: "Acme" })).toBe("Only administrators of Acme can open its settings.");
    locale.value = "pt_BR";
    expect(t("notallowed.text", { account: "Acme" })).toBe(
      "Só os administradores de Acme podem abrir as configurações.",
    );
    expect(t("nav.conversations")).toBe("Conversas");
    locale.value = "es";
    expect(t("nav.conversations")).toBe("Conversaciones");
  });

  test("plural forms follow the language", () => {
    expect([tn("time.minutes_ago", 1), tn("time.minutes_ago", 5)]).toEqual(["1 minute ago", "5 minutes ago"]);
    locale.value = "pt_BR";
    expect([tn("time.hours_ago", 1), tn("time.hours_ago", 3)]).toEqual(["há 1 hora", "há 3 horas"]);
    locale.value = "es";
    expect([tn("time.days_ago", 1), tn("time.days_ago", 2)]).toEqual(["hace 1 día", "hace 2 días"]);
  });

  test("an unknown placeholder stays as written; a missing key falls back to English", () => {
    expect(fill("{a} and {b}", { a: 1 })).toBe("1 and {b}");
    locale.value = "es";
    const saved = es["nav.contacts"];
    delete (es as Partial<typeof es>)["nav.contacts"];
    try {
      expect(t("nav.contacts")).toBe("Contacts");
    } finally {
      es["nav.contacts"] = saved;
    }
  });
});

describe("localeFor", () => {
  test("Chatwoot's and browsers' codes map to the languages there are, else English", () => {
    expect(["pt_BR", "pt-BR", "pt", "es", "es_MX", "es-419", "en", "fr", "", null, undefined].map(localeFor)).toEqual([
      "pt_BR",
      "pt_BR",
      "pt_BR",
      "es",
      "es",
      "es",
      "en",
      "en",
      "en",
      "en",
      "en",
    ]);
  });
});
