// The public (client) API over real HTTP, as a chat front end and an agent use it together:
// create a contact, open a conversation, send messages, read the agent's reply (never the private
// note), get the CSAT survey when the agent resolves, answer it — and another contact is refused
// everywhere. docs/public-api.md's curl walk-through does the same.
import { afterAll, describe, expect, test } from "bun:test";
import { createApp } from "../../src/app.ts";
import { makeAccount } from "../helpers/factories.ts";
import { createHarness } from "../helpers/harness.ts";

const h = createHarness();
const account = await makeAccount(h, "Acme");
const server = createApp(h.deps).listen({ port: 0, hostname: "127.0.0.1" });
const origin = `http://127.0.0.1:${server.server!.port}`;

afterAll(() => server.stop());

async function call(method: string, path: string, body?: unknown, token?: string) {
  const res = await fetch(`${origin}${path}`, {
    method,
    headers: { ...(token ? { api_access_token: token } : {}), ...(body ? { "content-type": "application/json" } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : null, headers: res.headers };
}

describe("the public API over real HTTP", () => {
  test("contact → conversation → messages → agent reply → resolve → CSAT → answer; another contact is refused everywhere", async () => {
    const api = `/api/v1/accounts/${account.accountId}`;
    const inbox = await call(
      "POST",
      `${api}/inboxes`,
      { name: "Website", channel: { type: "api" }, csat_survey_enabled: true },
      account.adminToken,
    );
    expect(inbox.status).toBe(200);
    const base = `/public/api/v1/inboxes/${inbox.body.inbox_identifier}`;
    expect((await call("GET", base)).body).toMatchObject({
      identifier: inbox.body.inbox_identifier,
      name: "Website",
      csat_survey_enabled: true,
    });

    const carla = await call("POST", `${base}/contacts`, { name: "Carla", email: "carla@example.com" });
    // (toMatchObject with expect.any() would write the matchers into carla.body: compare a copy.)
    expect({ ...carla.body }).toMatchObject({
      id: expect.any(Number),
      name: "Carla",
      email: "carla@example.com",
      source_id: expect.any(String),
      pubsub_token: expect.any(String),
    });
    const me = `${base}/contacts/${carla.body.source_id}`;
    const conv = await call("POST", `${me}/conversations`, {});
    expect(conv.body).toMatchObject({ id: 1, status: "open", messages: [] });
    const msgs = `${me}/conversations/${conv.body.id}/messages`;
    expect((await call("POST", msgs, { content: "Hello" })).body).toMatchObject({
      message_type: 0,
      content: "Hello",
      sender: { type: "contact", id: carla.body.id },
    });
    await call("POST", msgs, { content: "Where is order 42?" });

    // The agent answers through the account API, and leaves a private note.
    const reply = await call(
      "POST",
      `${api}/conversations/${conv.body.id}/messages`,
      { content: "It ships today." },
      account.adminToken,
    );
    expect(reply.status).toBe(200);
    await call(
      "POST",
      `${api}/conversations/${conv.body.id}/messages`,
      { content: "customer seems upset", private: true },
      account.adminToken,
    );
    const seen = await call("GET", msgs);
    expect(seen.body.map((m: any) => [m.message_type, m.content, m.sender.type])).toEqual([
      [0, "Hello", "contact"],
      [0, "Where is order 42?", "contact"],
      [1, "It ships today.", "user"],
    ]);

    // Resolved by the agent: the survey arrives.
    expect(
      (
        await call(
          "POST",
          `${api}/conversations/${conv.body.id}/toggle_status`,
          { status: "resolved" },
          account.adminToken,
        )
      ).status,
    ).toBe(200);
    const afterResolve = await call("GET", msgs);
    const survey = afterResolve.body.at(-1);
    expect(survey).toMatchObject({
      message_type: 3,
      content_type: "input_csat",
      content: "Please rate the conversation",
      content_attributes: { display_type: "emoji" },
    });
    expect(survey.sender).toBeUndefined();
    const answer = await call("PATCH", `${msgs}/${survey.id}`, {
      submitted_values: { csat_survey_response: { rating: 5, feedback_message: "Fast!" } },
    });
    expect(answer.status).toBe(200);
    expect(answer.body.content_attributes.submitted_values).toEqual({
      csat_survey_response: { feedback_message: "Fast!", rating: 5 },
    });
    const responses = await call("GET", `${api}/csat_survey_responses`, undefined, account.adminToken);
    expect(responses.body).toMatchObject([
      {
        rating: 5,
        feedback_message: "Fast!",
        conversation_id: conv.body.id,
        message_id: survey.id,
        contact: { id: carla.body.id },
      },
    ]);

    // Another contact: 401 on Carla's conversation, 404 through another inbox, nothing of the account API.
    const mallory = await call("POST", `${base}/contacts`, { name: "Mallory" });
    const theirs = `${base}/contacts/${mallory.body.source_id}/conversations/${conv.body.id}`;
    for (const [method, path, body] of [
      ["GET", theirs, undefined],
      ["GET", `${theirs}/messages`, undefined],
      ["POST", `${theirs}/messages`, { content: "hi" }],
      ["PATCH", `${theirs}/messages/${survey.id}`, { submitted_values: { csat_survey_response: { rating: 1 } } }],
      ["POST", `${theirs}/toggle_status`, {}],
      ["POST", `${theirs}/update_last_seen`, {}],
    ] as const) {
      expect([method, path, (await call(method, path, body)).status]).toEqual([method, path, 401]);
    }
    expect((await call("GET", `${base}/contacts/${mallory.body.source_id}/conversations`)).body).toEqual([]);
    const other = await call("POST", `${api}/inboxes`, { name: "Other", channel: { type: "api" } }, account.adminToken);
    expect(
      (
        await call(
          "GET",
          `/public/api/v1/inboxes/${other.body.inbox_identifier}/contacts/${carla.body.source_id}/conversations`,
        )
      ).status,
    ).toBe(404);
    expect((await call("GET", `${api}/conversations`, undefined, carla.body.source_id)).status).toBe(401);
    expect((await call("GET", `${api}/conversations`, undefined, carla.body.pubsub_token)).status).toBe(401);
    // Nothing changed: the answer stands.
    expect(
      (await call("GET", `${api}/csat_survey_responses`, undefined, account.adminToken)).body.map((r: any) => r.rating),
    ).toEqual([5]);
  });

  test("the address limit sees the socket's address: 429 with Retry-After over a real connection", async () => {
    const limited = createHarness({
      config: {
        publicLimits: { requestsPerMinute: 2, messagesPerMinute: 60, conversationsPerHour: 10, contactsPerHour: 100 },
      },
    });
    const s = createApp(limited.deps).listen({ port: 0, hostname: "127.0.0.1" });
    try {
      const url = `http://127.0.0.1:${s.server!.port}/public/api/v1/inboxes/unknown`;
      expect([(await fetch(url)).status, (await fetch(url)).status]).toEqual([404, 404]);
      const refused = await fetch(url);
      expect([refused.status, refused.headers.get("retry-after")]).toEqual([429, "30"]);
      expect((await refused.json()).errors[0].field).toBe("client_address");
    } finally {
      s.stop();
    }
  });
});
