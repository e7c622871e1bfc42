// A new API inbox: a name, and optionally the URL Parley calls back with each agent reply. The new
// inbox's page then shows its identifier (for the public API) and the callback-signing secret.
import { useSignal } from "@preact/signals";
import { api } from "../../lib/api.ts";
import { loadDirectory } from "../../lib/directory.ts";
import { navigate } from "../../lib/router.ts";
import { paths } from "../../lib/routes.ts";
import type { Inbox } from "../../lib/types.ts";
import { useSubmit } from "../../lib/use-submit.ts";
import { Field, describedBy } from "../Field.tsx";
import { FormFailure } from "../FormFailure.tsx";
import { TextInput } from "../TextInput.tsx";
import { SubmitButton } from "../SubmitButton.tsx";
import { t } from "../../lib/i18n.ts";

export function InboxForm({ accountId }: { accountId: number }) {
  const name = useSignal("");
  const webhookUrl = useSignal("");
  const form = useSubmit(
    { name: t("inboxes.name"), "channel.webhook_url": t("inboxes.webhook_url") },
    "inbox-",
    t("inboxes.creating_what"),
  );
  const submit = (e: SubmitEvent) => {
    e.preventDefault();
    void form.run(async () => {
      const inbox = await api<Inbox>("POST", `/api/v1/accounts/${accountId}/inboxes`, {
        name: name.value.trim(),
        channel: { type: "api", webhook_url: webhookUrl.value.trim() || null },
      });
      void loadDirectory(accountId, true).catch(() => undefined);
      navigate(paths.settings(accountId, "inboxes", inbox.id));
    });
  };
  const nameError = form.errors.value.name;
  const urlError = form.errors.value["channel.webhook_url"];
  return (
    <form class="settings-card" onSubmit={submit} noValidate aria-labelledby="new-inbox-title">
      <h2 id="new-inbox-title">{t("inboxes.api_title")}</h2>
      <p class="hint">{t("inboxes.api_hint")}</p>
      <Field id="inbox-name" label={t("inboxes.inbox_name")} error={nameError}>
        <TextInput {...describedBy("inbox-name", nameError)} maxLength={255} value={name} />
      </Field>
      <Field
        id="inbox-channel.webhook_url"
        label={t("inboxes.webhook_optional")}
        error={urlError}
        hint={t("inboxes.webhook_hint")}
      >
        <TextInput
          {...describedBy("inbox-channel.webhook_url", urlError, true)}
          type="text"
          maxLength={2048}
          value={webhookUrl}
        />
      </Field>
      <FormFailure message={form.failure.value} />
      <SubmitButton busy={form.busy.value} label={t("inboxes.create")} busyLabel={t("inboxes.creating")} />
    </form>
  );
}
