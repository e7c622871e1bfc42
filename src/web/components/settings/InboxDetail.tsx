// One inbox: what an integration needs (the inbox identifier for the public API, the callback URL
// and its signing secret, shown on request), its settings, who works in it, and deleting it.
import { api } from "../../lib/api.ts";
import { channelLabel } from "../../lib/channels.ts";
import { paths } from "../../lib/routes.ts";
import type { Inbox } from "../../lib/types.ts";
import { useResource } from "../../lib/use-resource.ts";
import { DetailPage } from "./DetailPage.tsx";
import { DeleteCard } from "./DeleteCard.tsx";
import { EmailServerSettings } from "./EmailServerSettings.tsx";
import { InboxEditForm } from "./InboxEditForm.tsx";
import { InboxMembers } from "./InboxMembers.tsx";
import { Secret } from "./Secret.tsx";
import { WidgetSettingsForm } from "./WidgetSettingsForm.tsx";
import { WidgetSnippet } from "./WidgetSnippet.tsx";
import { t } from "../../lib/i18n.ts";

export function InboxDetail({ accountId, inboxId }: { accountId: number; inboxId: number }) {
  const url = `/api/v1/accounts/${accountId}/inboxes/${inboxId}`;
  const inbox = useResource(() => api<Inbox>("GET", url), [accountId, inboxId], t("inbox.what"));
  const i = inbox.data.value;
  return (
    <DetailPage accountId={accountId} section="inboxes" back={t("inbox.all")} resource={inbox}>
      {i && (
        <section class="settings-card" aria-labelledby="inbox-title">
          <h2 id="inbox-title">{i.name}</h2>
          <dl class="facts">
            <dt>{t("inbox.channel")}</dt>
            <dd>{channelLabel(i.channel_type)}</dd>
            {i.inbox_identifier && (
              <>
                <dt>{t("inbox.identifier")}</dt>
                <dd>
                  <code class="identifier">{i.inbox_identifier}</code>
                  <p class="hint">{t("inbox.identifier_hint", { identifier: i.inbox_identifier })}</p>
                </dd>
              </>
            )}
            {i.email && (
              <>
                <dt>{t("mail.address")}</dt>
                <dd>
                  <code>{i.email}</code>
                </dd>
              </>
            )}
            {i.channel_type === "Channel::Api" && (
              <>
                <dt>{t("inbox.webhook_url")}</dt>
                <dd>{i.webhook_url ? <code>{i.webhook_url}</code> : t("inbox.no_webhook")}</dd>
              </>
            )}
            {i.webhook_secret && (
              <>
                <dt>{t("inbox.webhook_secret")}</dt>
                <dd>
                  <Secret value={i.webhook_secret} label={t("inbox.webhook_secret_label")} />
                  <p class="hint">{t("inbox.webhook_secret_hint")}</p>
                </dd>
              </>
            )}
          </dl>
        </section>
      )}
      {i?.channel_type === "Channel::WebWidget" && <WidgetSnippet inbox={i} />}
      {i?.channel_type === "Channel::WebWidget" && (
        <WidgetSettingsForm
          key={`w${i.id}`}
          accountId={accountId}
          inbox={i}
          onSaved={(updated) => (inbox.data.value = updated)}
        />
      )}
      {i?.channel_type === "Channel::Email" && i.imap_port !== undefined && (
        <EmailServerSettings
          key={`m${i.id}`}
          accountId={accountId}
          inbox={i}
          onSaved={(updated) => (inbox.data.value = updated)}
        />
      )}
      {i && (
        <InboxEditForm key={i.id} accountId={accountId} inbox={i} onSaved={(updated) => (inbox.data.value = updated)} />
      )}
      {i && <InboxMembers accountId={accountId} inboxId={i.id} />}
      {i && (
        <DeleteCard
          accountId={accountId}
          what="inbox"
          title={t("inbox.delete_title")}
          label={t("inbox.delete")}
          question={t("inbox.delete_question", { name: i.name })}
          failed={t("inbox.delete_failed")}
          consequence={t("inbox.delete_consequence")}
          url={url}
          back={paths.settings(accountId, "inboxes")}
        />
      )}
    </DetailPage>
  );
}
