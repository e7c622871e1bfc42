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

export function WebhookDetail({ accountId, webhookId }: { accountId: number; webhookId: number }) {
  const url = `/api/v1/accounts/${accountId}/webhooks/${webhookId}`;
  // There is no GET /webhooks/:id (Chatwoot has none either): the list holds it.
  const hook = useResource(
    () => listWebhooks(accountId).then((all) => ({ webhook: all.find((w) => w.id === webhookId) })),
    [accountId, webhookId],
    "The webhook",
  );
  const secret = useSignal<string | null>(null);
  const error = useSignal<string | null>(null);
  const rotate = async () => {
    try {
      secret.value = (await api<Webhook>("POST", `${url}/rotate_secret`)).secret ?? null;
    } catch (e) {
      error.value = describeError(e, "The secret could not be replaced.");
    }
  };
  const remove = async () => {
    try {
      await api("DELETE", url);
      navigate(paths.settings(accountId, "webhooks"));
    } catch (e) {
      error.value = describeError(e, "The webhook could not be deleted.");
    }
  };
  const w = hook.data.value?.webhook;
  return (
    <DetailPage accountId={accountId} section="webhooks" back="All webhooks" resource={hook}>
      {hook.data.value && !w && <p role="alert">There is no such webhook in this account.</p>}
      {w && (
        <section class="settings-card" aria-labelledby="webhook-title">
          <h2 id="webhook-title" class="wrap">
            {w.name || w.url}
          </h2>
          <dl class="facts">
            <dt>URL</dt>
            <dd class="wrap">
              <code>{w.url}</code>
            </dd>
            <dt>Inbox</dt>
            <dd>{w.inbox?.name ?? "Every inbox"}</dd>
            <dt>Events</dt>
            <dd>{w.subscriptions.join(", ")}</dd>
            {w.disabled_reason && (
              <>
                <dt>Disabled</dt>
                <dd>{w.disabled_reason}</dd>
              </>
            )}
          </dl>
          {secret.value && <OneTimeSecret secret={secret.value} title="New secret" />}
          {error.value && <p role="alert">{error.value}</p>}
          <div class="form-actions">
            <ConfirmButton
              label="Rotate secret"
              question="Replace the signing secret? Receivers need the new one."
              confirmLabel="Replace secret"
              onConfirm={rotate}
            />
            <ConfirmButton
              label="Delete webhook"
              question="Delete this webhook and its delivery log?"
              confirmLabel="Delete"
              onConfirm={remove}
            />
          </div>
        </section>
      )}
      {w && <WebhookDeliveries accountId={accountId} webhookId={w.id} />}
    </DetailPage>
  );
}
