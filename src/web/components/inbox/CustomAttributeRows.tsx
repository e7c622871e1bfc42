// The contact form's custom attributes: a key and a value per row, rows added and removed freely;
// each row's problem (a value without a key, a key used twice) is shown under it.
import type { Signal } from "@preact/signals";
import type { AttributeRow } from "../../lib/custom-attributes.ts";

interface Props {
  rows: Signal<AttributeRow[]>;
  errors: Record<number, string>;
}

export function CustomAttributeRows({ rows, errors }: Props) {
  const change = (i: number, part: Partial<AttributeRow>) =>
    (rows.value = rows.value.map((r, j) => (j === i ? { ...r, ...part } : r)));
  return (
    <fieldset class="custom-attributes">
      <legend>Custom attributes</legend>
      {rows.value.length === 0 && <p class="hint">None yet.</p>}
      {rows.value.map((r, i) => {
        const error = errors[i];
        const errorId = `custom-attribute-${i}-error`;
        const described = {
          "aria-invalid": error ? ("true" as const) : undefined,
          "aria-describedby": error ? errorId : undefined,
        };
        return (
          <div key={i} class="attribute-row" role="group" aria-label={`Attribute ${i + 1}`}>
            <input
              id={`custom-attribute-${i}-key`}
              aria-label="Key"
              placeholder="key"
              maxLength={255}
              value={r.key}
              {...described}
              onInput={(e) => change(i, { key: e.currentTarget.value })}
            />
            <input
              aria-label="Value"
              placeholder="value"
              value={r.value}
              {...described}
              onInput={(e) => change(i, { value: e.currentTarget.value })}
            />
            <button type="button" class="small" onClick={() => (rows.value = rows.value.filter((_, j) => j !== i))}>
              Remove<span class="visually-hidden"> attribute {r.key || i + 1}</span>
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
        Add an attribute
      </button>
    </fieldset>
  );
}
