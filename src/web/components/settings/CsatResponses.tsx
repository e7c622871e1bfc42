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
  const answers = useResource(
    () => list(accountId, `page=${page.value}`),
    [accountId, page.value],
    "The satisfaction answers",
  );
  const rows = answers.data.value;
  return (
    <section class="settings-card" aria-labelledby="csat-title">
      <h2 id="csat-title">Satisfaction answers</h2>
      <LoadState resource={answers} />
      {rows && rows.length === 0 && (
        <p>No answers yet. Inboxes that ask for a rating when a conversation is resolved collect them.</p>
      )}
      {rows && rows.length > 0 && (
        <DataTable
          columns={["Rating", "Feedback", "Contact", "Agent", "Conversation", "Answered"]}
          caption="Satisfaction answers"
        >
          {rows.map((a) => (
            <tr key={a.id}>
              <td>
                <span class="csat-rating" aria-label={`${a.rating} of 5`}>
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
        label="Satisfaction answer pages"
        back="Newer"
        forward="Older"
      />
    </section>
  );
}
