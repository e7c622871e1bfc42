// Adding someone to the account. A new agent is mailed a link to choose their password when the
// server can send mail (PARLEY_SMTP_URL); otherwise an administrator sets it on the server (parley
// password). The form says both.
import { useSignal } from "@preact/signals";
import { api } from "../../lib/api.ts";
import type { Agent } from "../../lib/types.ts";
import { useSubmit } from "../../lib/use-submit.ts";
import { Field, describedBy } from "../Field.tsx";
import { FormFailure } from "../FormFailure.tsx";
import { TextInput } from "../TextInput.tsx";
import { SubmitButton } from "../SubmitButton.tsx";
import { t } from "../../lib/i18n.ts";

export function AgentForm({ accountId, onAdded }: { accountId: number; onAdded(a: Agent): Promise<void> }) {
  const name = useSignal("");
  const email = useSignal("");
  const role = useSignal("agent");
  const form = useSubmit(
    { name: t("agents.name"), email: t("agents.email"), role: t("agents.role") },
    "agent-",
    t("agents.adding_what"),
  );
  const submit = (e: SubmitEvent) => {
    e.preventDefault();
    void form.run(async () => {
      const a = await api<Agent>("POST", `/api/v1/accounts/${accountId}/agents`, {
        name: name.value.trim(),
        email: email.value.trim(),
        role: role.value,
      });
      name.value = "";
      email.value = "";
      await onAdded(a);
    });
  };
  const errors = form.errors.value;
  return (
    <form class="settings-card" onSubmit={submit} noValidate aria-labelledby="new-agent-title">
      <h2 id="new-agent-title">{t("agents.add_title")}</h2>
      <p class="hint">
        {t("agents.add_hint_before")} <code>parley password --email …</code> {t("agents.add_hint_after")}
      </p>
      <Field id="agent-name" label={t("agents.name")} error={errors.name}>
        <TextInput {...describedBy("agent-name", errors.name)} autocomplete="off" maxLength={255} value={name} />
      </Field>
      <Field id="agent-email" label={t("agents.email")} error={errors.email}>
        <TextInput
          {...describedBy("agent-email", errors.email)}
          type="email"
          autocomplete="off"
          maxLength={254}
          value={email}
        />
      </Field>
      <Field id="agent-role" label={t("agents.role")} error={errors.role}>
        <select
          {...describedBy("agent-role", errors.role)}
          value={role.value}
          onChange={(e) => (role.value = e.currentTarget.value)}
        >
          <option value="agent">{t("agents.role_agent")}</option>
          <option value="administrator">{t("agents.role_admin")}</option>
        </select>
      </Field>
      <FormFailure message={form.failure.value} />
      <SubmitButton busy={form.busy.value} label={t("agents.add")} busyLabel={t("agents.adding")} />
    </form>
  );
}
