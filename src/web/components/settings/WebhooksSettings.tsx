// Settings › Webhooks: the account's webhooks and a form for a new one; a path with a webhook's id
// shows that webhook with its delivery log.
import { api } from "../../lib/api.ts";
import { paths } from "../../lib/routes.ts";
import type { Webhook } from "../../lib/types.ts";
import { useResource } from "../../lib/use-resource.ts";
import { Link } from "../Link.tsx";
import type { SectionProps } from "../Settings.tsx";
import { WebhookDetail } from "./WebhookDetail.tsx";
import { WebhookForm } from "./WebhookForm.tsx";
import { LoadState } from "../LoadState.tsx";
import { DataTable } from "../DataTable.tsx";
import { t } from "../../lib/i18n.ts";

export function listWebhooks(accountId: number): Promise<Webhook[]> {
  return api<{ payload: { webhooks: Webhook[] } }>("GET", `/api/v1/accounts/${accountId}/webhooks`).then(
    (r) => r.payload.webhooks,
  );
}

export function WebhooksSettings({ accountId, itemId }: SectionProps) {
  if (itemId !== null) return <WebhookDetail accountId={accountId} webhookId={itemId} />;
  return <WebhookList accountId={accountId} />;
}

function WebhookList({ accountId }: { accountId: number }) {
  const hooks = useResource(() => listWebhooks(accountId), [accountId], t("webhooks.what"));
  const list = hooks.data.value;
  return (
    <div class="settings-stack">
      <section class="settings-card" aria-labelledby="webhooks-title">
        <h2 id="webhooks-title">{t("webhooks.title")}</h2>
        <LoadState resource={hooks} />
        {list && list.length === 0 && <p>{t("webhooks.none")}</p>}
        {list && list.length > 0 && (
          <DataTable columns={[t("webhooks.col.url"), t("webhooks.col.events"), t("webhooks.col.state")]}>
            {list.map((w) => (
              <tr key={w.id}>
                <td class="wrap">
                  <Link href={paths.settings(accountId, "webhooks", w.id)}>{w.name || w.url}</Link>
                  {w.name && <span class="hint"> {w.url}</span>}
                </td>
                <td>{w.subscriptions.length}</td>
                <td>
                  {w.disabled_reason ? (
                    <span class="tag status-failed">{t("webhooks.disabled")}</span>
                  ) : (
                    t("webhooks.active")
                  )}
                </td>
              </tr>
            ))}
          </DataTable>
        )}
      </section>
      <WebhookForm accountId={accountId} onCreated={() => void hooks.reload()} />
    </div>
  );
}
