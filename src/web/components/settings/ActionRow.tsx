// One action of an automation rule or a macro and what it needs: a text, labels, an agent, a team,
// a status…
import {
  ACTION_INPUTS,
  CONVERSATION_PRIORITIES,
  CONVERSATION_STATUSES,
  FORM_ACTIONS,
  term,
  type ActionRow as Row,
} from "../../lib/automation.ts";
import { directory } from "../../lib/directory.ts";
import { Options } from "../Options.tsx";
import { RowEnd } from "./RowEnd.tsx";
import { t } from "../../lib/i18n.ts";

interface Props {
  row: Row;
  index: number;
  errors: string[];
  onChange(row: Row): void;
  onRemove?: () => void;
  /** The actions offered (a macro's are fewer); all the form's by default. */
  choices?: readonly string[];
}

type Pairs = readonly (readonly [string | number, string])[] | undefined;

export function ActionRow({ row, index, errors, onChange, onRemove, choices = FORM_ACTIONS }: Props) {
  const id = `action-${index}`;
  const set = (change: Partial<Row>) => onChange({ ...row, ...change });
  const input = ACTION_INPUTS[row.action_name as keyof typeof ACTION_INPUTS];
  const d = directory.value;
  const what = term("action", row.action_name);
  const hidden = (part: string, text: string) => (
    <label for={`${id}-${part}`} class="visually-hidden">
      {text}
    </label>
  );
  const select = (items: Pairs, none: string) => (
    <>
      {hidden("choice", t("rules.choice", { what }))}
      <select id={`${id}-choice`} value={row.value} onChange={(e) => set({ value: e.currentTarget.value })}>
        <option value="">{none}</option>
        <Options items={items} />
      </select>
    </>
  );
  const text = (placeholder: string, multiline = false) => (
    <span class="grow">
      {hidden("text", t("rules.text", { what }))}
      {multiline ? (
        <textarea
          id={`${id}-text`}
          rows={2}
          value={row.value}
          placeholder={placeholder}
          onInput={(e) => set({ value: e.currentTarget.value })}
        />
      ) : (
        <input
          id={`${id}-text`}
          value={row.value}
          placeholder={placeholder}
          onInput={(e) => set({ value: e.currentTarget.value })}
        />
      )}
    </span>
  );
  return (
    <fieldset class="rule-row" aria-describedby={errors.length ? `${id}-errors` : undefined}>
      <legend>{t("rules.action", { number: index + 1 })}</legend>
      {hidden("name", t("rules.action_label"))}
      <select
        id={`${id}-name`}
        value={row.action_name}
        onChange={(e) => set({ action_name: e.currentTarget.value as Row["action_name"], value: "", message: "" })}
      >
        <Options items={choices.map((a) => [a, term("action", a)] as const)} />
      </select>
      {input === "text" && text(t("rules.message"), true)}
      {input === "labels" && text(t("rules.ph_labels"))}
      {input === "url" && text("https://…")}
      {input === "emails" && text("someone@example.com, another@example.com")}
      {input === "agent" &&
        select(
          d?.agents.map((a) => [a.id, a.available_name] as const),
          t("rules.nobody"),
        )}
      {input === "team" &&
        select(
          d?.teams.map((team) => [team.id, team.name] as const),
          t("rules.no_team"),
        )}
      {input === "status" &&
        select(
          CONVERSATION_STATUSES.map((s) => [s, t(`status.${s}`)] as const),
          t("rules.choose"),
        )}
      {input === "priority" &&
        select(
          CONVERSATION_PRIORITIES.map((p) => [p, t(`priority.${p}`)] as const),
          t("rules.none_choice"),
        )}
      {input === "team-email" &&
        select(
          d?.teams.map((team) => [team.id, team.name] as const),
          t("rules.choose_team"),
        )}
      {input === "team-email" && (
        <span class="grow">
          {hidden("message", t("rules.email_message"))}
          <input
            id={`${id}-message`}
            value={row.message}
            placeholder={t("rules.message")}
            onInput={(e) => set({ message: e.currentTarget.value })}
          />
        </span>
      )}
      <RowEnd id={id} what={t("rules.action_lower", { number: index + 1 })} errors={errors} onRemove={onRemove} />
    </fieldset>
  );
}
