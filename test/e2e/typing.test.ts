// Typing both ways in the browser: the contact typing (through the public API, as the widget does)
// shows under the agent's thread and goes away when they stop; the agent typing in the reply box is
// told to the server once (on), and off when they leave the box.
import { describe, expect, test } from "bun:test";
import { browserSuite, haveChromium, until, type WebServer } from "./browser.ts";
import { accountApi, type AccountApi } from "./seed.ts";

if (!haveChromium)
  console.warn("test/e2e/typing.test.ts: SKIPPED — /usr/bin/chromium is missing (apt-get install -y chromium)");

let server: WebServer;
let admin: AccountApi;
let typingUrl: string;
let conversationId: number;

async function publicCall(method: string, path: string, body?: unknown) {
  const r = await fetch(`${server.base}${path}`, {
    method,
    headers: { "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  expect({ path, status: r.status }).toEqual({ path, status: 200 });
  const text = await r.text();
  return text ? JSON.parse(text) : null;
}

/** The typing events the agent's page caused, as [kind, private]. */
function agentTyping(): [string, number][] {
  const rows = server.deps.db
    .query(
      "SELECT kind, private FROM events WHERE kind LIKE 'conversation_typing_%' AND actor_type = 'user' ORDER BY id",
    )
    .all() as { kind: string; private: number }[];
  return rows.map((r) => [r.kind, r.private]);
}

describe.skipIf(!haveChromium)("typing in chromium", () => {
  const { openPage, signIn } = browserSuite({
    setup: async (s) => {
      server = s;
      admin = accountApi(s.base, s.first.account_id, s.first.api_access_token);
      const inbox = await admin.post("/inboxes", { name: "Website", channel: { type: "api" } });
      const base = `/public/api/v1/inboxes/${inbox.inbox_identifier}`;
      const contact = await publicCall("POST", `${base}/contacts`, { name: "Tia Typist" });
      conversationId = (await publicCall("POST", `${base}/contacts/${contact.source_id}/conversations`, {})).id;
      await publicCall("POST", `${base}/contacts/${contact.source_id}/conversations/${conversationId}/messages`, {
        content: "Hi there",
      });
      typingUrl = `${base}/contacts/${contact.source_id}/conversations/${conversationId}/toggle_typing`;
    },
  });

  test("the contact's typing shows and goes; the agent's is told on and off once each", async () => {
    const page = await openPage();
    await signIn(page);
    await page.getByRole("heading", { name: "Conversations" }).waitFor();
    await page.goto(`${server.base}/app/accounts/${server.first.account_id}/conversations/${conversationId}`);
    await page.getByRole("heading", { name: "Tia Typist", level: 2 }).waitFor();

    await publicCall("POST", typingUrl, { typing_status: "on" });
    await page.getByRole("status").getByText("Tia Typist is typing…").waitFor();
    await publicCall("POST", typingUrl, { typing_status: "off" });
    await page.getByText("Tia Typist is typing…").waitFor({ state: "detached" });

    const box = page.getByLabel("Reply to Tia Typist");
    await box.pressSequentially("Let me check");
    await until(() => agentTyping().length >= 1);
    expect(agentTyping()[0]).toEqual(["conversation_typing_on", 0]); // once, not per key
    await page.getByRole("heading", { name: "Tia Typist", level: 2 }).click(); // leaves the box
    await until(() => agentTyping().length === 2);
    expect(agentTyping()).toEqual([
      ["conversation_typing_on", 0],
      ["conversation_typing_off", 0],
    ]);
  }, 60_000);
});
