// Changing an inbox: its name, the URL agent replies are sent to (API inboxes), the greeting sent
// when a conversation starts, the satisfaction survey and automatic assignment.
import { useSignal } from "@preact/signals";
import { api } from "../../lib/api.ts";
import { loadDirectory } from "../../lib/directory.ts";
import type { Inbox } from "../../lib/types.ts";
import { useSubmit } from "../../lib/use-submit.ts";
import { CheckField } from "../CheckField.tsx";
import { Field, describedBy } from "../Field.tsx";
import { FormFooter } from "../FormFooter.tsx";
import { TextInput } from "../TextInput.tsx";

const FIELDS = {
  name: "Name",
  "channel.webhook_url": "Webhook URL",
  greeting_enabled: "Greeting",
  greeting_message: "Greeting message",
  csat_survey_enabled: "Satisfaction survey",
  enable_auto_assignment: "Automatic assignment",
};

export function InboxEditForm({
  accountId,
  inbox,
  onSaved,
}: {
  accountId: number;
  inbox: Inbox;
  onSaved(i: Inbox): void;
}) {
  const name = useSignal(inbox.name);
  const webhookUrl = useSignal(inbox.webhook_url ?? "");
  const greeting = useSignal(inbox.greeting_enabled === true);
  const greetingMessage = useSignal(inbox.greeting_message ?? "");
  const csat = useSignal(inbox.csat_survey_enabled === true);
  const autoAssign = useSignal(inbox.enable_auto_assignment !== false);
  const saved = useSignal("");
  const form = useSubmit(FIELDS, "edit-inbox-", "Saving the inbox");
  const isApi = inbox.channel_type === "Channel::Api";
  const submit = (e: SubmitEvent) => {
    e.preventDefault();
    saved.value = "";
    void form.run(async () => {
      const updated = await api<Inbox>("PATCH", `/api/v1/accounts/${accountId}/inboxes/${inbox.id}`, {
        name: name.value.trim(),
        ...(isApi ? { channel: { webhook_url: webhookUrl.value.trim() || null } } : {}),
        greeting_enabled: greeting.value,
        greeting_message: greetingMessage.value.trim() || null,
        csat_survey_enabled: csat.value,
        enable_auto_assignment: autoAssign.value,
      });
      void loadDirectory(accountId, true).catch(() => undefined);
      onSaved(updated);
      saved.value = `Inbox ${updated.name} saved.`;
    });
  };
  const errors = form.errors.value;
  return (
    <form class="settings-card" onSubmit={submit} noValidate aria-labelledby="edit-inbox-title">
      <h2 id="edit-inbox-title">Settings</h2>
      <Field id="edit-inbox-name" label="Inbox name" error={errors.name}>
        <TextInput {...describedBy("edit-inbox-name", errors.name)} maxLength={255} value={name} />
      </Field>
      {isApi && (
        <Field
          id="edit-inbox-channel.webhook_url"
          label="Webhook URL (optional)"
          error={errors["channel.webhook_url"]}
          hint="Parley sends each agent reply here, signed with the inbox's secret."
        >
          <TextInput
            {...describedBy("edit-inbox-channel.webhook_url", errors["channel.webhook_url"], true)}
            maxLength={2048}
            value={webhookUrl}
          />
        </Field>
      )}
      <CheckField
        id="edit-inbox-greeting_enabled"
        label="Greet customers who start a conversation"
        value={greeting}
        error={errors.greeting_enabled}
      />
      {greeting.value && (
        <Field id="edit-inbox-greeting_message" label="Greeting message" error={errors.greeting_message}>
          <textarea
            {...describedBy("edit-inbox-greeting_message", errors.greeting_message)}
            rows={3}
            value={greetingMessage.value}
            onInput={(e) => (greetingMessage.value = e.currentTarget.value)}
          />
        </Field>
      )}
      <CheckField
        id="edit-inbox-csat_survey_enabled"
        label="Ask for a satisfaction rating when a conversation is resolved"
        value={csat}
        error={errors.csat_survey_enabled}
      />
      <CheckField
        id="edit-inbox-enable_auto_assignment"
        label="Assign new conversations to the inbox's agents automatically"
        value={autoAssign}
        error={errors.enable_auto_assignment}
      />
      <FormFooter failure={form.failure.value} saved={saved.value} busy={form.busy.value} label="Save inbox" />
    </form>
  );
}
