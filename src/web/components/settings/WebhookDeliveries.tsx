// A webhook's delivery log, newest first, 25 a page: the event, the outcome, attempts, the last
// answer or error, and a button to send one again.
import { useSignal } from "@preact/signals";
import { api } from "../../lib/api.ts";
import { dateTime, shortAge } from "../../lib/format.ts";
import { describeError } from "../../lib/thread.ts";
import type { Delivery } from "../../lib/types.ts";
import { useResource } from "../../lib/use-resource.ts";
import { DataTable } from "../DataTable.tsx";
import { Pager } from "../Pager.tsx";

const PER_PAGE = 25;

interface DeliveryPage {
  meta: { count: number; current_page: string };
  payload: Delivery[];
}

function outcome(d: Delivery): string {
  if (d.status === "delivered") return `Delivered (${d.last_status_code ?? "?"})`;
  if (d.status === "failed") return "Failed";
  return d.next_attempt_at ? `Pending, next try ${dateTime(d.next_attempt_at)}` : "Pending";
}

export function WebhookDeliveries({ accountId, webhookId }: { accountId: number; webhookId: number }) {
  const page = useSignal(1);
  const url = `/api/v1/accounts/${accountId}/webhooks/${webhookId}/deliveries`;
  const log = useResource(
    () => api<DeliveryPage>("GET", `${url}?page=${page.value}`),
    [accountId, webhookId, page.value],
    "The delivery log",
  );
  const message = useSignal("");
  const redeliver = async (d: Delivery) => {
    message.value = "";
    try {
      await api("POST", `${url}/${encodeURIComponent(d.id)}/redeliver`);
      message.value = `${d.event} will be sent again.`;
      await log.reload();
    } catch (e) {
      message.value = describeError(e, "It could not be sent again.");
    }
  };
  const r = log.data.value;
  const pages = r ? Math.max(1, Math.ceil(r.meta.count / PER_PAGE)) : 1;
  return (
    <section class="settings-card" aria-labelledby="deliveries-title">
      <div class="card-head">
        <h2 id="deliveries-title">Deliveries</h2>
        <button type="button" class="small" onClick={() => void log.reload()}>
          Refresh
        </button>
      </div>
      <p role="status" class="form-status">
        {message.value}
      </p>
      {log.error.value && <p role="alert">{log.error.value}</p>}
      {r && r.payload.length === 0 && <p>Nothing sent yet. Deliveries appear here as events happen.</p>}
      {r && r.payload.length > 0 && (
        <DataTable columns={["Event", "Status", "Attempts", "Last error", "Created"]} actions>
          {r.payload.map((d) => (
            <tr key={d.id}>
              <td>
                <code>{d.event}</code>
              </td>
              <td>
                <span class={`tag status-${d.status}`}>{outcome(d)}</span>
              </td>
              <td>
                {d.attempts} of {d.max_attempts}
              </td>
              <td class="wrap">
                {d.last_error ?? (d.last_status_code && d.status !== "delivered" ? `HTTP ${d.last_status_code}` : "—")}
              </td>
              <td title={dateTime(d.created_at)}>{shortAge(d.created_at)}</td>
              <td>
                <button
                  type="button"
                  class="small"
                  onClick={() => void redeliver(d)}
                  aria-label={`Redeliver ${d.event} of ${dateTime(d.created_at)}`}
                >
                  Redeliver
                </button>
              </td>
            </tr>
          ))}
        </DataTable>
      )}
      <Pager page={page} pages={pages} label="Delivery pages" back="Newer" forward="Older" />
    </section>
  );
}
