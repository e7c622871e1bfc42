// An agent-bot bridge (the way Botpress, Rasa and Dialogflow bridges use Chatwoot): the bot's
// outgoing_url receives the conversation's events, signed, through the durable delivery table; the
// bridge answers with the bot's access_token and hands off to humans by opening the conversation.
// The bot's token stays within the bot's endpoints and inboxes.
import { afterEach, describe, expect, test } from "bun:test";
import { verifySignature } from "../../src/lib/webhook-signature.ts";
import { world } from "../helpers/conversation-fixtures.ts";
import { makeAccount } from "../helpers/factories.ts";
import { makeInbox } from "../helpers/directory-fixtures.ts";
import { startReceiver, type Receiver } from "../helpers/webhooks.ts";

let receiver: Receiver | null = null;
afterEach(async () => {
  await receiver?.stop();
  receiver = null;
});

async function botWorld() {
  const w = await world({ env: { PARLEY_ALLOW_PRIVATE_WEBHOOKS: "1" } });
  receiver = startReceiver();
  const bot = await w.h.request("POST", `${w.base}/agent_bots`, {
    token: w.a.adminToken,
    body: { agent_bot: { name: "Helper Bot", description: "answers first", outgoing_url: receiver.url } },
  });
  expect(bot.status).toBe(200);
  expect(
    (
      await w.h.request("POST", `${w.base}/inboxes/${w.inboxId}/set_agent_bot`, {
        token: w.a.adminToken,
        body: { agent_bot: bot.body.id },
      })
    ).status,
  ).toBe(200);
  return { w, bot: bot.body, receiver };
}

describe("an agent bot answers first and hands off", () => {
  test("events reach the bot signed; it replies as the bot and opens the conversation for humans", async () => {
    const { w, bot, receiver } = await botWorld();
    expect(bot.access_token).toMatch(/^\S{20,}$/);
    const linked = await w.h.request("GET", `${w.base}/inboxes/${w.inboxId}/agent_bot`, { token: w.a.adminToken });
    expect(linked.body.agent_bot.name).toBe("Helper Bot");

    // A customer writes in through the API inbox: the conversation waits for the bot.
    const conv = await w.h.request("POST", `${w.base}/conversations`, {
      token: w.a.adminToken,
      body: { inbox_id: w.inboxId, contact_id: w.contactId },
    });
    expect(conv.body.status).toBe("pending");
    await w.h.request("POST", `${w.base}/conversations/${conv.body.id}/messages`, {
      token: w.a.adminToken,
      body: { content: "Where is my order?", message_type: "incoming" },
    });
    await w.h.request("POST", `${w.base}/conversations/${conv.body.id}/messages`, {
      token: w.a.adminToken,
      body: { content: "internal", private: true },
    });
    await w.h.deps.deliverer.drain();
    expect(receiver.received.map((r) => r.json.event)).toEqual(["conversation_created", "message_created"]);
    const incoming = receiver.received[1]!;
    expect([incoming.json.content, incoming.json.message_type, incoming.json.conversation.id]).toEqual([
      "Where is my order?",
      "incoming",
      conv.body.id,
    ]);
    const signed = verifySignature({
      secret: bot.secret,
      body: incoming.body,
      timestamp: incoming.headers.get("x-chatwoot-timestamp"),
      signature: incoming.headers.get("x-chatwoot-signature"),
      nowUnix: Math.floor(w.h.clock.nowMs() / 1000),
    });
    expect(signed).toBe(true);

    // The bridge answers with the bot's token, as the bot.
    const botApi = (path: string, body: unknown) =>
      w.h.request("POST", `${w.base}/conversations/${conv.body.id}${path}`, { token: bot.access_token, body });
    const reply = await botApi("/messages", { content: "Let me check that for you." });
    expect(reply.status).toBe(200);
    expect([reply.body.sender_type, reply.body.sender.type, reply.body.sender.name, reply.body.message_type]).toEqual([
      "AgentBot",
      "agent_bot",
      "Helper Bot",
      1,
    ]);
    const shown = await w.h.request("GET", `${w.base}/conversations/${conv.body.id}`, { token: w.agent.token });
    expect(shown.body.first_reply_created_at).toBe(0); // a bot's reply is not a human first response
    await w.h.deps.deliverer.drain();
    expect(receiver.received.at(-1)!.json.sender).toEqual({ id: bot.id, name: "Helper Bot", type: "agent_bot" });

    // Hand-off: the bot opens the conversation for the agents.
    const handoff = await botApi("/toggle_status", { status: "open" });
    expect(handoff.body.payload.current_status).toBe("open");
    await w.h.deps.deliverer.drain();
    expect(receiver.received.at(-1)!.json.event).toBe("conversation_status_changed");
    const list = await w.h.request("GET", `${w.base}/conversations/${conv.body.id}/messages`, { token: w.agent.token });
    expect(list.body.payload.find((m: any) => m.sender_type === "AgentBot").sender.name).toBe("Helper Bot");
  });

  test("the bot's token: refused on administrator and other routes (403), other accounts (401), other inboxes (403)", async () => {
    const { w, bot } = await botWorld();
    const as = (method: string, path: string, body?: unknown) =>
      w.h.request(method, path, { token: bot.access_token, body });
    for (const [method, path] of [
      ["GET", `${w.base}/inboxes`],
      ["POST", `${w.base}/inboxes`],
      ["POST", `${w.base}/webhooks`],
      ["GET", `${w.base}/agents`],
      ["POST", `${w.base}/agent_bots`],
      ["GET", `${w.base}/conversations`],
      ["DELETE", `${w.base}/contacts/${w.contactId}`],
      ["GET", "/api/v1/profile"],
    ] as const) {
      const r = await as(method, path, {});
      expect([path, r.status]).toEqual([path, path === "/api/v1/profile" ? 401 : 403]);
    }
    expect((await as("POST", `${w.base}/webhooks`, { url: "https://x.example" })).body.errors[0].message).toBe(
      "Access to this endpoint is not authorized for bots",
    );
    const other = await makeAccount(w.h, "Other");
    expect((await as("POST", `/api/v1/accounts/${other.accountId}/conversations`, {})).status).toBe(401);
    const elsewhere = makeInbox(w.h, w.a.accountId, { name: "No bot here" });
    const conv = await w.h.request("POST", `${w.base}/conversations`, {
      token: w.a.adminToken,
      body: { inbox_id: elsewhere, contact_id: w.contactId },
    });
    expect(conv.body.status).toBe("open");
    expect((await as("POST", `${w.base}/conversations/${conv.body.id}/messages`, { content: "hi" })).status).toBe(403);
    expect((await as("POST", `${w.base}/conversations`, { inbox_id: elsewhere, contact_id: w.contactId })).status).toBe(
      403,
    );
  });
});

