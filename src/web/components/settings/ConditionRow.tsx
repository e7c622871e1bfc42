// One condition of an automation rule: attribute, operator, value (a list to choose from where the
// catalogue or the account knows the values), and how it joins the next one.
import { BUILT_IN_ATTRIBUTES } from "../../../shared/automation-conditions.ts";
import { attributesFor, operatorsFor, takesNoValue, term, type ConditionRow as Row } from "../../lib/automation.ts";
import { directory } from "../../lib/directory.ts";
import { Options } from "../Options.tsx";
import { RowEnd } from "./RowEnd.tsx";
import { t } from "../../lib/i18n.ts";

interface Props {
  row: Row;
  index: number;
  event: string;
  last: boolean;
  errors: string[];
  onChange(row: Row): void;
  onRemove?: () => void;
}

/** Choices for keys whose values the account or the catalogue knows. */
function choices(key: string): (readonly [string | number, string])[] | null {
  const d = directory.value;
  if (key === "inbox_id") return d?.inboxes.map((i) => [i.id, i.name] as const) ?? [];
  if (key === "team_id") return d?.teams.map((team) => [team.id, team.name] as const) ?? [];
  if (key === "assignee_id") return d?.agents.map((a) => [a.id, a.available_name] as const) ?? [];
  const values = BUILT_IN_ATTRIBUTES.get(key)?.enumValues;
  return values ? values.map((v) => [v, v] as const) : null;
}

export function ConditionRow({ row, index, event, last, errors, onChange, onRemove }: Props) {
  const id = `condition-${index}`;
  const set = (change: Partial<Row>) => onChange({ ...row, ...change });
  const setKey = (key: string) => set({ attribute_key: key, filter_operator: operatorsFor(key)[0]!, value: "" });
  const options = choices(row.attribute_key);
  const type = BUILT_IN_ATTRIBUTES.get(row.attribute_key)?.type;
  const hidden = (part: string, text: string) => (
    <label for={`${id}-${part}`} class="visually-hidden">
      {text}
    </label>
  );
  const placeholder =
    type === "labels"
      ? t("rules.ph_labels")
      : row.filter_operator === "days_before"
        ? t("rules.ph_days")
        : t("rules.ph_value");
  return (
    <fieldset class="rule-row" aria-describedby={errors.length ? `${id}-errors` : undefined}>
      <legend>{t("rules.condition", { number: index + 1 })}</legend>
      {hidden("attribute", t("rules.attribute"))}
      <select id={`${id}-attribute`} value={row.attribute_key} onChange={(e) => setKey(e.currentTarget.value)}>
        <Options items={attributesFor(event).map((a) => [a.key, term("attr", a.key)] as const)} />
      </select>
      {hidden("operator", t("rules.operator"))}
      <select
        id={`${id}-operator`}
        value={row.filter_operator}
        onChange={(e) => set({ filter_operator: e.currentTarget.value as Row["filter_operator"] })}
      >
        <Options items={operatorsFor(row.attribute_key).map((op) => [op, term("op", op)] as const)} />
      </select>
      {!takesNoValue(row.filter_operator) && hidden("value", t("rules.value"))}
      {!takesNoValue(row.filter_operator) &&
        (options ? (
          <select id={`${id}-value`} value={row.value} onChange={(e) => set({ value: e.currentTarget.value })}>
            <option value="">{t("rules.choose")}</option>
            <Options items={options} />
          </select>
        ) : (
          // Preact's types pick allowed attributes by one literal type; both allow these.
          <input
            id={`${id}-value`}
            type={(type === "integer" ? "number" : "text") as "text"}
            value={row.value}
            placeholder={placeholder}
            onInput={(e) => set({ value: e.currentTarget.value })}
          />
        ))}
      {!last && hidden("join", t("rules.join"))}
      {!last && (
        <select
          id={`${id}-join`}
          value={row.query_operator}
          onChange={(e) => set({ query_operator: e.currentTarget.value as Row["query_operator"] })}
        >
          <option value="and">{t("rules.and")}</option>
          <option value="or">{t("rules.or")}</option>
        </select>
      )}
      <RowEnd id={id} what={t("rules.condition_lower", { number: index + 1 })} errors={errors} onRemove={onRemove} />
    </fieldset>
  );
}
