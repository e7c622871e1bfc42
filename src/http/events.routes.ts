// GET /api/v1/accounts/:account_id/events?since=&limit= — the realtime stream's catch-up over HTTP:
// the same events, names, payloads and visibility as /cable, oldest first, paged by seq.
import { Elysia, t } from "elysia";
import { chain, readSoon } from "../db/reads.ts";
import type { Deps } from "../deps.ts";
import { ResyncError, ValidationError } from "../domain/errors.ts";
import { whenReady } from "../lib/when-ready.ts";
import { accountScope } from "./auth.ts";
import { json } from "./json.ts";
import { AccountParams, Attributes, ErrorBody, errorResponses, Integer } from "./schemas.ts";

const DEFAULT_LIMIT = 100;
const MAX_LIMIT = 500;

const EventsPage = t.Object({
  payload: t.Array(
    t.Object({
      seq: Integer({ description: "the event's sequence number (grows within the account; not contiguous)" }),
      event: t.String({ description: "Chatwoot's realtime name, e.g. message.created" }),
      data: Attributes,
      created_at: Integer(),
    }),
  ),
  meta: t.Object({
    next_since: Integer({ description: "pass as since to get the next page" }),
    has_more: t.Boolean(),
  }),
});

function whole(field: string, raw: string | undefined, fallback: number, min: number, max: number): number {
  if (raw === undefined || raw === "") return fallback;
  const n = /^\d{1,15}$/.test(raw.trim()) ? Number(raw.trim()) : NaN;
  if (!(n >= min && n <= max))
    throw ValidationError.of(field, `must be a whole number from ${min} to ${max}`, "invalid");
  return n;
}

export function eventRoutes(d: Deps) {
  const feed = d.realtime.feed;
  return new Elysia({ prefix: "/api/v1/accounts/:account_id/events" }).use(accountScope(d.services.auth)).get(
    "",
    ({ principal, query }) => {
      const since = whole("since", query.since, 0, 0, Number.MAX_SAFE_INTEGER);
      const limit = whole("limit", query.limit, DEFAULT_LIMIT, 1, MAX_LIMIT);
      const viewer = { kind: "user" as const, accountId: principal.account.id, userId: principal.user.id };
      // The socket's reads, awaited on PostgreSQL's read pool (in place on SQLite, as before).
      const reads = chain(feed.readResync(since), (resync) => {
        if (resync) throw new ResyncError(resync);
        return feed.readPage(viewer, since, limit);
      });
      return whenReady(readSoon(reads), (page) => {
        const payload = page.items.map((r) => ({ seq: r.seq, event: r.event, data: r.data, created_at: r.created_at }));
        return json({ payload, meta: { next_since: page.next, has_more: page.more } });
      });
    },
    {
      params: AccountParams,
      query: t.Object({ since: t.Optional(t.String()), limit: t.Optional(t.String()) }),
      response: { 200: EventsPage, 410: ErrorBody, ...errorResponses },
      detail: {
        tags: ["realtime"],
        summary: "Events after a seq that the caller may see (catch-up for the /cable stream); 410 = reload",
      },
    },
  );
}
