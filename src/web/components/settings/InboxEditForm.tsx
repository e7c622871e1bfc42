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
import { t } from "../../lib/i18n.ts";

const fields = () => ({
  name: t("inboxes.name"),
  "channel.webhook_url": t("inboxes.webhook_url"),
  greeting_enabled: t("inboxes.greeting"),
  greeting_message: t("inboxes.greeting_message"),
  csat_survey_enabled: t("inboxes.csat"),
  enable_auto_assignment: t("inboxes.auto_assign"),
});

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
  const form = useSubmit(fields(), "edit-inbox-", t("inboxes.saving_what"));
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
      saved.value = t("inboxes.saved", { name: updated.name });
    });
  };
  const errors = form.errors.value;
  return (
    <form class="settings-card" onSubmit={submit} noValidate aria-labelledby="edit-inbox-title">
      <h2 id="edit-inbox-title">{t("inboxes.settings")}</h2>
      <Field id="edit-inbox-name" label={t("inboxes.inbox_name")} error={errors.name}>
        <TextInput {...describedBy("edit-inbox-name", errors.name)} maxLength={255} value={name} />
      </Field>
      {isApi && (
        <Field
          id="edit-inbox-channel.webhook_url"
          label={t("inboxes.webhook_optional")}
          error={errors["channel.webhook_url"]}
          hint={t("inboxes.webhook_hint")}
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
        label={t("inboxes.greet_label")}
        value={greeting}
        error={errors.greeting_enabled}
      />
      {greeting.value && (
        <Field id="edit-inbox-greeting_message" label={t("inboxes.greeting_message")} error={errors.greeting_message}>
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
        label={t("inboxes.csat_label")}
        value={csat}
        error={errors.csat_survey_enabled}
      />
      <CheckField
        id="edit-inbox-enable_auto_assignment"
        label={t("inboxes.auto_assign_label")}
        value={autoAssign}
        error={errors.enable_auto_assignment}
      />
      <FormFooter failure={form.failure.value} saved={saved.value} busy={form.busy.value} label={t("inboxes.save")} />
    </form>
  );
}
