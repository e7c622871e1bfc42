// A new webhook: URL, an optional name and inbox, and the events it receives. Its signing secret
// is shown once, right after creation: the server never shows it again (rotate to get a new one).
import { useSignal } from "@preact/signals";
import { SPEC_WEBHOOK_KINDS, WEBHOOK_KINDS } from "../../../shared/event-types.ts";
import { api } from "../../lib/api.ts";
import { directory } from "../../lib/directory.ts";
import { paths } from "../../lib/routes.ts";
import type { Webhook } from "../../lib/types.ts";
import { useSubmit } from "../../lib/use-submit.ts";
import { Field, describedBy } from "../Field.tsx";
import { FormFailure } from "../FormFailure.tsx";
import { Link } from "../Link.tsx";
import { TextInput } from "../TextInput.tsx";
import { OneTimeSecret } from "./OneTimeSecret.tsx";
import { SubmitButton } from "../SubmitButton.tsx";
import { Options } from "../Options.tsx";
import { t } from "../../lib/i18n.ts";

export function WebhookForm({ accountId, onCreated }: { accountId: number; onCreated(): void }) {
  const url = useSignal("");
  const name = useSignal("");
  const inboxId = useSignal("");
  const kinds = useSignal<Set<string>>(new Set(SPEC_WEBHOOK_KINDS));
  const created = useSignal<Webhook | null>(null);
  const form = useSubmit(
    {
      url: t("webhooks.url"),
      name: t("webhooks.name"),
      subscriptions: t("webhooks.events"),
      inbox_id: t("webhooks.inbox"),
    },
    "webhook-",
    t("webhooks.creating_what"),
  );
  const submit = (e: SubmitEvent) => {
    e.preventDefault();
    void form.run(async () => {
      const body = {
        url: url.value.trim(),
        name: name.value.trim() || null,
        inbox_id: inboxId.value ? Number(inboxId.value) : null,
        subscriptions: [...kinds.value],
      };
      created.value = await api<Webhook>("POST", `/api/v1/accounts/${accountId}/webhooks`, body);
      url.value = "";
      name.value = "";
      onCreated();
    });
  };
  const toggle = (kind: string, on: boolean) => {
    const next = new Set(kinds.value);
    if (on) next.add(kind);
    else next.delete(kind);
    kinds.value = next;
  };
  const errors = form.errors.value;
  return (
    <form class="settings-card" onSubmit={submit} noValidate aria-labelledby="new-webhook-title">
      <h2 id="new-webhook-title">{t("webhooks.add_title")}</h2>
      {created.value?.secret && (
        <OneTimeSecret secret={created.value.secret} title={t("webhooks.created")}>
          <Link href={paths.settings(accountId, "webhooks", created.value.id)}>{t("webhooks.open")}</Link>
        </OneTimeSecret>
      )}
      <Field id="webhook-url" label={t("webhooks.url")} error={errors.url} hint={t("webhooks.url_hint")}>
        <TextInput {...describedBy("webhook-url", errors.url, true)} maxLength={2048} value={url} />
      </Field>
      <Field id="webhook-name" label={t("webhooks.name_optional")} error={errors.name}>
        <TextInput {...describedBy("webhook-name", errors.name)} maxLength={255} value={name} />
      </Field>
      <Field id="webhook-inbox_id" label={t("webhooks.inbox")} error={errors.inbox_id}>
        <select
          {...describedBy("webhook-inbox_id", errors.inbox_id)}
          value={inboxId.value}
          onChange={(e) => (inboxId.value = e.currentTarget.value)}
        >
          <option value="">{t("webhooks.every_inbox")}</option>
          <Options items={directory.value?.inboxes.map((i) => [i.id, i.name] as const)} />
        </select>
      </Field>
      <fieldset
        class="checklist kinds"
        aria-describedby={errors.subscriptions ? "webhook-subscriptions-error" : undefined}
      >
        <legend>{t("webhooks.events")}</legend>
        {WEBHOOK_KINDS.map((k) => (
          <label key={k} class="check">
            <input
              type="checkbox"
              id={k === WEBHOOK_KINDS[0] ? "webhook-subscriptions" : undefined}
              checked={kinds.value.has(k)}
              onChange={(e) => toggle(k, e.currentTarget.checked)}
            />
            <code>{k}</code>
          </label>
        ))}
        {errors.subscriptions && (
          <p class="field-error" id="webhook-subscriptions-error">
            {errors.subscriptions}
          </p>
        )}
      </fieldset>
      <FormFailure message={form.failure.value} />
      <SubmitButton busy={form.busy.value} label={t("webhooks.create")} busyLabel={t("webhooks.creating")} />
    </form>
  );
}
