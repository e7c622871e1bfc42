// Settings › Reports: the contacts' satisfaction answers, newest first, 25 a page: the rating,
// their words, who answered, and a link to the conversation.
import { useSignal } from "@preact/signals";
import { api } from "../../lib/api.ts";
import { dateTime, shortAge } from "../../lib/format.ts";
import { paths } from "../../lib/routes.ts";
import { useResource } from "../../lib/use-resource.ts";
import { DataTable } from "../DataTable.tsx";
import { Link } from "../Link.tsx";
import { LoadState } from "../LoadState.tsx";
import { Pager } from "../Pager.tsx";
import { t } from "../../lib/i18n.ts";

export interface CsatAnswer {
  id: number;
  rating: number;
  feedback_message: string | null;
  conversation_id: number;
  contact?: { name: string };
  assigned_agent?: { available_name: string };
  created_at: number;
}

const PER_PAGE = 25;

const list = (accountId: number, query: string) =>
  api<CsatAnswer[]>("GET", `/api/v1/accounts/${accountId}/csat_survey_responses?${query}`);

/** Every answer of a period (page after page; a period holds few), for the overview's average. */
export async function csatSince(accountId: number, since: number, until: number): Promise<CsatAnswer[]> {
  const all: CsatAnswer[] = [];
  for (let page = 1; ; page++) {
    const batch = await list(accountId, `since=${since}&until=${until}&page=${page}`);
    all.push(...batch);
    if (batch.length < PER_PAGE || page >= 40) return all;
  }
}

export function CsatResponses({ accountId }: { accountId: number }) {
  const page = useSignal(1);
  const answers = useResource(() => list(accountId, `page=${page.value}`), [accountId, page.value], t("csat.what"));
  const rows = answers.data.value;
  return (
    <section class="settings-card" aria-labelledby="csat-title">
      <h2 id="csat-title">{t("csat.title")}</h2>
      <LoadState resource={answers} />
      {rows && rows.length === 0 && <p>{t("csat.none")}</p>}
      {rows && rows.length > 0 && (
        <DataTable
          columns={[
            t("csat.col.rating"),
            t("csat.col.feedback"),
            t("csat.col.contact"),
            t("csat.col.agent"),
            t("csat.col.conversation"),
            t("csat.col.answered"),
          ]}
          caption={t("csat.title")}
        >
          {rows.map((a) => (
            <tr key={a.id}>
              <td>
                <span class="csat-rating" aria-label={t("overview.of_5", { rating: a.rating })}>
                  {"★".repeat(a.rating)}
                  {"☆".repeat(5 - a.rating)}
                </span>
              </td>
              <td class="wrap">{a.feedback_message ?? "—"}</td>
              <td>{a.contact?.name || "—"}</td>
              <td>{a.assigned_agent?.available_name ?? "—"}</td>
              <td>
                <Link href={paths.conversation(accountId, a.conversation_id)}>#{a.conversation_id}</Link>
              </td>
              <td title={dateTime(a.created_at)}>{shortAge(a.created_at)}</td>
            </tr>
          ))}
        </DataTable>
      )}
      <Pager
        page={page}
        pages={null}
        more={rows?.length === PER_PAGE}
        label={t("csat.pages")}
        back={t("deliveries.newer")}
        forward={t("deliveries.older")}
      />
    </section>
  );
}
