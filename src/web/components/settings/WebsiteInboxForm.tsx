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

export function WebsiteInboxForm({ accountId }: { accountId: number }) {
  const name = useSignal("");
  const url = useSignal("");
  const form = useSubmit(
    { name: "Name", "channel.website_url": "Website URL" },
    "website-inbox-",
    "Creating the inbox",
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
      <h2 id="new-website-inbox-title">Add a website chat</h2>
      <p class="hint">A chat bubble on your site: visitors write, agents answer here.</p>
      <Field id="website-inbox-name" label="Site name" error={nameError}>
        <TextInput {...describedBy("website-inbox-name", nameError)} maxLength={255} value={name} />
      </Field>
      <Field id="website-inbox-channel.website_url" label="Website URL" error={urlError}>
        <TextInput {...describedBy("website-inbox-channel.website_url", urlError)} maxLength={2048} value={url} />
      </Field>
      <FormFailure message={form.failure.value} />
      <SubmitButton busy={form.busy.value} label="Create website inbox" busyLabel="Creating…" />
    </form>
  );
}
