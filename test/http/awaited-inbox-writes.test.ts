// The inboxes' writes as awaited bodies (writeTx.steps, src/db/tx.ts), as in
// awaited-settings-writes-b.test.ts: what they change, and the events they record, are the same on
// both engines; on PostgreSQL none of them sends a statement through the synchronous bridge in place.
// A refused write changes nothing.
import { describe, expect, test } from "bun:test";
import { inPlaceDuring } from "../helpers/bridge-calls.ts";
import { makeAccount } from "../helpers/factories.ts";
import { createHarness } from "../helpers/harness.ts";

describe("inboxes: writes in one awaited body each", () => {
  test("create, a refused one, update, an unchanged one, mail settings, a foreign 404, delete", async () => {
    const h = createHarness();
    const a = await makeAccount(h, "Acme");
    const b = await makeAccount(h, "Globex");
    const base = `/api/v1/accounts/${a.accountId}/inboxes`;
    const admin = { token: a.adminToken };
    const theirs = (
      await h.request("POST", `/api/v1/accounts/${b.accountId}/inboxes`, {
        token: b.adminToken,
        body: { name: "Theirs", channel: { type: "api" } },
      })
    ).body.id as number;
    const before = h.lastEventId();
    const answers: unknown[] = [];
    let api = 0;
    let mail = 0;
    const blocking = await inPlaceDuring(async () => {
      const made = await h.request("POST", base, { ...admin, body: { name: "API", channel: { type: "api" } } });
      api = made.body.id;
      answers.push([made.status, made.body.name, made.body.channel_type]);
      const refused = await h.request("POST", base, { ...admin, body: { channel: { type: "api" } } });
      answers.push([refused.status, refused.body.errors[0].field]);
      const renamed = await h.request("PATCH", `${base}/${api}`, { ...admin, body: { name: "Web API" } });
      answers.push([renamed.status, renamed.body.name]);
      const unchanged = await h.request("PATCH", `${base}/${api}`, { ...admin, body: { name: "Web API" } });
      answers.push([unchanged.status, unchanged.body.name]);
      const email = await h.request("POST", base, {
        ...admin,
        body: { name: "Mail", channel: { type: "email", email: "help@acme.test" } },
      });
      mail = email.body.id;
      answers.push([email.status, email.body.channel_type]);
      const settings = await h.request("PATCH", `${base}/${mail}`, {
        ...admin,
        body: { channel: { imap_address: "imap.acme.test" } },
      });
      answers.push(settings.status);
      const badPort = await h.request("PATCH", `${base}/${mail}`, {
        ...admin,
        body: { channel: { imap_port: 99999 } },
      });
      answers.push([badPort.status, badPort.body.errors[0].field]);
      answers.push((await h.request("PATCH", `${base}/${theirs}`, { ...admin, body: { name: "Mine" } })).status);
      answers.push((await h.request("DELETE", `${base}/${theirs}`, admin)).status);
      answers.push((await h.request("DELETE", `${base}/${api}`, admin)).status);
    });
    expect(answers).toEqual([
      [200, "API", "Channel::Api"],
      [422, "name"],
      [200, "Web API"],
      [200, "Web API"],
      [200, "Channel::Email"],
      200,
      [422, "channel.imap_port"],
      404,
      404,
      200,
    ]);
    expect(blocking).toEqual([]);
    const events = h.events(before).map((e) => [e.kind, e.inboxId]);
    expect(events).toEqual([
      ["inbox_created", api],
      ["inbox_updated", api],
      ["inbox_created", mail],
      ["inbox_deleted", api],
    ]);
    const list = await h.request("GET", base, admin);
    expect(list.body.payload.map((x: { name: string }) => x.name)).toEqual(["Mail"]);
    const shown = await h.request("GET", `${base}/${mail}`, admin);
    expect(shown.body.imap_address).toBe("imap.acme.test");
    const theirList = await h.request("GET", `/api/v1/accounts/${b.accountId}/inboxes`, { token: b.adminToken });
    expect(theirList.body.payload.map((x: { name: string }) => x.name)).toEqual(["Theirs"]);
  });
});
