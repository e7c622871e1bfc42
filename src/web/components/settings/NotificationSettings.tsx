// Settings › Notifications: which notifications the signed-in member gets by email and as mobile
// push, in this account (Chatwoot's notification_settings, the member's own: every member may open
// this section). Email goes out only when the server has a mail server (PARLEY_SMTP_URL).
import { type Signal, useSignal } from "@preact/signals";
import { useEffect } from "preact/hooks";
import { ApiError, api } from "../../lib/api.ts";
import { type Key, t } from "../../lib/i18n.ts";
import { useResource } from "../../lib/use-resource.ts";
import type { SectionProps } from "../Settings.tsx";
import { CheckField } from "../CheckField.tsx";
import { FormFooter } from "../FormFooter.tsx";
import { LoadState } from "../LoadState.tsx";

interface Flags {
  all_email_flags: string[];
  selected_email_flags: string[];
  all_push_flags: string[];
  selected_push_flags: string[];
}

const TYPES = [
  "conversation_creation",
  "conversation_assignment",
  "conversation_mention",
  "assigned_conversation_new_message",
] as const;

const label = (type: (typeof TYPES)[number]) => t(`notify.type.${type}` as Key);

function Group(props: { legend: string; kind: "email" | "push"; chosen: Record<string, Signal<boolean>> }) {
  return (
    <fieldset class="checklist">
      <legend>{props.legend}</legend>
      {TYPES.map((type) => (
        <CheckField key={type} id={`${props.kind}-${type}`} label={label(type)} value={props.chosen[type]!} />
      ))}
    </fieldset>
  );
}

export function NotificationSettings({ accountId }: SectionProps) {
  const url = `/api/v1/accounts/${accountId}/notification_settings`;
  const resource = useResource(() => api<Flags>("GET", url), [accountId], t("notify.what"));
  const email = Object.fromEntries(TYPES.map((type) => [type, useSignal(false)]));
  const push = Object.fromEntries(TYPES.map((type) => [type, useSignal(false)]));
  const busy = useSignal(false);
  const failure = useSignal<string | null>(null);
  const saved = useSignal("");

  const show = (f: Flags) => {
    for (const type of TYPES) {
      email[type]!.value = f.selected_email_flags.includes(`email_${type}`);
      push[type]!.value = f.selected_push_flags.includes(`push_${type}`);
    }
  };
  const data = resource.data.value;
  // The boxes follow what the server says, on load and after each save.
  useEffect(() => void (data && show(data)), [data]);

  const submit = async (e: SubmitEvent) => {
    e.preventDefault();
    if (busy.value) return;
    busy.value = true;
    failure.value = null;
    saved.value = "";
    const chosen = (kind: string, set: Record<string, Signal<boolean>>) =>
      TYPES.filter((type) => set[type]!.value).map((type) => `${kind}_${type}`);
    try {
      resource.data.value = await api<Flags>("PATCH", url, {
        notification_settings: {
          selected_email_flags: chosen("email", email),
          selected_push_flags: chosen("push", push),
        },
      });
      saved.value = t("common.saved");
    } catch (err) {
      failure.value = err instanceof ApiError ? err.description : t("notify.save_failed");
    } finally {
      busy.value = false;
    }
  };

  if (!data) return <LoadState resource={resource} />;
  return (
    <form class="settings-form" onSubmit={submit} aria-label={t("notify.title")}>
      <p class="hint">{t("notify.explain")}</p>
      <Group legend={t("notify.by_email")} kind="email" chosen={email} />
      <Group legend={t("notify.by_push")} kind="push" chosen={push} />
      <FormFooter failure={failure.value} saved={saved.value} busy={busy.value} label={t("common.save_changes")} />
    </form>
  );
}
