// The Chatwoot mobile app: it pings GET /api, assigns with the ids in the query string and no
// body, filters conversations with POST conversations/filter, asks for the assignable agents of a
// chat's inbox each time it opens one, changes selected conversations with bulk_actions, and
// searches contacts, conversations and messages from its Search tab (its settings, dashboard apps,
// macros and sorting: mobile-app-more.test.ts).
import { expect, test } from "bun:test";
import { createHarness } from "../helpers/harness.ts";
import { makeAccount, makeMember } from "../helpers/factories.ts";
import { addInboxMember, addTeamMember, makeInbox, makeTeam } from "../helpers/directory-fixtures.ts";
import { mobileAppWorlds } from "../helpers/mobile-app.ts";

const { serve, agentWorld } = mobileAppWorlds();

test("mobile app: GET /api, assignments by query string, then the filtered list", async () => {
  const h = createHarness();
  const a = await makeAccount(h);
  const inboxId = makeInbox(h, a.accountId);
  const agent = await makeMember(h, a.accountId, "agent", "Mo Bile");
  addInboxMember(h, inboxId, agent.userId);
  const teamId = makeTeam(h, a.accountId, "mobile");
  addTeamMember(h, teamId, agent.userId);
  const served = serve(h);
  const root = served.base;
  const base = `${root}/api/v1/accounts/${a.accountId}`;
  const headers = { api_access_token: agent.token, "Content-Type": "application/json" };

  const ping = (await (await fetch(`${root}/api`)).json()) as any;
  expect(ping).toMatchObject({ queue_services: "ok", data_services: "ok" });
  expect(typeof ping.version).toBe("string");

  const contact = (await (
    await fetch(`${base}/contacts`, {
      method: "POST",
      headers,
      body: JSON.stringify({ name: "Pat", email: "pat@example.com" }),
    })
  ).json()) as any;
  const conv = (await (
    await fetch(`${base}/conversations`, {
      method: "POST",
      headers,
      body: JSON.stringify({ inbox_id: inboxId, contact_id: contact.payload.contact.id }),
    })
  ).json()) as any;

  // Exactly what the app sends: the id in the query string, no body, no content type.
  const team = await fetch(`${base}/conversations/${conv.id}/assignments?team_id=${teamId}`, {
    method: "POST",
    headers: { api_access_token: agent.token },
  });
  expect(team.status).toBe(200);
  expect(((await team.json()) as any).id).toBe(teamId);
  const assignee = await fetch(`${base}/conversations/${conv.id}/assignments?assignee_id=${agent.userId}`, {
    method: "POST",
    headers: { api_access_token: agent.token },
  });
  expect(assignee.status).toBe(200);
  expect(((await assignee.json()) as any).id).toBe(agent.userId);

  const filtered = await fetch(`${base}/conversations/filter?page=1`, {
    method: "POST",
    headers,
    body: JSON.stringify({
      payload: [
        { attribute_key: "status", filter_operator: "equal_to", values: ["open"], query_operator: "and" },
        { attribute_key: "team_id", filter_operator: "equal_to", values: [teamId], query_operator: null },
      ],
    }),
  });
  expect(filtered.status).toBe(200);
  const page = (await filtered.json()) as any;
  expect(page.meta).toMatchObject({ mine_count: 1, unassigned_count: 0, all_count: 1 });
  expect(page.payload.map((c: any) => c.id)).toEqual([conv.id]);
  expect(page.payload[0].meta.assignee.id).toBe(agent.userId);
  expect(page.payload[0].meta.team.id).toBe(teamId);
});

test("mobile app: opening a chat fetches the assignable agents of its inbox, as axios sends inbox_ids[]", async () => {
  const h = createHarness();
  const a = await makeAccount(h);
  const inboxId = makeInbox(h, a.accountId);
  const agent = await makeMember(h, a.accountId, "agent", "Mo Bile");
  const other = await makeMember(h, a.accountId, "agent", "Ann Other");
  addInboxMember(h, inboxId, agent.userId);
  addInboxMember(h, inboxId, other.userId);
  const served = serve(h);
  const base = `${served.base}/api/v1/accounts/${a.accountId}`;

  // AssignableAgentService.getAgents: apiService.get('assignable_agents', { params: { 'inbox_ids[]': [id] } }).
  const r = await fetch(`${base}/assignable_agents?inbox_ids[]=${inboxId}`, {
    headers: { api_access_token: agent.token },
  });
  expect(r.status).toBe(200);
  // What the app keeps (transformInboxAgent: the keys camel-cased) for the assignee sheet and @mentions.
  const agents = ((await r.json()) as any).payload.map((x: any) => ({
    id: x.id,
    accountId: x.account_id,
    availabilityStatus: x.availability_status,
    availableName: x.available_name,
    name: x.name,
    role: x.role,
    thumbnail: x.thumbnail,
  }));
  const entry = (id: number, name: string, role: string) => ({
    id,
    accountId: a.accountId,
    availabilityStatus: "offline",
    availableName: name,
    name,
    role,
    thumbnail: "",
  });
  expect(agents).toEqual([
    entry(other.userId, "Ann Other", "agent"),
    entry(agent.userId, "Mo Bile", "agent"),
    entry(a.adminId, "Admin", "administrator"),
  ]);
});

