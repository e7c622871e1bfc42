// A new email inbox: a name and the support address. The new inbox's page then asks for the
// mailbox's IMAP and SMTP servers (EmailServerSettings), where "Test connection" checks them.
import { useSignal } from "@preact/signals";
import { api } from "../../lib/api.ts";
import { loadDirectory } from "../../lib/directory.ts";
import { navigate } from "../../lib/router.ts";
import { paths } from "../../lib/routes.ts";
import type { Inbox } from "../../lib/types.ts";
import { useSubmit } from "../../lib/use-submit.ts";
import { Field, describedBy } from "../Field.tsx";
import { FormFailure } from "../FormFailure.tsx";
import { SubmitButton } from "../SubmitButton.tsx";
import { TextInput } from "../TextInput.tsx";
import { t } from "../../lib/i18n.ts";

export function EmailInboxForm({ accountId }: { accountId: number }) {
  const name = useSignal("");
  const email = useSignal("");
  const form = useSubmit(
    { name: t("inboxes.name"), "channel.email": t("mail.address") },
    "email-inbox-",
    t("inboxes.creating_what"),
  );
  const submit = (e: SubmitEvent) => {
    e.preventDefault();
    void form.run(async () => {
      const inbox = await api<Inbox>("POST", `/api/v1/accounts/${accountId}/inboxes`, {
        name: name.value.trim(),
        channel: { type: "email", email: email.value.trim() },
      });
      void loadDirectory(accountId, true).catch(() => undefined);
      navigate(paths.settings(accountId, "inboxes", inbox.id));
    });
  };
  const nameError = form.errors.value.name;
  const emailError = form.errors.value["channel.email"];
  return (
    <form class="settings-card" onSubmit={submit} noValidate aria-labelledby="new-email-inbox-title">
      <h2 id="new-email-inbox-title">{t("mail.new_title")}</h2>
      <p class="hint">{t("mail.new_hint")}</p>
      <Field id="email-inbox-name" label={t("mail.inbox_name")} error={nameError}>
        <TextInput {...describedBy("email-inbox-name", nameError)} maxLength={255} value={name} />
      </Field>
      <Field id="email-inbox-channel.email" label={t("mail.address")} error={emailError}>
        <TextInput
          {...describedBy("email-inbox-channel.email", emailError)}
          type="email"
          maxLength={254}
          value={email}
        />
      </Field>
      <FormFailure message={form.failure.value} />
      <SubmitButton busy={form.busy.value} label={t("mail.create")} busyLabel={t("inboxes.creating")} />
    </form>
  );
}
