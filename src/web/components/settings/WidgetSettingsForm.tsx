// A website inbox's chat settings: the site, the look (color, welcome title and tagline, reply
// time), the away message, the pre-chat form (which fields, required or optional, custom ones),
// identity verification and the origins allowed to embed the chat.
import { useSignal } from "@preact/signals";
import { api } from "../../lib/api.ts";
import type { Inbox, PreChatField } from "../../lib/types.ts";
import { useSubmit } from "../../lib/use-submit.ts";
import { CheckField } from "../CheckField.tsx";
import { Field, describedBy } from "../Field.tsx";
import { FormFooter } from "../FormFooter.tsx";
import { TextInput } from "../TextInput.tsx";
import { PreChatFieldsEditor } from "./PreChatFieldsEditor.tsx";
import { t } from "../../lib/i18n.ts";

const FIELDS = {
  "channel.website_url": "widget.website_url",
  "channel.widget_color": "widget.color",
  "channel.welcome_title": "widget.welcome_title",
  "channel.welcome_tagline": "widget.welcome_tagline",
  "channel.reply_time": "widget.reply_time",
  "channel.pre_chat_form_enabled": "widget.pre_chat",
  "channel.pre_chat_form_options": "widget.pre_chat",
  "channel.allowed_origins": "widget.allowed_origins",
  "channel.hmac_mandatory": "widget.identity",
  out_of_office_message: "widget.away",
} as const;
const fieldLabels = () => Object.fromEntries(Object.entries(FIELDS).map(([field, key]) => [field, t(key)]));

const REPLY_TIMES = [
  ["in_a_few_minutes", "widget.minutes"],
  ["in_a_few_hours", "widget.hours"],
  ["in_a_day", "widget.day"],
] as const;

export function WidgetSettingsForm({
  accountId,
  inbox,
  onSaved,
}: {
  accountId: number;
  inbox: Inbox;
  onSaved(i: Inbox): void;
}) {
  const websiteUrl = useSignal(inbox.website_url ?? "");
  const color = useSignal(inbox.widget_color ?? "#1f93ff");
  const title = useSignal(inbox.welcome_title ?? "");
  const tagline = useSignal(inbox.welcome_tagline ?? "");
  const replyTime = useSignal(inbox.reply_time ?? "in_a_few_minutes");
  const away = useSignal(inbox.out_of_office_message ?? "");
  const preChat = useSignal(inbox.pre_chat_form_enabled === true);
  const preChatMessage = useSignal(inbox.pre_chat_form_options?.pre_chat_message ?? "");
  const preChatFields = useSignal<PreChatField[]>(inbox.pre_chat_form_options?.pre_chat_fields ?? []);
  const origins = useSignal((inbox.allowed_origins ?? []).join("\n"));
  const hmacMandatory = useSignal(inbox.hmac_mandatory === true);
  const saved = useSignal("");
  const form = useSubmit(fieldLabels(), "widget-", t("widget.saving_what"));
  const submit = (e: SubmitEvent) => {
    e.preventDefault();
    saved.value = "";
    void form.run(async () => {
      const updated = await api<Inbox>("PATCH", `/api/v1/accounts/${accountId}/inboxes/${inbox.id}`, {
        out_of_office_message: away.value.trim() || null,
        channel: {
          website_url: websiteUrl.value.trim(),
          widget_color: color.value,
          welcome_title: title.value.trim() || null,
          welcome_tagline: tagline.value.trim() || null,
          reply_time: replyTime.value,
          pre_chat_form_enabled: preChat.value,
          pre_chat_form_options: {
            pre_chat_message: preChatMessage.value.trim(),
            pre_chat_fields: preChatFields.value,
          },
          allowed_origins: origins.value.split(/\s+/).filter(Boolean),
          hmac_mandatory: hmacMandatory.value,
        },
      });
      onSaved(updated);
      saved.value = t("widget.saved");
    });
  };
  const errors = form.errors.value;
  const err = (k: keyof typeof FIELDS) => errors[k];
  return (
    <form class="settings-card" onSubmit={submit} noValidate aria-labelledby="widget-title">
      <h2 id="widget-title">{t("widget.title")}</h2>
      <Field id="widget-channel.website_url" label={t("widget.website_url")} error={err("channel.website_url")}>
        <TextInput
          {...describedBy("widget-channel.website_url", err("channel.website_url"))}
          maxLength={2048}
          value={websiteUrl}
        />
      </Field>
      <Field id="widget-channel.widget_color" label={t("widget.color")} error={err("channel.widget_color")}>
        <input
          type="color"
          {...describedBy("widget-channel.widget_color", err("channel.widget_color"))}
          value={color.value}
          onInput={(e) => (color.value = e.currentTarget.value)}
        />
      </Field>
      <Field id="widget-channel.welcome_title" label={t("widget.welcome_title")} error={err("channel.welcome_title")}>
        <TextInput
          {...describedBy("widget-channel.welcome_title", err("channel.welcome_title"))}
          maxLength={255}
          value={title}
        />
      </Field>
      <Field
        id="widget-channel.welcome_tagline"
        label={t("widget.welcome_tagline")}
        error={err("channel.welcome_tagline")}
      >
        <TextInput
          {...describedBy("widget-channel.welcome_tagline", err("channel.welcome_tagline"))}
          maxLength={255}
          value={tagline}
        />
      </Field>
      <Field id="widget-channel.reply_time" label={t("widget.usually")} error={err("channel.reply_time")}>
        <select
          {...describedBy("widget-channel.reply_time", err("channel.reply_time"))}
          value={replyTime.value}
          onChange={(e) => (replyTime.value = e.currentTarget.value)}
        >
          {REPLY_TIMES.map(([v, label]) => (
            <option key={v} value={v}>
              {t(label)}
            </option>
          ))}
        </select>
      </Field>
      <Field
        id="widget-out_of_office_message"
        label={t("widget.away")}
        error={err("out_of_office_message")}
        hint={t("widget.away_hint")}
      >
        <textarea
          {...describedBy("widget-out_of_office_message", err("out_of_office_message"), true)}
          rows={2}
          value={away.value}
          onInput={(e) => (away.value = e.currentTarget.value)}
        />
      </Field>
      <CheckField
        id="widget-channel.pre_chat_form_enabled"
        label={t("widget.pre_chat_label")}
        value={preChat}
        error={err("channel.pre_chat_form_enabled")}
      />
      {preChat.value && (
        <>
          <Field id="widget-pre-chat-message" label={t("widget.pre_chat_message")}>
            <TextInput id="widget-pre-chat-message" maxLength={1000} value={preChatMessage} />
          </Field>
          <PreChatFieldsEditor fields={preChatFields} error={err("channel.pre_chat_form_options")} />
        </>
      )}
      <Field
        id="widget-channel.allowed_origins"
        label={t("widget.origins_label")}
        error={err("channel.allowed_origins")}
        hint={t("widget.origins_hint")}
      >
        <textarea
          {...describedBy("widget-channel.allowed_origins", err("channel.allowed_origins"), true)}
          rows={3}
          value={origins.value}
          onInput={(e) => (origins.value = e.currentTarget.value)}
        />
      </Field>
      <CheckField
        id="widget-channel.hmac_mandatory"
        label={t("widget.hmac_label")}
        value={hmacMandatory}
        error={err("channel.hmac_mandatory")}
      />
      <FormFooter failure={form.failure.value} saved={saved.value} busy={form.busy.value} label={t("widget.save")} />
    </form>
  );
}
