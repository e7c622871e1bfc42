// A contact's custom attributes in the contact form: free keys with values, edited as text rows.
// The API merges what PATCH sends into what is stored, and removes keys with its own call
// (destroy_custom_attributes), so a save is "set these" plus "remove those". Pure (test/web).
import { t } from "./i18n.ts";

export interface AttributeRow {
  key: string;
  value: string;
}

export interface AttributeChanges {
  set: Record<string, unknown>;
  remove: string[];
  /** By row index: why the row cannot be saved. */
  errors: Record<number, string>;
}

/** How a stored value reads in a text field (and in the contact's details). */
export function attributeText(v: unknown): string {
  if (v === null || v === undefined) return "";
  return typeof v === "object" ? JSON.stringify(v) : String(v);
}

export function attributeRows(stored: Record<string, unknown>): AttributeRow[] {
  return Object.entries(stored).map(([key, value]) => ({ key, value: attributeText(value) }));
}

/**
 * What to send for the rows as edited. A value whose text was not changed keeps its stored type (a
 * number stays a number); a changed or new one is stored as the text typed. Blank rows are ignored.
 */
export function attributeChanges(stored: Record<string, unknown>, rows: readonly AttributeRow[]): AttributeChanges {
  const set: Record<string, unknown> = {};
  const errors: Record<number, string> = {};
  const seen = new Set<string>();
  rows.forEach((row, i) => {
    const key = row.key.trim();
    if (!key && !row.value.trim()) return;
    if (!key) {
      errors[i] = t("attributes.blank");
      return;
    }
    if (seen.has(key)) {
      errors[i] = t("attributes.twice", { key });
      return;
    }
    seen.add(key);
    const unchanged = key in stored && attributeText(stored[key]) === row.value;
    if (!unchanged) set[key] = row.value;
  });
  const remove = Object.keys(stored).filter((k) => !seen.has(k));
  return { set, remove, errors };
}