describe("agent bots API", () => {
  test("CRUD, token reset, secrets only for administrators, bad input, and the Platform API's bots", async () => {
    const { w, bot } = await botWorld();
    const list = await w.h.request("GET", `${w.base}/agent_bots`, { token: w.agent.token });
    expect(list.body.map((b: any) => [b.name, b.access_token])).toEqual([["Helper Bot", undefined]]);
    const changed = await w.h.request("PATCH", `${w.base}/agent_bots/${bot.id}`, {
      token: w.a.adminToken,
      body: { description: "v2" },
    });
    expect([changed.body.description, changed.body.name]).toEqual(["v2", "Helper Bot"]);
    expect(
      (await w.h.request("PATCH", `${w.base}/agent_bots/${bot.id}`, { token: w.agent.token, body: { name: "x" } }))
        .status,
    ).toBe(403);
    for (const [body, field] of [
      [{ name: "" }, "name"],
      [{ outgoing_url: "javascript:alert(1)" }, "outgoing_url"],
      [{ bot_type: "csml" }, "bot_type"],
      [{ bot_config: "x" }, "bot_config"],
    ] as const) {
      const r = await w.h.request("POST", `${w.base}/agent_bots`, {
        token: w.a.adminToken,
        body: { ...{ name: "B" }, ...body },
      });
      expect([r.status, r.body.errors[0].field]).toEqual([422, field]);
    }
    const reset = await w.h.request("POST", `${w.base}/agent_bots/${bot.id}/reset_access_token`, {
      token: w.a.adminToken,
    });
    expect(reset.body.access_token).not.toBe(bot.access_token);
    expect((await w.h.request("POST", `${w.base}/conversations`, { token: bot.access_token, body: {} })).status).toBe(
      401,
    );

    // A platform app's bot: no account, connectable to an inbox, not editable through the account API.
    const app = await w.h.deps.services.platform.createApp("Bots Inc");
    const pbot = await w.h.request("POST", "/platform/api/v1/agent_bots", {
      token: app.api_access_token,
      body: { name: "Platform Bot", outgoing_url: "https://bots.example/hook" },
    });
    expect([pbot.status, pbot.body.account_id]).toEqual([200, null]);
    expect(
      (await w.h.request("GET", "/platform/api/v1/agent_bots", { token: app.api_access_token })).body.map(
        (b: any) => b.name,
      ),
    ).toEqual(["Platform Bot"]);
    const seen = await w.h.request("GET", `${w.base}/agent_bots`, { token: w.a.adminToken });
    expect(seen.body.map((b: any) => [b.name, b.access_token === undefined])).toEqual([
      ["Helper Bot", false],
      ["Platform Bot", true],
    ]);
    expect(
      (
        await w.h.request("PATCH", `${w.base}/agent_bots/${pbot.body.id}`, {
          token: w.a.adminToken,
          body: { name: "mine" },
        })
      ).status,
    ).toBe(404);
    expect(
      (
        await w.h.request("POST", `${w.base}/inboxes/${w.inboxId}/set_agent_bot`, {
          token: w.a.adminToken,
          body: { agent_bot: pbot.body.id },
        })
      ).status,
    ).toBe(200);
    expect(
      (await w.h.request("GET", `${w.base}/inboxes/${w.inboxId}/agent_bot`, { token: w.a.adminToken })).body.agent_bot
        .name,
    ).toBe("Platform Bot");
    expect(
      (
        await w.h.request("POST", `${w.base}/inboxes/${w.inboxId}/set_agent_bot`, {
          token: w.a.adminToken,
          body: { agent_bot: null },
        })
      ).status,
    ).toBe(200);
    expect(
      (await w.h.request("GET", `${w.base}/inboxes/${w.inboxId}/agent_bot`, { token: w.a.adminToken })).body,
    ).toEqual({ agent_bot: {} });
    const other = await makeAccount(w.h, "Other");
    expect(
      (
        await w.h.request("GET", `/api/v1/accounts/${other.accountId}/agent_bots/${bot.id}`, {
          token: other.adminToken,
        })
      ).status,
    ).toBe(404);
    expect((await w.h.request("DELETE", `${w.base}/agent_bots/${bot.id}`, { token: w.a.adminToken })).status).toBe(200);
    expect((await w.h.request("GET", `${w.base}/agent_bots/${bot.id}`, { token: w.a.adminToken })).status).toBe(404);
  });
});
