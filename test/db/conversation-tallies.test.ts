// The conversation list's counts come from tallies kept by triggers (migration 010). After a
// random walk of creations, status changes, assignments, team moves and deletions through the
// real routes, every filter's tallied counts must equal the counts of the conversations themselves.
import { describe, expect, test } from "bun:test";
import type { ConversationFilter } from "../../src/db/conversation-lists.repo.ts";
import { addInboxMember, addTeamMember, makeInbox, makeTeam } from "../helpers/directory-fixtures.ts";
import { newConversation, world } from "../helpers/conversation-fixtures.ts";

/** A small deterministic generator (mulberry32): the walk is the same on every run. */
function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

describe("conversation tallies", () => {
  test("equal the scanned counts for every filter after 150 random changes", async () => {
    const w = await world();
    const rnd = random(42);
    const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)]!;
    const second = makeInbox(w.h, w.a.accountId, { name: "Second" });
    addInboxMember(w.h, second, w.agent.userId);
    const teams = [makeTeam(w.h, w.a.accountId, "sales"), makeTeam(w.h, w.a.accountId, "support")];
    for (const t of teams) addTeamMember(w.h, t, w.agent.userId);
    const users = [w.a.adminId, w.agent.userId];
    const statuses = ["open", "resolved", "pending"] as const;
    const convs: number[] = [];
    const post = (id: number, action: string, body: Record<string, unknown>) =>
      w.h.request("POST", `${w.base}/conversations/${id}/${action}`, { token: w.a.adminToken, body });

    for (let step = 0; step < 150; step++) {
      const roll = rnd();
      if (convs.length < 5 || roll < 0.25) {
        const c = await newConversation(w, {
          inbox_id: pick([w.inboxId, second]),
          status: pick(statuses),
          ...(rnd() < 0.5 ? { assignee_id: pick(users) } : {}),
        });
        convs.push(c.id);
      } else if (roll < 0.5) {
        expect((await post(pick(convs), "toggle_status", { status: pick(statuses) })).status).toBe(200);
      } else if (roll < 0.7) {
        expect((await post(pick(convs), "assignments", { assignee_id: rnd() < 0.3 ? null : pick(users) })).status).toBe(
          200,
        );
      } else if (roll < 0.9) {
        expect((await post(pick(convs), "assignments", { team_id: rnd() < 0.3 ? null : pick(teams) })).status).toBe(
          200,
        );
      } else {
        const id = convs.splice(Math.floor(rnd() * convs.length), 1)[0]!;
        w.h.deps.db.query("DELETE FROM conversations WHERE account_id = ? AND display_id = ?").run(w.a.accountId, id);
      }
    }

    const repo = w.h.deps.repos.conversationLists;
    const filters: ConversationFilter[] = [];
    for (const status of [null, ...statuses, "snoozed" as const])
      for (const teamId of [null, ...teams])
        for (const inboxIds of [null, [w.inboxId], [second], [w.inboxId, second]])
          filters.push({ accountId: w.a.accountId, inboxIds, status, teamId, labels: null, q: null });
    let nonEmpty = 0;
    for (const f of filters)
      for (const user of [...users, 0]) {
        const scanned = repo.countedByScan(f, user);
        expect({ f, user, counts: repo.counts(f, user) }).toEqual({ f, user, counts: scanned });
        if (scanned.all_count > 0) nonEmpty++;
      }
    // The walk must have produced a spread worth checking, not 240 zeros.
    expect(nonEmpty).toBeGreaterThan(100);
    const all = repo.counts(filters[0]!, w.a.adminId);
    expect(all.all_count).toBe(convs.length);
    expect(all.assigned_count + all.unassigned_count).toBe(convs.length);
  }, 30_000);

  test("a tally row per key: touching a conversation's activity does not change the tallies", async () => {
    const w = await world();
    const c = await newConversation(w, { assignee_id: w.agent.userId });
    const tallies = () =>
      w.h.deps.db
        .query("SELECT inbox_id, team_id, status, assignee_id, n FROM conversation_tallies WHERE account_id = ?")
        .all(w.a.accountId);
    expect(tallies()).toEqual([{ inbox_id: w.inboxId, team_id: 0, status: "open", assignee_id: w.agent.userId, n: 1 }]);
    const r = await w.h.request("POST", `${w.base}/conversations/${c.id}/messages`, {
      token: w.a.adminToken,
      body: { content: "hello" },
    });
    expect(r.status).toBe(200);
    expect(tallies()).toEqual([{ inbox_id: w.inboxId, team_id: 0, status: "open", assignee_id: w.agent.userId, n: 1 }]);
  });
});
