// Filters for the contacts list: a label, and a custom attribute's value. Either turns the list
// into POST contacts/filter (Chatwoot's filter payload), ANDed with the search text on the name.
import { useSignal, type Signal } from "@preact/signals";
import { directory } from "../../lib/directory.ts";
import { t } from "../../lib/i18n.ts";

export interface ContactFilter {
  label: string;
  attributeKey: string;
  attributeValue: string;
}

export const NO_FILTER: ContactFilter = { label: "", attributeKey: "", attributeValue: "" };

export function isFiltering(f: ContactFilter): boolean {
  return f.label !== "" || (f.attributeKey.trim() !== "" && f.attributeValue.trim() !== "");
}

/** Chatwoot's filter payload for these filters (and a name fragment, when one is typed). */
export function filterPayload(f: ContactFilter, term: string) {
  const conditions: Record<string, unknown>[] = [];
  if (f.label) conditions.push({ attribute_key: "labels", filter_operator: "equal_to", values: [f.label] });
  if (f.attributeKey.trim() && f.attributeValue.trim()) {
    conditions.push({
      attribute_key: f.attributeKey.trim(),
      filter_operator: "equal_to",
      values: [f.attributeValue.trim()],
      custom_attribute_type: "contact_attribute",
    });
  }
  if (term) conditions.push({ attribute_key: "name", filter_operator: "contains", values: [term] });
  return conditions.map((c, i) => ({ ...c, query_operator: i === conditions.length - 1 ? null : "AND" }));
}

export function ContactFilters({ filter, onChange }: { filter: Signal<ContactFilter>; onChange: () => void }) {
  const set = (change: Partial<ContactFilter>) => ((filter.value = { ...filter.value, ...change }), onChange());
  // The attribute's key and value are typed into drafts and applied together when either field
  // is left (or Enter), so a re-render between the two fields cannot drop what was typed.
  const key = useSignal(filter.value.attributeKey);
  const value = useSignal(filter.value.attributeValue);
  const apply = () => {
    if (key.value !== filter.value.attributeKey || value.value !== filter.value.attributeValue) {
      set({ attributeKey: key.value, attributeValue: value.value });
    }
  };
  const clear = () => {
    key.value = "";
    value.value = "";
    filter.value = NO_FILTER;
    onChange();
  };
  return (
    <fieldset class="contacts-filters">
      <legend>{t("contacts.filter")}</legend>
      <label for="contact-filter-label">{t("contacts.filter.label")}</label>
      <select
        id="contact-filter-label"
        value={filter.value.label}
        onChange={(e) => set({ label: e.currentTarget.value })}
      >
        <option value="">{t("contacts.filter.any_label")}</option>
        {(directory.value?.labels ?? []).map((l) => (
          <option key={l} value={l}>
            {l}
          </option>
        ))}
      </select>
      <label for="contact-filter-key">{t("contacts.filter.attribute")}</label>
      <input
        id="contact-filter-key"
        value={key.value}
        onInput={(e) => (key.value = e.currentTarget.value)}
        onChange={apply}
      />
      <label for="contact-filter-value">{t("contacts.filter.equals")}</label>
      <input
        id="contact-filter-value"
        value={value.value}
        onInput={(e) => (value.value = e.currentTarget.value)}
        onChange={apply}
      />
      {isFiltering(filter.value) && (
        <button type="button" class="small" onClick={clear}>
          {t("contacts.filter.clear")}
        </button>
      )}
    </fieldset>
  );
}
