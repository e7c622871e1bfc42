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
import { t } from "../../lib/i18n.ts";

const PER_PAGE = 25;

interface DeliveryPage {
  meta: { count: number; current_page: string };
  payload: Delivery[];
}

function outcome(d: Delivery): string {
  if (d.status === "delivered") return t("deliveries.delivered", { code: d.last_status_code ?? "?" });
  if (d.status === "failed") return t("deliveries.failed");
  return d.next_attempt_at
    ? t("deliveries.pending_next", { time: dateTime(d.next_attempt_at) })
    : t("deliveries.pending");
}

export function WebhookDeliveries({ accountId, webhookId }: { accountId: number; webhookId: number }) {
  const page = useSignal(1);
  const url = `/api/v1/accounts/${accountId}/webhooks/${webhookId}/deliveries`;
  const log = useResource(
    () => api<DeliveryPage>("GET", `${url}?page=${page.value}`),
    [accountId, webhookId, page.value],
    t("deliveries.what"),
  );
  const message = useSignal("");
  const redeliver = async (d: Delivery) => {
    message.value = "";
    try {
      await api("POST", `${url}/${encodeURIComponent(d.id)}/redeliver`);
      message.value = t("deliveries.again", { event: d.event });
      await log.reload();
    } catch (e) {
      message.value = describeError(e, t("deliveries.again_failed"));
    }
  };
  const r = log.data.value;
  const pages = r ? Math.max(1, Math.ceil(r.meta.count / PER_PAGE)) : 1;
  return (
    <section class="settings-card" aria-labelledby="deliveries-title">
      <div class="card-head">
        <h2 id="deliveries-title">{t("deliveries.title")}</h2>
        <button type="button" class="small" onClick={() => void log.reload()}>
          {t("deliveries.refresh")}
        </button>
      </div>
      <p role="status" class="form-status">
        {message.value}
      </p>
      {log.error.value && <p role="alert">{log.error.value}</p>}
      {r && r.payload.length === 0 && <p>{t("deliveries.none")}</p>}
      {r && r.payload.length > 0 && (
        <DataTable
          columns={[
            t("deliveries.col.event"),
            t("deliveries.col.status"),
            t("deliveries.col.attempts"),
            t("deliveries.col.error"),
            t("deliveries.col.created"),
          ]}
          actions
        >
          {r.payload.map((d) => (
            <tr key={d.id}>
              <td>
                <code>{d.event}</code>
              </td>
              <td>
                <span class={`tag status-${d.status}`}>{outcome(d)}</span>
              </td>
              <td>{t("deliveries.attempts", { attempts: d.attempts, max: d.max_attempts })}</td>
              <td class="wrap">
                {d.last_error ?? (d.last_status_code && d.status !== "delivered" ? `HTTP ${d.last_status_code}` : "—")}
              </td>
              <td title={dateTime(d.created_at)}>{shortAge(d.created_at)}</td>
              <td>
                <button
                  type="button"
                  class="small"
                  onClick={() => void redeliver(d)}
                  aria-label={t("deliveries.redeliver_label", { event: d.event, time: dateTime(d.created_at) })}
                >
                  {t("deliveries.redeliver")}
                </button>
              </td>
            </tr>
          ))}
        </DataTable>
      )}
      <Pager
        page={page}
        pages={pages}
        label={t("deliveries.pages")}
        back={t("deliveries.newer")}
        forward={t("deliveries.older")}
      />
    </section>
  );
}
