// Adding someone to the account. They sign in with a password an administrator sets on the server
// (parley password); the form says so, since Parley sends no invitation email.
import { useSignal } from "@preact/signals";
import { api } from "../../lib/api.ts";
import type { Agent } from "../../lib/types.ts";
import { useSubmit } from "../../lib/use-submit.ts";
import { Field, describedBy } from "../Field.tsx";
import { FormFailure } from "../FormFailure.tsx";
import { TextInput } from "../TextInput.tsx";
import { SubmitButton } from "../SubmitButton.tsx";

export function AgentForm({ accountId, onAdded }: { accountId: number; onAdded(a: Agent): Promise<void> }) {
  const name = useSignal("");
  const email = useSignal("");
  const role = useSignal("agent");
  const form = useSubmit({ name: "Name", email: "Email", role: "Role" }, "agent-", "Adding the agent");
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
      <h2 id="new-agent-title">Add an agent</h2>
      <p class="hint">
        Parley sends no invitation email: after adding them, set their password on the server with{" "}
        <code>parley password --email …</code> and tell them.
      </p>
      <Field id="agent-name" label="Name" error={errors.name}>
        <TextInput {...describedBy("agent-name", errors.name)} autocomplete="off" maxLength={255} value={name} />
      </Field>
      <Field id="agent-email" label="Email" error={errors.email}>
        <TextInput
          {...describedBy("agent-email", errors.email)}
          type="email"
          autocomplete="off"
          maxLength={254}
          value={email}
        />
      </Field>
      <Field id="agent-role" label="Role" error={errors.role}>
        <select
          {...describedBy("agent-role", errors.role)}
          value={role.value}
          onChange={(e) => (role.value = e.currentTarget.value)}
        >
          <option value="agent">Agent: answers conversations in their inboxes</option>
          <option value="administrator">Administrator: also manages settings</option>
        </select>
      </Field>
      <FormFailure message={form.failure.value} />
      <SubmitButton busy={form.busy.value} label="Add agent" busyLabel="Adding…" />
    </form>
  );
}
