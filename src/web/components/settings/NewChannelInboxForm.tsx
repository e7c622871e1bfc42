// A new inbox of a channel that needs a name and one more thing (a website chat: the site's URL; an
// email inbox: the support address). Its page then shows what that channel needs next.
import { useSignal } from "@preact/signals";
import { api } from "../../lib/api.ts";
import { loadDirectory } from "../../lib/directory.ts";
import { t } from "../../lib/i18n.ts";
import { navigate } from "../../lib/router.ts";
import { paths } from "../../lib/routes.ts";
import type { Inbox } from "../../lib/types.ts";
import { useSubmit } from "../../lib/use-submit.ts";
import { Field, describedBy } from "../Field.tsx";
import { FormFailure } from "../FormFailure.tsx";
import { SubmitButton } from "../SubmitButton.tsx";
import { TextInput } from "../TextInput.tsx";

export interface ChannelForm {
  /** The channel type sent to the API ("web_widget", "email"). */
  type: string;
  /** The one channel setting asked for, by its API name under `channel`. */
  field: string;
  /** Prefix of the controls' ids ("website-inbox-"). */
  idPrefix: string;
  title: string;
  hint: string;
  nameLabel: string;
  fieldLabel: string;
  fieldType: "text" | "email";
  fieldMax: number;
  create: string;
}

export function NewChannelInboxForm({ accountId, c }: { accountId: number; c: ChannelForm }) {
  const name = useSignal("");
  const value = useSignal("");
  const key = `channel.${c.field}`;
  const form = useSubmit({ name: t("inboxes.name"), [key]: c.fieldLabel }, c.idPrefix, t("inboxes.creating_what"));
  const submit = (e: SubmitEvent) => {
    e.preventDefault();
    void form.run(async () => {
      const inbox = await api<Inbox>("POST", `/api/v1/accounts/${accountId}/inboxes`, {
        name: name.value.trim(),
        channel: { type: c.type, [c.field]: value.value.trim() },
      });
      void loadDirectory(accountId, true).catch(() => undefined);
      navigate(paths.settings(accountId, "inboxes", inbox.id));
    });
  };
  const nameError = form.errors.value.name;
  const fieldError = form.errors.value[key];
  const titleId = `new-${c.idPrefix}title`;
  return (
    <form class="settings-card" onSubmit={submit} noValidate aria-labelledby={titleId}>
      <h2 id={titleId}>{c.title}</h2>
      <p class="hint">{c.hint}</p>
      <Field id={`${c.idPrefix}name`} label={c.nameLabel} error={nameError}>
        <TextInput {...describedBy(`${c.idPrefix}name`, nameError)} maxLength={255} value={name} />
      </Field>
      <Field id={`${c.idPrefix}${key}`} label={c.fieldLabel} error={fieldError}>
        <TextInput
          {...describedBy(`${c.idPrefix}${key}`, fieldError)}
          type={c.fieldType}
          maxLength={c.fieldMax}
          value={value}
        />
      </Field>
      <FormFailure message={form.failure.value} />
      <SubmitButton busy={form.busy.value} label={c.create} busyLabel={t("inboxes.creating")} />
    </form>
  );
}