test("mobile app: multi-select changes status, assignee and labels through bulk_actions", async () => {
  const { inboxId, agent, base, headers } = await agentWorld();
  const call = async (method: string, path: string, body?: unknown) => {
    const r = await fetch(`${base}${path}`, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: r.status, body: (await r.text()) || null };
  };
  const contact = JSON.parse((await call("POST", "/contacts", { name: "Pat", email: "pat@example.com" })).body!).payload
    .contact;
  const selectedIds: number[] = [];
  for (let i = 0; i < 2; i++)
    selectedIds.push(
      JSON.parse((await call("POST", "/conversations", { inbox_id: inboxId, contact_id: contact.id })).body!).id,
    );

  // The payloads UpdateStatus, UpdateAssignee and UpdateLabels dispatch; the app reads nothing back.
  expect(
    await call("POST", "/bulk_actions", { type: "Conversation", ids: selectedIds, fields: { status: "pending" } }),
  ).toEqual({
    status: 200,
    body: null,
  });
  expect(
    (
      await call("POST", "/bulk_actions", {
        type: "Conversation",
        ids: selectedIds,
        fields: { assignee_id: agent.userId },
      })
    ).status,
  ).toBe(200);
  expect(
    (await call("POST", "/bulk_actions", { type: "Conversation", ids: selectedIds, labels: { add: ["vip"] } })).status,
  ).toBe(200);
  // The list the app refreshes afterwards.
  const list = JSON.parse((await call("GET", "/conversations?status=pending&assignee_type=me")).body!);
  expect(
    list.data.payload
      .map((c: any) => ({ id: c.id, labels: c.labels, assignee: c.meta.assignee.id }))
      .sort((x: any, y: any) => x.id - y.id),
  ).toEqual(selectedIds.map((id) => ({ id, labels: ["vip"], assignee: agent.userId })));
});

test("mobile app: the Search tab's three sections, as SearchService.searchSection asks and reads them", async () => {
  const { inboxId, base, headers } = await agentWorld();
  const post = async (path: string, body: unknown) =>
    (await (await fetch(`${base}${path}`, { method: "POST", headers, body: JSON.stringify(body) })).json()) as any;
  const pat = (await post("/contacts", { name: "Pat Refund", email: "pat@example.com" })).payload.contact;
  const conv = await post("/conversations", { inbox_id: inboxId, contact_id: pat.id });
  await post(`/conversations/${conv.id}/messages`, { content: "Where is my refund?", message_type: "incoming" });

  // apiService.get(apiEndpoint, { params: { q, page } }), then the section's dataKey.
  const section = async (endpoint: string, key: string) => {
    const r = await fetch(`${base}/${endpoint}?q=refund&page=1`, { headers });
    expect(r.status).toBe(200);
    return ((await r.json()) as any).payload[key] as any[];
  };
  const contacts = await section("search/contacts", "contacts");
  expect(contacts.map((c) => ({ id: c.id, name: c.name, email: c.email }))).toEqual([
    { id: pat.id, name: "Pat Refund", email: "pat@example.com" },
  ]);
  // transformSearchConversation: id to open it, message → lastNonActivityMessage, contact → meta.sender,
  // inbox.channel_type → meta.channel, inbox.id → inboxId.
  const [found] = await section("search/conversations", "conversations");
  expect({
    id: found.id,
    lastNonActivityMessage: found.message.content,
    sender: found.contact.name,
    channel: found.inbox.channel_type,
    inboxId: found.inbox.id,
  }).toEqual({
    id: conv.id,
    lastNonActivityMessage: "Where is my refund?",
    sender: "Pat Refund",
    channel: "Channel::Api",
    inboxId,
  });
  const messages = await section("search/messages", "messages");
  expect(messages.map((m) => ({ content: m.content, conversation: m.conversation_id, sender: m.sender.name }))).toEqual(
    [{ content: "Where is my refund?", conversation: conv.id, sender: "Pat Refund" }],
  );
});
