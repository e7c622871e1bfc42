// A new website inbox: a name and the site's URL. Its page then shows the embed code and the
// chat's settings.
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

export function WebsiteInboxForm({ accountId }: { accountId: number }) {
  const name = useSignal("");
  const url = useSignal("");
  const form = useSubmit(
    { name: t("inboxes.name"), "channel.website_url": t("inboxes.website_url") },
    "website-inbox-",
    t("inboxes.creating_what"),
  );
  const submit = (e: SubmitEvent) => {
    e.preventDefault();
    void form.run(async () => {
      const inbox = await api<Inbox>("POST", `/api/v1/accounts/${accountId}/inboxes`, {
        name: name.value.trim(),
        channel: { type: "web_widget", website_url: url.value.trim() },
      });
      void loadDirectory(accountId, true).catch(() => undefined);
      navigate(paths.settings(accountId, "inboxes", inbox.id));
    });
  };
  const nameError = form.errors.value.name;
  const urlError = form.errors.value["channel.website_url"];
  return (
    <form class="settings-card" onSubmit={submit} noValidate aria-labelledby="new-website-inbox-title">
      <h2 id="new-website-inbox-title">{t("inboxes.website_title")}</h2>
      <p class="hint">{t("inboxes.website_hint")}</p>
      <Field id="website-inbox-name" label={t("inboxes.site_name")} error={nameError}>
        <TextInput {...describedBy("website-inbox-name", nameError)} maxLength={255} value={name} />
      </Field>
      <Field id="website-inbox-channel.website_url" label={t("inboxes.website_url")} error={urlError}>
        <TextInput {...describedBy("website-inbox-channel.website_url", urlError)} maxLength={2048} value={url} />
      </Field>
      <FormFailure message={form.failure.value} />
      <SubmitButton busy={form.busy.value} label={t("inboxes.create_website")} busyLabel={t("inboxes.creating")} />
    </form>
  );
}
