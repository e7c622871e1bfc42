// One webhook: where it sends and what, a new secret on request (shown once), deleting it, and its
// delivery log.
import { useSignal } from "@preact/signals";
import { api } from "../../lib/api.ts";
import { navigate } from "../../lib/router.ts";
import { paths } from "../../lib/routes.ts";
import { describeError } from "../../lib/thread.ts";
import type { Webhook } from "../../lib/types.ts";
import { useResource } from "../../lib/use-resource.ts";
import { ConfirmButton } from "../ConfirmButton.tsx";
import { DetailPage } from "./DetailPage.tsx";
import { OneTimeSecret } from "./OneTimeSecret.tsx";
import { WebhookDeliveries } from "./WebhookDeliveries.tsx";
import { listWebhooks } from "./WebhooksSettings.tsx";
import { t } from "../../lib/i18n.ts";

export function WebhookDetail({ accountId, webhookId }: { accountId: number; webhookId: number }) {
  const url = `/api/v1/accounts/${accountId}/webhooks/${webhookId}`;
  // There is no GET /webhooks/:id (Chatwoot has none either): the list holds it.
  const hook = useResource(
    () => listWebhooks(accountId).then((all) => ({ webhook: all.find((w) => w.id === webhookId) })),
    [accountId, webhookId],
    t("webhooks.what_one"),
  );
  const secret = useSignal<string | null>(null);
  const error = useSignal<string | null>(null);
  const rotate = async () => {
    try {
      secret.value = (await api<Webhook>("POST", `${url}/rotate_secret`)).secret ?? null;
    } catch (e) {
      error.value = describeError(e, t("webhooks.rotate_failed"));
    }
  };
  const remove = async () => {
    try {
      await api("DELETE", url);
      navigate(paths.settings(accountId, "webhooks"));
    } catch (e) {
      error.value = describeError(e, t("webhooks.delete_failed"));
    }
  };
  const w = hook.data.value?.webhook;
  return (
    <DetailPage accountId={accountId} section="webhooks" back={t("webhooks.all")} resource={hook}>
      {hook.data.value && !w && <p role="alert">{t("webhooks.no_such")}</p>}
      {w && (
        <section class="settings-card" aria-labelledby="webhook-title">
          <h2 id="webhook-title" class="wrap">
            {w.name || w.url}
          </h2>
          <dl class="facts">
            <dt>{t("webhooks.url")}</dt>
            <dd class="wrap">
              <code>{w.url}</code>
            </dd>
            <dt>{t("webhooks.inbox")}</dt>
            <dd>{w.inbox?.name ?? t("webhooks.every_inbox")}</dd>
            <dt>{t("webhooks.events")}</dt>
            <dd>{w.subscriptions.join(", ")}</dd>
            {w.disabled_reason && (
              <>
                <dt>{t("webhooks.disabled")}</dt>
                <dd>{w.disabled_reason}</dd>
              </>
            )}
          </dl>
          {secret.value && <OneTimeSecret secret={secret.value} title={t("webhooks.new_secret")} />}
          {error.value && <p role="alert">{error.value}</p>}
          <div class="form-actions">
            <ConfirmButton
              label={t("webhooks.rotate")}
              question={t("webhooks.rotate_question")}
              confirmLabel={t("webhooks.replace")}
              onConfirm={rotate}
            />
            <ConfirmButton
              label={t("webhooks.delete")}
              question={t("webhooks.delete_question")}
              confirmLabel={t("common.delete")}
              onConfirm={remove}
            />
          </div>
        </section>
      )}
      {w && <WebhookDeliveries accountId={accountId} webhookId={w.id} />}
    </DetailPage>
  );
}
