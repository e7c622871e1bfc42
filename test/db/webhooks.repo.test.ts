// The fan-out's receiver list: enabled webhooks of one account, oldest first. The order is set in
// code, not by the query (its index is on the URL), so URLs that sort the other way prove it.
import { expect, test } from "bun:test";
import { migrate } from "../../src/db/migrate.ts";
import { openDatabase } from "../../src/db/open.ts";
import { WebhooksRepo } from "../../src/db/webhooks.repo.ts";
import { readNow } from "../../src/db/reads.ts";

test("active() lists an account's enabled webhooks by id, whatever their URLs", () => {
  const db = openDatabase(":memory:");
  migrate(db);
  db.exec("INSERT INTO accounts (name, created_at, updated_at) VALUES ('A', 0, 0), ('B', 0, 0)");
  const repo = new WebhooksRepo(db);
  const add = (accountId: number, url: string) =>
    readNow(
      repo.insertSteps(accountId, {
        inbox_id: null,
        url,
        name: null,
        subscriptions: '["message_created"]',
        secret: "s",
        now: 1,
      }),
    );
  const zed = add(1, "https://zed.example/hook");
  const mid = add(1, "https://mid.example/hook");
  add(2, "https://other.example/hook");
  const disabled = add(1, "https://aaa.example/hook");
  const first = add(1, "https://aab.example/hook");
  readNow(repo.disableSteps(disabled, "gone", 2));

  expect(readNow(repo.readActive(1)).map((w) => w.id)).toEqual([zed, mid, first]);
  expect(readNow(repo.readActive(1)).map((w) => w.url)).toEqual([
    "https://zed.example/hook",
    "https://mid.example/hook",
    "https://aab.example/hook",
  ]);
  expect(readNow(repo.readActive(3))).toEqual([]);
});
