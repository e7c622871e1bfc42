// Two accounts for the tenant-wall sweep (test/http/tenant-walls.test.ts): A and B seeded alike,
// marker strings only A holds, the body fields that can name another account's record, and a scan
// for rows that join one account's record to the other's.
import type { Database } from "bun:sqlite";
import { userTables } from "./test-database.ts";
import { makeAccount } from "./factories.ts";
import { createHarness, type Harness } from "./harness.ts";
import { accountIds, ok, type Post } from "./hostile-world.ts";

type Ids = Record<string, string>;

/** Strings only account A's records hold: none may show in an answer to B's token. */
export const MARKERS = [
  "TENANT-A-MARKER",
  "TENANT-A-MESSAGE",
  "tenant-a-label",
  "TENANT-A-CANNED",
  "TENANT-A-INBOX",
  "TENANT-A-APP",
  "TENANT-A-MACRO",
];

export interface Tenants {
  h: Harness;
  /** `markers`: MARKERS and the e-mail addresses of A's members. */
  a: { id: number; ids: Ids; markers: string[] };
  b: { id: number; ids: Ids; token: string };
}

const n = (id: string | undefined) => Number(id);

export async function tenants(): Promise<Tenants> {
  const h = createHarness();
  await h.deps.deliverer.stop(); // webhooks and bots are seeded with real-looking URLs: send nothing
  const a = await makeAccount(h, "Tenant A");
  const b = await makeAccount(h, "Tenant B");
  const postAs =
    (token: string): Post =>
    (path, body, t = token) =>
      ok(h, "POST", path, { token: t, body });
  const aIds = await accountIds(h, a, postAs(a.adminToken));
  const bIds = await accountIds(h, b, postAs(b.adminToken));
  const api = `/api/v1/accounts/${a.accountId}`;
  const opts = (body: unknown) => ({ token: a.adminToken, body });
  await ok(h, "PATCH", `${api}/contacts/${aIds["contacts/{id}"]}`, opts({ name: MARKERS[0] }));
  // Display ids count per account: A's second conversation is one B does not have.
  const c = await ok(
    h,
    "POST",
    `${api}/conversations`,
    opts({ inbox_id: n(aIds["{inbox_id}"]), contact_id: n(aIds["contacts/{id}"]) }),
  );
  aIds["{conversation_id}"] = String(c.id);
  const message = await ok(h, "POST", `${api}/conversations/${c.id}/messages`, opts({ content: MARKERS[1] }));
  aIds["{message_id}"] = String(message.id);
  await ok(h, "POST", `${api}/labels`, opts({ title: MARKERS[2] }));
  await ok(h, "POST", `${api}/conversations/${c.id}/labels`, opts({ labels: [MARKERS[2]] }));
  await ok(h, "POST", `${api}/canned_responses`, opts({ short_code: "a-marker", content: MARKERS[3] }));
  await ok(h, "PATCH", `${api}/inboxes/${aIds["inboxes/{id}"]}`, opts({ name: MARKERS[4] }));
  await ok(
    h,
    "POST",
    `${api}/dashboard_apps`,
    opts({ title: MARKERS[5], content: [{ type: "frame", url: "https://a.example.com/app" }] }),
  );
  await ok(
    h,
    "POST",
    `${api}/macros`,
    opts({
      name: MARKERS[6],
      visibility: "global",
      actions: [{ action_name: "open_conversation", action_params: [] }],
    }),
  );
  await h.deps.bus.drain();
  const emails = h.deps.db
    .query("SELECT u.email FROM users u JOIN account_users m ON m.user_id = u.id WHERE m.account_id = ?")
    .all(a.accountId) as { email: string }[];
  const markers = [...MARKERS, ...emails.map((e) => e.email)];
  return { h, a: { id: a.accountId, ids: aIds, markers }, b: { id: b.accountId, ids: bIds, token: b.adminToken } };
}

/** Body fields that name a record, set to account A's record of that kind. */
export function foreignFields(ids: Ids): Record<string, unknown> {
  const n = (k: string) => Number(ids[k]);
  return {
    inbox_id: n("{inbox_id}"),
    contact_id: n("contacts/{id}"),
    base_contact_id: n("contacts/{id}"),
    mergee_contact_id: n("{mergee_contact_id}"),
    assignee_id: n("agents/{id}"),
    user_id: n("agents/{id}"),
    user_ids: [n("agents/{id}")],
    team_id: n("{team_id}"),
    conversation_id: n("{conversation_id}"),
    agent_bot: n("agent_bots/{id}"),
    agent_bot_id: n("agent_bots/{id}"),
    webhook_id: n("webhooks/{id}"),
  };
}

/**
 * The table each reference column points at; users belong to the accounts they are members of.
 * Not conversation_id: some tables hold the per-account display id there, which is no account's own.
 */
const REFS: Record<string, string> = {
  inbox_id: "inboxes",
  contact_id: "contacts",
  team_id: "teams",
  message_id: "messages",
  webhook_id: "webhooks",
  agent_bot_id: "agent_bots",
  assignee_id: "users",
  user_id: "users",
  assigned_agent_id: "users",
};

/**
 * Rows that hold a reference to account `a`'s record and belong to (or reference) account `b`'s.
 * Returns the check; its statements (one a table) are made once.
 */
export function crossRowsCheck(db: Database, a: number, b: number): () => string[] {
  const owner = (col: string) =>
    REFS[col] === "users"
      ? `(SELECT CASE WHEN EXISTS (SELECT 1 FROM account_users u WHERE u.user_id = t."${col}" AND u.account_id = ${b}) THEN ${b} ELSE (SELECT MIN(account_id) FROM account_users u WHERE u.user_id = t."${col}") END)`
      : `(SELECT r.account_id FROM "${REFS[col]}" r WHERE r.id = t."${col}")`;
  const queries: { name: string; sql: string }[] = [];
  for (const { name, columns: cols } of userTables(db)) {
    const refs = cols.filter((c) => c in REFS && REFS[c] !== name);
    const owners = [...(cols.includes("account_id") ? ['t."account_id"'] : []), ...refs.map(owner)];
    if (owners.length < 2) continue;
    const sets = owners.map((o) => `${o} = ${a}`).join(" OR ");
    const setsB = owners.map((o) => `${o} = ${b}`).join(" OR ");
    const shown = [...(cols.includes("account_id") ? ["account_id"] : []), ...refs].map((c) => `t."${c}"`).join(", ");
    queries.push({ name, sql: `SELECT ${shown} FROM "${name}" t WHERE (${sets}) AND (${setsB})` });
  }
  return () =>
    queries.flatMap((q) =>
      db
        .query(q.sql)
        .all()
        .map((row) => `${q.name} ${JSON.stringify(row)}`),
    );
}
