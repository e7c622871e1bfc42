// An automation rule, new or changed: when (the event), if (conditions joined by and/or), then
// (actions). The server checks the whole rule and names each problem (conditions[1].values,
// actions[0].action_params…); each shows beside its row.
import { useSignal } from "@preact/signals";
import { api } from "../../lib/api.ts";
import {
  AUTOMATION_EVENTS,
  humanize,
  term,
  newAction,
  newCondition,
  ruleBody,
  rowsOf,
  type ActionRow as ActionState,
  type AutomationRule,
  type ConditionRow as ConditionState,
} from "../../lib/automation.ts";
import { useSubmit } from "../../lib/use-submit.ts";
import { Field, describedBy } from "../Field.tsx";
import { FormFailure } from "../FormFailure.tsx";
import { Options } from "../Options.tsx";
import { SubmitButton } from "../SubmitButton.tsx";
import { TextInput } from "../TextInput.tsx";
import { ActionRow } from "./ActionRow.tsx";
import { ConditionRow } from "./ConditionRow.tsx";
import { t } from "../../lib/i18n.ts";

/** The server's messages for one row (`conditions[2]…`), with the part of the row they concern. */
export function rowErrors(errors: Record<string, string>, prefix: string): string[] {
  return Object.entries(errors)
    .filter(([field]) => field.startsWith(prefix))
    .map(([field, message]) => `${humanize(field.slice(prefix.length + 1) || "row")} ${message}`);
}

interface Props {
  accountId: number;
  /** The rule to change; none: a new one. */
  rule?: AutomationRule;
  onSaved(name: string): Promise<void>;
}

export function AutomationForm({ accountId, rule, onSaved }: Props) {
  const initial = rule ? rowsOf(rule) : null;
  const name = useSignal(rule?.name ?? "");
  const description = useSignal(rule?.description ?? "");
  const event = useSignal<string>(rule?.event_name ?? "conversation_created");
  const conditions = useSignal<ConditionState[]>(initial?.conditions ?? [newCondition("conversation_created")]);
  const actions = useSignal<ActionState[]>(initial?.actions ?? [newAction()]);
  const form = useSubmit(
    { name: t("rules.name"), description: t("rules.description"), event_name: t("rules.event") },
    "rule-",
    rule ? t("rules.saving_what") : t("rules.creating_what"),
  );

  const setEvent = (e: string) => {
    event.value = e;
    conditions.value = [newCondition(e)]; // what a condition may test depends on the event
  };
  const replace = <T,>(list: T[], i: number, item: T) => list.map((x, j) => (j === i ? item : x));
  const submit = (e: SubmitEvent) => {
    e.preventDefault();
    void form.run(async () => {
      const base = `/api/v1/accounts/${accountId}/automation_rules`;
      const body = ruleBody(
        name.value,
        description.value,
        event.value,
        conditions.value,
        actions.value,
        rule?.active ?? true,
      );
      await (rule ? api("PATCH", `${base}/${rule.id}`, body) : api("POST", base, body));
      await onSaved(name.value.trim());
      if (rule) return;
      name.value = "";
      description.value = "";
      setEvent("conversation_created");
      actions.value = [newAction()];
    });
  };
  const fieldErrors = form.errors.value;
  return (
    <form class="settings-card" onSubmit={submit} noValidate aria-labelledby="rule-form-title">
      <h2 id="rule-form-title">{rule ? t("rules.edit_title", { name: rule.name }) : t("rules.add_title")}</h2>
      <Field id="rule-name" label={t("rules.name")} error={fieldErrors.name}>
        <TextInput {...describedBy("rule-name", fieldErrors.name)} maxLength={255} value={name} />
      </Field>
      <Field id="rule-description" label={t("rules.description_optional")} error={fieldErrors.description}>
        <TextInput {...describedBy("rule-description", fieldErrors.description)} maxLength={255} value={description} />
      </Field>
      <Field id="rule-event_name" label={t("rules.when")} error={fieldErrors.event_name}>
        <select
          {...describedBy("rule-event_name", fieldErrors.event_name)}
          value={event.value}
          onChange={(e) => setEvent(e.currentTarget.value)}
        >
          <Options items={AUTOMATION_EVENTS.map((ev) => [ev, term("event", ev)] as const)} />
        </select>
      </Field>
      <h3>{t("rules.if")}</h3>
      {conditions.value.map((c, i) => (
        <ConditionRow
          key={i}
          row={c}
          index={i}
          event={event.value}
          last={i === conditions.value.length - 1}
          errors={rowErrors(form.all.value, `conditions[${i}]`)}
          onChange={(row) => (conditions.value = replace(conditions.value, i, row))}
          onRemove={
            conditions.value.length > 1
              ? () => (conditions.value = conditions.value.filter((_, j) => j !== i))
              : undefined
          }
        />
      ))}
      <button
        type="button"
        class="small"
        onClick={() => (conditions.value = [...conditions.value, newCondition(event.value)])}
      >
        {t("rules.add_condition")}
      </button>
      <h3>{t("rules.then")}</h3>
      {actions.value.map((a, i) => (
        <ActionRow
          key={i}
          row={a}
          index={i}
          errors={rowErrors(form.all.value, `actions[${i}]`)}
          onChange={(row) => (actions.value = replace(actions.value, i, row))}
          onRemove={
            actions.value.length > 1 ? () => (actions.value = actions.value.filter((_, j) => j !== i)) : undefined
          }
        />
      ))}
      <button type="button" class="small" onClick={() => (actions.value = [...actions.value, newAction()])}>
        {t("rules.add_action")}
      </button>
      <FormFailure message={form.failure.value} />
      <div class="form-actions">
        <SubmitButton
          busy={form.busy.value}
          label={rule ? t("rules.save") : t("rules.create")}
          busyLabel={rule ? t("common.saving") : t("rules.creating")}
        />
      </div>
    </form>
  );
}
