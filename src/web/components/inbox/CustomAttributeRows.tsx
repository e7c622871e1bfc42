// The contact form's custom attributes: a key and a value per row, rows added and removed freely;
// each row's problem (a value without a key, a key used twice) is shown under it.
import type { Signal } from "@preact/signals";
import type { AttributeRow } from "../../lib/custom-attributes.ts";
import { t } from "../../lib/i18n.ts";

interface Props {
  rows: Signal<AttributeRow[]>;
  errors: Record<number, string>;
}

export function CustomAttributeRows({ rows, errors }: Props) {
  const change = (i: number, part: Partial<AttributeRow>) =>
    (rows.value = rows.value.map((r, j) => (j === i ? { ...r, ...part } : r)));
  return (
    <fieldset class="custom-attributes">
      <legend>{t("attributes.title")}</legend>
      {rows.value.length === 0 && <p class="hint">{t("attributes.none")}</p>}
      {rows.value.map((r, i) => {
        const error = errors[i];
        const errorId = `custom-attribute-${i}-error`;
        const described = {
          "aria-invalid": error ? ("true" as const) : undefined,
          "aria-describedby": error ? errorId : undefined,
        };
        return (
          <div key={i} class="attribute-row" role="group" aria-label={t("attributes.row", { number: i + 1 })}>
            <input
              id={`custom-attribute-${i}-key`}
              aria-label={t("attributes.key")}
              placeholder={t("attributes.key_placeholder")}
              maxLength={255}
              value={r.key}
              {...described}
              onInput={(e) => change(i, { key: e.currentTarget.value })}
            />
            <input
              aria-label={t("attributes.value")}
              placeholder={t("attributes.value_placeholder")}
              value={r.value}
              {...described}
              onInput={(e) => change(i, { value: e.currentTarget.value })}
            />
            <button type="button" class="small" onClick={() => (rows.value = rows.value.filter((_, j) => j !== i))}>
              {t("common.remove")}
              <span class="visually-hidden">{t("attributes.remove_which", { name: r.key || i + 1 })}</span>
            </button>
            {error && (
              <p class="field-error" id={errorId}>
                {error}
              </p>
            )}
          </div>
        );
      })}
      <button type="button" class="small" onClick={() => (rows.value = [...rows.value, { key: "", value: "" }])}>
        {t("attributes.add")}
      </button>
    </fieldset>
  );
}
