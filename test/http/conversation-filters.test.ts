// POST conversations/filter: status, labels and team with AND chaining, the counts in meta, an
// agent's inboxes only, and 422s that name the item.
import { describe, expect, test } from "bun:test";
import { newConversation, world } from "../helpers/conversation-fixtures.ts";
import { makeTeam } from "../helpers/directory-fixtures.ts";
import { cond } from "../helpers/record-filter-fixtures.ts";

describe("POST conversations/filter", () => {
  test("status and labels, 25 a page, counts in meta, newest activity first", async () => {
    const w = await world();
    const teamId = makeTeam(w.h, w.a.accountId, "billing");
    const ids: number[] = [];
    for (let i = 0; i < 3; i++) {
      w.h.clock.advance(1000);
      ids.push(
        (
          await newConversation(w, {
            team_id: i > 0 ? teamId : undefined,
            assignee_id: i === 0 ? w.a.adminId : undefined,
          })
        ).id,
      );
    }
    await w.h.request("POST", `${w.base}/conversations/${ids[1]}/labels`, {
      token: w.a.adminToken,
      body: { labels: ["billing"] },
    });
    await w.h.request("POST", `${w.base}/conversations/${ids[0]}/labels`, {
      token: w.a.adminToken,
      body: { labels: ["billing"] },
    });
    await w.h.request("POST", `${w.base}/conversations/${ids[2]}/toggle_status`, {
      token: w.a.adminToken,
      body: { status: "resolved" },
    });
    const r = await w.h.request("POST", `${w.base}/conversations/filter`, {
      token: w.a.adminToken,
      body: { payload: [cond("status", "equal_to", ["open"], "AND"), cond("labels", "equal_to", ["billing"])] },
    });
    expect(r.status).toBe(200);
    expect(r.body.payload.map((c: any) => c.id)).toEqual([ids[1], ids[0]]);
    expect(r.body.meta).toEqual({
      mine_count: 1,
      assigned_count: 1,
      unassigned_count: 1,
      all_count: 2,
      count: 2,
      current_page: "1",
    });
    expect(r.body.payload[0].labels).toEqual(["billing"]);
    const team = await w.h.request("POST", `${w.base}/conversations/filter`, {
      token: w.a.adminToken,
      body: { payload: [cond("team_id", "equal_to", [teamId])] },
    });
    expect(team.body.meta.all_count).toBe(2);
    const all = await w.h.request("POST", `${w.base}/conversations/filter`, {
      token: w.a.adminToken,
      body: { payload: [cond("status", "equal_to", ["all"])] },
    });
    expect(all.body.meta.all_count).toBe(3);
  });

  test("an agent sees only conversations of their inboxes", async () => {
    const w = await world();
    await newConversation(w);
    const asAgent = await w.h.request("POST", `${w.base}/conversations/filter`, {
      token: w.agent.token,
      body: { payload: [cond("status", "equal_to", ["open"])] },
    });
    expect(asAgent.body.meta.all_count).toBe(1);
    const asOutsider = await w.h.request("POST", `${w.base}/conversations/filter`, {
      token: w.outsider.token,
      body: { payload: [cond("status", "equal_to", ["open"])] },
    });
    expect(asOutsider.status).toBe(200);
    expect(asOutsider.body.meta.all_count).toBe(0);
  });

  test("422 for a bad status, a non-numeric id, a contact attribute", async () => {
    const w = await world();
    const cases: [unknown[], string, string][] = [
      [[cond("status", "equal_to", ["closed"])], "payload.0.values", "status"],
      [[cond("assignee_id", "equal_to", ["me"])], "payload.0.values", "whole numbers"],
      [[cond("email", "equal_to", ["a@b.c"])], "payload.0.attribute_key", "Invalid attribute key - email"],
      [
        [cond("plan", "equal_to", ["x"], null, { custom_attribute_type: "contact_attribute" })],
        "payload.0.custom_attribute_type",
        "conversation_attribute",
      ],
    ];
    for (const [payload, field, message] of cases) {
      const r = await w.h.request("POST", `${w.base}/conversations/filter`, {
        token: w.a.adminToken,
        body: { payload },
      });
      expect(r.status).toBe(422);
      expect(r.body.errors[0].field).toBe(field);
      expect(r.body.errors[0].message).toContain(message);
    }
  });
});
