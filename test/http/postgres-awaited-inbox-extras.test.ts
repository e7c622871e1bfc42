// Read-only routes on PostgreSQL, besides those of postgres-awaited-reads.test.ts and
// postgres-awaited-pages.test.ts: one inbox, its members and assignable agents, the agent bots and
// an inbox's bot, a contact's notes, contactable inboxes and labels send nothing through the
// synchronous bridge in place, refusals included (an unknown id's 404, an agent outside the inbox's
// 403); their statements go to the read pool. PostgreSQL only.
import { describe, expect, test } from "bun:test";
import { blockingDuring } from "../helpers/bridge-calls.ts";
import { world } from "../helpers/conversation-fixtures.ts";
import { makeInbox } from "../helpers/directory-fixtures.ts";
import { TEST_ENGINE } from "../helpers/test-database.ts";

const notFound = (entity: string, field: string, message: string) => ({
  error: `${entity} not found`,
  description: `${entity} not found`,
  errors: [{ field, message, code: "not_found" }],
});

describe.skipIf(TEST_ENGINE !== "postgres")("an inbox and a contact's extras on PostgreSQL wait on nothing", () => {
  test("one inbox, its members, assignable agents and bots, a contact's notes and labels: all awaited", async () => {
    const w = await world();
    const admin = { token: w.a.adminToken };
    const mail = makeInbox(w.h, w.a.accountId, { name: "Mail", channel: "email" }); // no member, no settings
    const contact = `/contacts/${w.contactId}`;
    const note = await w.h.request("POST", `${w.base}${contact}/notes`, {
      token: w.agent.token,
      body: { content: "Called about the invoice" },
    });
    const bot = await w.h.request("POST", `${w.base}/agent_bots`, {
      ...admin,
      body: { agent_bot: { name: "Helper Bot", outgoing_url: "https://bot.example.com/in" } },
    });
    const made = [
      note,
      await w.h.request("POST", `${w.base}${contact}/labels`, { ...admin, body: { labels: ["vip"] } }),
      bot,
      await w.h.request("POST", `${w.base}/inboxes/${w.inboxId}/set_agent_bot`, {
        ...admin,
        body: { agent_bot: bot.body.id },
      }),
    ];
    expect(made.map((r) => r.status)).toEqual([200, 200, 200, 200]);
    w.h.deps.commits.flush();
    const read = async (path: string, token = w.a.adminToken) => {
      const res = await w.h.app.handle(
        new Request(`http://localhost${w.base}${path}`, { headers: { api_access_token: token } }),
      );
      return { status: res.status, body: (await res.json()) as any };
    };
    const names = (r: { status: number; body: any }) => [r.status, r.body.payload.map((a: any) => a.name)];
    const unknown = w.inboxId + 1000;
    const answers: unknown[] = [];
    const blocking = await blockingDuring(async () => {
      const inbox = await read(`/inboxes/${w.inboxId}`);
      answers.push([inbox.status, inbox.body.id, inbox.body.name, inbox.body.channel_type]);
      const asMember = await read(`/inboxes/${w.inboxId}`, w.agent.token);
      answers.push([asMember.status, asMember.body.name, "imap_enabled" in asMember.body]);
      const mailbox = await read(`/inboxes/${mail}`);
      answers.push([mailbox.status, mailbox.body.channel_type, mailbox.body.imap_enabled, mailbox.body.smtp_port]);
      const all = await read("/inboxes");
      answers.push(all.body.payload.map((i: any) => [i.name, i.imap_enabled ?? null]));
      answers.push(await read(`/inboxes/${w.inboxId}`, w.outsider.token));
      answers.push(await read(`/inboxes/${unknown}`));
      answers.push(names(await read(`/inbox_members/${w.inboxId}`)));
      answers.push(names(await read(`/inbox_members/${w.inboxId}`, w.agent.token)));
      answers.push(await read(`/inbox_members/${w.inboxId}`, w.outsider.token));
      answers.push(await read(`/inbox_members/${unknown}`));
      answers.push(names(await read(`/assignable_agents?inbox_ids[]=${w.inboxId}`, w.agent.token)));
      answers.push(names(await read(`/inboxes/${w.inboxId}/assignable_agents`, w.agent.token)));
      answers.push((await read(`/assignable_agents?inbox_ids[]=${w.inboxId}`, w.outsider.token)).status);
      answers.push(await read(`/assignable_agents?inbox_ids[]=${w.inboxId}&inbox_ids[]=${unknown}`));
      answers.push((await read(`/inboxes/${unknown}/assignable_agents`)).status);
      const bots = await read("/agent_bots", w.agent.token);
      answers.push([bots.status, bots.body.map((b: any) => [b.id, b.name, b.access_token ?? null])]);
      const one = await read(`/agent_bots/${bot.body.id}`);
      answers.push([one.status, one.body.name, one.body.access_token === bot.body.access_token]);
      answers.push(await read(`/agent_bots/${bot.body.id + 1000}`));
      const ofInbox = await read(`/inboxes/${w.inboxId}/agent_bot`, w.outsider.token);
      answers.push([ofInbox.status, ofInbox.body.agent_bot.id, ofInbox.body.agent_bot.name]);
      answers.push(await read(`/inboxes/${unknown}/agent_bot`));
      const notes = await read(`${contact}/notes`);
      answers.push([notes.status, notes.body.map((n: any) => [n.id, n.content, n.user.name])]);
      const shown = await read(`${contact}/notes/${note.body.id}`, w.agent.token);
      answers.push([shown.status, shown.body.content, shown.body.user.name]);
      answers.push(await read(`${contact}/notes/${note.body.id + 1000}`));
      answers.push(await read(`/contacts/${w.contactId + 1000}/notes`));
      const reachable = await read(`${contact}/contactable_inboxes`, w.agent.token);
      answers.push([reachable.status, reachable.body.payload.map((c: any) => c.inbox.name)]);
      answers.push((await read(`${contact}/contactable_inboxes`, w.outsider.token)).body);
      answers.push((await read(`/contacts/${w.contactId + 1000}/contactable_inboxes`)).status);
      answers.push(await read(`${contact}/labels`, w.agent.token));
      answers.push(await read(`/contacts/${w.contactId + 1000}/labels`));
    });
    const noInbox = notFound("Inbox", "id", `no inbox ${unknown} in this account`);
    const notMember = {
      error: "You are not a member of this inbox",
      description: "You are not a member of this inbox",
      errors: [{ field: "role", message: "You are not a member of this inbox", code: "forbidden" }],
    };
    const noContact = notFound("Contact", "id", `no contact ${w.contactId + 1000} in this account`);
    expect(answers).toEqual([
      [200, w.inboxId, "API", "Channel::Api"],
      [200, "API", false],
      [200, "Channel::Email", false, 587],
      [
        ["API", null],
        ["Mail", false],
      ],
      { status: 403, body: notMember },
      { status: 404, body: noInbox },
      [200, ["Ann Agent"]],
      [200, ["Ann Agent"]],
      { status: 403, body: notMember },
      { status: 404, body: noInbox },
      [200, ["Ann Agent", "Admin"]],
      [200, ["Ann Agent", "Admin"]],
      403,
      { status: 404, body: noInbox },
      404,
      [200, [[bot.body.id, "Helper Bot", null]]],
      [200, "Helper Bot", true],
      { status: 404, body: notFound("Agent bot", "id", `no agent bot ${bot.body.id + 1000} for this account`) },
      [200, bot.body.id, "Helper Bot"],
      { status: 404, body: notFound("Inbox", "inbox_id", `no inbox ${unknown} in this account`) },
      [200, [[note.body.id, "Called about the invoice", "Ann Agent"]]],
      [200, "Called about the invoice", "Ann Agent"],
      { status: 404, body: notFound("Note", "id", `no note ${note.body.id + 1000} on this contact`) },
      { status: 404, body: noContact },
      [200, ["API"]],
      { payload: [] },
      404,
      { status: 200, body: { payload: ["vip"] } },
      { status: 404, body: noContact },
    ]);
    expect(blocking).toEqual([]);
  });
});
