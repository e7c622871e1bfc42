// A macro, new or changed: its name, its visibility (administrators only: an agent's macro is always
// personal, so agents are told so instead of offered a choice) and its actions, in the automation
// form's action rows limited to what a macro may do. The server names each problem (name,
// actions[1].action_params…); each shows beside its field or row.
import { useSignal } from "@preact/signals";
import { useEffect } from "preact/hooks";
import { api } from "../../lib/api.ts";
import { actionRowsOf, type ActionRow as ActionState } from "../../lib/automation.ts";
import { t } from "../../lib/i18n.ts";
import { MACRO_ACTIONS, type Macro, macroBody, newMacroAction, type Visibility } from "../../lib/macros.ts";
import { useSubmit } from "../../lib/use-submit.ts";
import { Field, describedBy } from "../Field.tsx";
import { TextInput } from "../TextInput.tsx";
import { ActionRow } from "./ActionRow.tsx";
import { rowErrors } from "./AutomationForm.tsx";
import { EditFormEnd } from "./EditableList.tsx";

const PREFIX = "macro-";

interface Props {
  accountId: number;
  /** The macro to change; null: a new one. */
  macro: Macro | null;
  administrator: boolean;
  onSaved(name: string): Promise<void>;
  onCancel(): void;
}

export function MacroForm({ accountId, macro, administrator, onSaved, onCancel }: Props) {
  const name = useSignal(macro?.name ?? "");
  const visibility = useSignal<Visibility>(macro?.visibility ?? "personal");
  const actions = useSignal<ActionState[]>(macro ? actionRowsOf(macro.actions) : [newMacroAction()]);
  const form = useSubmit(
    { name: t("macros.name"), visibility: t("macros.visibility"), actions: t("macros.actions") },
    PREFIX,
    t("macros.saving_what"),
  );
  // The list's Edit mounts this form afresh (keyed by the macro): its name takes focus then.
  useEffect(() => {
    if (macro) document.getElementById(`${PREFIX}name`)?.focus();
  }, []);
  const replace = (i: number, row: ActionState) => (actions.value = actions.value.map((x, j) => (j === i ? row : x)));
  const submit = (e: SubmitEvent) => {
    e.preventDefault();
    void form.run(async () => {
      const base = `/api/v1/accounts/${accountId}/macros`;
      const body = macroBody(name.value, visibility.value, actions.value, administrator);
      await (macro ? api("PATCH", `${base}/${macro.id}`, body) : api("POST", base, body));
      const saved = name.value.trim();
      if (!macro) {
        name.value = "";
        visibility.value = "personal";
        actions.value = [newMacroAction()];
      }
      await onSaved(saved);
    });
  };
  const errors = form.errors.value;
  return (
    <form class="settings-card" onSubmit={submit} noValidate aria-labelledby="macro-form-title">
      <h2 id="macro-form-title">{macro ? t("macros.edit", { name: macro.name }) : t("macros.add_title")}</h2>
      <Field id={`${PREFIX}name`} label={t("macros.name")} error={errors.name}>
        <TextInput {...describedBy(`${PREFIX}name`, errors.name)} maxLength={255} value={name} />
      </Field>
      {administrator ? (
        <Field
          id={`${PREFIX}visibility`}
          label={t("macros.visibility")}
          error={errors.visibility}
          hint={t("macros.global_hint")}
        >
          <select
            {...describedBy(`${PREFIX}visibility`, errors.visibility, true)}
            value={visibility.value}
            onChange={(e) => (visibility.value = e.currentTarget.value as Visibility)}
          >
            <option value="personal">{t("macros.vis.personal")}</option>
            <option value="global">{t("macros.vis.global")}</option>
          </select>
        </Field>
      ) : (
        <p class="hint">{t("macros.personal_only")}</p>
      )}
      <h3 id={`${PREFIX}actions`} tabIndex={-1}>
        {t("macros.actions")}
      </h3>
      {errors.actions && <p class="field-error">{errors.actions}</p>}
      {actions.value.map((a, i) => (
        <ActionRow
          key={i}
          row={a}
          index={i}
          choices={MACRO_ACTIONS}
          errors={rowErrors(form.all.value, `actions[${i}]`)}
          onChange={(row) => replace(i, row)}
          onRemove={
            actions.value.length > 1 ? () => (actions.value = actions.value.filter((_, j) => j !== i)) : undefined
          }
        />
      ))}
      <button type="button" class="small" onClick={() => (actions.value = [...actions.value, newMacroAction()])}>
        {t("rules.add_action")}
      </button>
      <EditFormEnd
        failure={form.failure.value}
        busy={form.busy.value}
        editing={macro !== null}
        saveLabel={t("macros.save")}
        createLabel={t("macros.create")}
        onCancel={onCancel}
      />
    </form>
  );
}
