// The pre-chat form's fields: name, email and phone (ask or not, required or not) and custom
// fields kept on the contact (custom attributes), each with its label, key and kind of input.
import type { Signal } from "@preact/signals";
import type { PreChatField } from "../../lib/types.ts";
import { t } from "../../lib/i18n.ts";

const STANDARD: PreChatField[] = [
  { name: "fullName", label: "Full name", type: "text", field_type: "standard", required: false, enabled: false },
  { name: "emailAddress", label: "Email", type: "email", field_type: "standard", required: true, enabled: false },
  { name: "phoneNumber", label: "Phone number", type: "text", field_type: "standard", required: false, enabled: false },
];
const TYPES = ["text", "email", "number", "phone", "date", "link", "checkbox"];

/** The stored fields, with the three standard ones always present (off when never set). */
function withStandard(fields: PreChatField[]): PreChatField[] {
  const missing = STANDARD.filter((s) => !fields.some((f) => f.name === s.name));
  return [...fields, ...missing];
}

export function PreChatFieldsEditor({ fields, error }: { fields: Signal<PreChatField[]>; error?: string | undefined }) {
  const list = withStandard(fields.value);
  const change = (i: number, patch: Partial<PreChatField>) =>
    (fields.value = list.map((f, j) => (j === i ? { ...f, ...patch } : f)));
  const add = () => {
    const n = list.filter((f) => f.field_type !== "standard").length + 1;
    fields.value = [
      ...list,
      {
        name: `custom_${n}`,
        label: `Question ${n}`,
        type: "text",
        field_type: "contact_attribute",
        required: false,
        enabled: true,
      },
    ];
  };
  return (
    <fieldset class="prechat-fields">
      <legend>{t("prechat.title")}</legend>
      {error && <p class="field-error">{error}</p>}
      <table class="data">
        <thead>
          <tr>
            <th scope="col">{t("prechat.label")}</th>
            <th scope="col">{t("prechat.key")}</th>
            <th scope="col">{t("prechat.type")}</th>
            <th scope="col">{t("prechat.ask")}</th>
            <th scope="col">{t("prechat.required")}</th>
            <th scope="col">
              <span class="visually-hidden">{t("common.remove")}</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {list.map((f, i) => {
            const custom = f.field_type !== "standard";
            return (
              <tr key={i}>
                <td>
                  <input
                    aria-label={t("prechat.label_of", { name: f.name })}
                    value={f.label}
                    maxLength={255}
                    onInput={(e) => change(i, { label: e.currentTarget.value })}
                  />
                </td>
                <td>
                  {custom ? (
                    <input
                      aria-label={t("prechat.key_of", { label: f.label })}
                      value={f.name}
                      maxLength={64}
                      onInput={(e) => change(i, { name: e.currentTarget.value })}
                    />
                  ) : (
                    <code>{f.name}</code>
                  )}
                </td>
                <td>
                  {custom ? (
                    <select
                      aria-label={t("prechat.type_of", { label: f.label })}
                      value={f.type}
                      onChange={(e) => change(i, { type: e.currentTarget.value })}
                    >
                      {TYPES.map((type) => (
                        <option key={type} value={type}>
                          {type}
                        </option>
                      ))}
                    </select>
                  ) : (
                    f.type
                  )}
                </td>
                <td>
                  <input
                    type="checkbox"
                    aria-label={t("prechat.ask_for", { label: f.label })}
                    checked={f.enabled}
                    onChange={(e) => change(i, { enabled: e.currentTarget.checked })}
                  />
                </td>
                <td>
                  <input
                    type="checkbox"
                    aria-label={t("prechat.is_required", { label: f.label })}
                    checked={f.required}
                    onChange={(e) => change(i, { required: e.currentTarget.checked })}
                  />
                </td>
                <td>
                  {custom && (
                    <button type="button" class="small" onClick={() => (fields.value = list.filter((_, j) => j !== i))}>
                      {t("common.remove")}
                      <span class="visually-hidden"> {f.label}</span>
                    </button>
                  )}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
      <button type="button" class="small" onClick={add}>
        {t("prechat.add")}
      </button>
    </fieldset>
  );
}
