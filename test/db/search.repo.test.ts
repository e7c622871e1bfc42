// The search windows: a substring has no index, so conversation and message search read only the
// newest rows (20,000 conversations; 20,000 messages of each kind from the last three months).
// Tested with small windows on a real database.
import { expect, test } from "bun:test";
import { containsPattern } from "../../src/db/filter-sql.ts";
import { SearchRepo } from "../../src/db/search.repo.ts";
import { newConversation, send, world } from "../helpers/conversation-fixtures.ts";

test("only the newest conversations and the newest messages of each kind are searched", async () => {
  const w = await world();
  const made: number[] = [];
  for (let i = 0; i < 5; i++) {
    const c = await newConversation(w);
    made.push(c.id);
    await send(w, c.id, { content: `refund ${i} asked`, message_type: "incoming" });
    await send(w, c.id, { content: `refund ${i} answered`, message_type: "outgoing" });
    w.h.clock.advance(1000);
  }
  const repo = new SearchRepo(w.h.deps.db, { conversations: 3, messages: 2 });
  const scope = { accountId: w.a.accountId, inboxIds: null };
  const page = { limit: 15, offset: 0 };
  expect((await repo.conversations(scope, "carla", page)).map((c) => c.display_id)).toEqual(made.slice(2).reverse());
  expect((await repo.messages(scope, "refund", 0, page)).map((m) => m.content)).toEqual([
    "refund 4 answered",
    "refund 4 asked",
    "refund 3 answered",
    "refund 3 asked",
  ]);
  const wide = new SearchRepo(w.h.deps.db);
  expect(await wide.conversations(scope, "carla", page)).toHaveLength(5);
  expect(await wide.messages(scope, "refund", 0, page)).toHaveLength(10);
  // The windows are the newest of the caller's inboxes, not of the account.
  expect(await repo.conversations({ accountId: w.a.accountId, inboxIds: [] }, "carla", page)).toEqual([]);
});

test("a term's % _ and \\ are matched literally", () => {
  expect(containsPattern("50%_off\\")).toBe("%50\\%\\_off\\\\%");
});
