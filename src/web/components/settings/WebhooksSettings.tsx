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
  const hooks = useResource(() => listWebhooks(accountId), [accountId], "The webhooks");
  const list = hooks.data.value;
  return (
    <div class="settings-stack">
      <section class="settings-card" aria-labelledby="webhooks-title">
        <h2 id="webhooks-title">Webhooks</h2>
        <LoadState resource={hooks} />
        {list && list.length === 0 && (
          <p>No webhooks yet. A webhook sends the events you choose to a URL of yours, signed.</p>
        )}
        {list && list.length > 0 && (
          <DataTable columns={["URL", "Events", "State"]}>
            {list.map((w) => (
              <tr key={w.id}>
                <td class="wrap">
                  <Link href={paths.settings(accountId, "webhooks", w.id)}>{w.name || w.url}</Link>
                  {w.name && <span class="hint"> {w.url}</span>}
                </td>
                <td>{w.subscriptions.length}</td>
                <td>{w.disabled_reason ? <span class="tag status-failed">Disabled</span> : "Active"}</td>
              </tr>
            ))}
          </DataTable>
        )}
      </section>
      <WebhookForm accountId={accountId} onCreated={() => void hooks.reload()} />
    </div>
  );
}
