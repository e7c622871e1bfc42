// The account the hostile-input sweep runs in: one of each resource (made through the real routes),
// so that every path id of every route names something, and what each family of routes
// authenticates with.
import { expect } from "bun:test";
import {
  type AccountFixture,
  addInboxMember,
  addTeamMember,
  makeAccount,
  makeInbox,
  makeMember,
  makeTeam,
} from "./factories.ts";
import { postMultipart, pngFile } from "./files.ts";
import { createHarness, type Harness, type RequestOptions } from "./harness.ts";
import { recordEvents } from "./webhooks.ts";
import { routesOf, type Route } from "./hostile.ts";

type Ids = Record<string, string>;

export interface HostileWorld {
  h: Harness;
  /** Path parameter values that resolve, by "<family>/<segment before>/{param}", "<segment before>/{param}" or "{param}". */
  ids: Ids;
  adminToken: string;
  adminEmail: string;
  platformToken: string;
  /** The website chat's `?website_token=…` and its visitor's X-Auth-Token. */
  widgetQuery: string;
  widgetToken: string;
  /** Every route with a path parameter or a body; deletions last. */
  routes: Route[];
}

export type Post = (path: string, body: unknown, token?: string | null) => Promise<any>;

export async function ok(h: Harness, method: string, path: string, opts: RequestOptions): Promise<any> {
  const r = await h.request(method, path, opts);
  expect({ path, status: r.status, body: r.status === 200 ? null : r.body }).toEqual({ path, status: 200, body: null });
  return r.body;
}

export async function hostileWorld(): Promise<HostileWorld> {
  const off = "0"; // the public API's limits would answer 429 long before the sweep is done
  const h = createHarness({
    env: {
      PARLEY_PUBLIC_REQUESTS_PER_MINUTE: off,
      PARLEY_PUBLIC_MESSAGES_PER_MINUTE: off,
      PARLEY_PUBLIC_CONVERSATIONS_PER_HOUR: off,
      PARLEY_PUBLIC_CONTACTS_PER_HOUR: off,
    },
  });
  await h.deps.deliverer.stop(); // webhooks and bots are seeded with real-looking URLs: send nothing
  const a = await makeAccount(h);
  const post: Post = (path, body, token = a.adminToken) => ok(h, "POST", path, { token, body });
  const platformToken = (await h.deps.services.platform.createApp("Portal")).api_access_token;
  const web = await makeInbox(h, a, {
    name: "Web",
    channel: { type: "web_widget", website_url: "https://shop.example.com" },
  });
  const websiteToken = (JSON.parse(web.channel_attributes) as { website_token: string }).website_token;
  const widgetQuery = `?website_token=${websiteToken}`;
  const widgetToken = (await post(`/api/v1/widget/config${widgetQuery}`, {}, null)).auth_token;
  const ids: Ids = {
    ...(await accountIds(h, a, post)),
    ...(await platformIds(post, platformToken)),
    ...(await widgetIds(h, widgetQuery, widgetToken)),
  };
  Object.assign(ids, await publicIds(post, ids["{inbox_identifier}"]!));
  const doc = (await h.request("GET", "/openapi/json")).body;
  // Deletions last: a DELETE that takes a body may accept one and remove a seeded membership.
  const routes = routesOf(doc)
    .filter((r) => r.params.length > 0 || r.bodyProps !== null)
    .sort((x, y) => Number(x.method === "DELETE") - Number(y.method === "DELETE"));
  const adminEmail = h.deps.repos.users.byId(a.adminId)!.email;
  return { h, ids, adminToken: a.adminToken, adminEmail, platformToken, widgetQuery, widgetToken, routes };
}

/** One of each record of the account API, made by its administrator (and an agent). */
export async function accountIds(h: Harness, a: AccountFixture, post: Post): Promise<Ids> {
  const api = `/api/v1/accounts/${a.accountId}`;
  const token = a.adminToken;
  const agent = await makeMember(h, a.accountId, "agent");
  const inbox = await makeInbox(h, a);
  await addInboxMember(h, a, inbox.id, agent.userId);
  const team = await makeTeam(h, a);
  await addTeamMember(h, a, team.id, agent.userId);
  const webhook = await post(`${api}/webhooks`, { url: "https://hooks.example.com/in", name: "Probe" });
  const contact = (await post(`${api}/contacts`, { name: "Carla", email: "carla@example.com" })).payload.contact;
  const mergee = (await post(`${api}/contacts`, { name: "Merge Me" })).payload.contact;
  const conversation = await post(`${api}/conversations`, { inbox_id: inbox.id, contact_id: contact.id });
  const conversationPath = `${api}/conversations/${conversation.id}`;
  const message = await post(`${conversationPath}/messages`, { content: "hello" });
  const png = { bytes: pngFile(2, 2), filename: "a.png", type: "image/png" };
  const upload = await postMultipart(h, `${conversationPath}/messages`, [{ name: "attachments[]", value: png }], token);
  const [, , fileId, fileName] = new URL(upload.body.attachments[0].data_url).pathname.split("/");
  // The agent assigns the administrator: a notification for the administrator.
  await post(`${conversationPath}/assignments`, { assignee_id: a.adminId }, agent.token);
  await h.deps.bus.drain();
  const notification = (await ok(h, "GET", `${api}/notifications`, { token })).data.payload[0];
  await recordEvents(h, [{ kind: "message_created", accountId: a.accountId, conversationId: conversation.id }]);
  const delivery = (await ok(h, "GET", `${api}/webhooks/${webhook.id}/deliveries`, { token })).payload[0];
  const made = async (path: string, body: unknown) => String((await post(`${api}/${path}`, body)).id);
  return {
    "{account_id}": String(a.accountId),
    "{inbox_id}": String(inbox.id),
    "inboxes/{id}": String(inbox.id),
    "{inbox_identifier}": inbox.identifier!,
    "agents/{id}": String(agent.userId),
    "{team_id}": String(team.id),
    "webhooks/{id}": String(webhook.id),
    "{delivery_id}": String(delivery.delivery_id),
    "contacts/{id}": String(contact.id),
    "{mergee_contact_id}": String(mergee.id),
    "{conversation_id}": String(conversation.id),
    "{message_id}": String(message.id),
    "files/{id}": fileId!,
    "{name}": fileName!,
    "notifications/{id}": String(notification.id),
    "{note_id}": await made(`contacts/${contact.id}/notes`, { content: "A note" }),
    "labels/{id}": await made("labels", { title: "probe" }),
    "canned_responses/{id}": await made("canned_responses", { short_code: "hi", content: "Hello!" }),
    "dashboard_apps/{id}": await made("dashboard_apps", DASHBOARD_APP),
    // Answered as {payload: macro}, as Chatwoot's macros are.
    "macros/{id}": String((await post(`${api}/macros`, MACRO)).payload.id),
    "custom_attribute_definitions/{id}": await made("custom_attribute_definitions", CUSTOM_ATTRIBUTE),
    "custom_filters/{id}": await made("custom_filters", CUSTOM_FILTER),
    "automation_rules/{id}": await made("automation_rules", RULE),
    "agent_bots/{id}": await made("agent_bots", { name: "Bot", outgoing_url: "https://bot.example.com/in" }),
  };
}

const MACRO = {
  name: "Reopen",
  visibility: "global",
  actions: [{ action_name: "open_conversation", action_params: [] }],
};
const DASHBOARD_APP = { title: "CRM", content: [{ type: "frame", url: "https://crm.example.com/lookup" }] };

async function platformIds(post: Post, token: string): Promise<Ids> {
  const P = "/platform/api/v1";
  const account = await post(`${P}/accounts`, { name: "Platform account" }, token);
  const user = await post(`${P}/users`, { name: "P", email: "p@example.com", password: "Password1!" }, token);
  const bot = await post(`${P}/agent_bots`, { name: "Platform bot" }, token);
  return {
    "platform/accounts/{id}": String(account.id),
    "platform/users/{id}": String(user.id),
    "platform/agent_bots/{id}": String(bot.id),
  };
}

/** A contact of the API inbox, its conversation and message, through the public API. */
async function publicIds(post: Post, inboxIdentifier: string): Promise<Ids> {
  const contacts = `/public/api/v1/inboxes/${inboxIdentifier}/contacts`;
  const contact = await post(contacts, { name: "Visitor" }, null);
  const conversations = `${contacts}/${contact.source_id}/conversations`;
  const conversation = await post(conversations, {}, null);
  const message = await post(`${conversations}/${conversation.id}/messages`, { content: "hi" }, null);
  return {
    "{contact_identifier}": contact.source_id,
    "public/{conversation_id}": String(conversation.id),
    "public/{message_id}": String(message.id),
  };
}

/** The website visitor's conversation and message. */
async function widgetIds(h: Harness, query: string, visitor: string): Promise<Ids> {
  const opts = (body: unknown) => ({ body, headers: { "x-auth-token": visitor } });
  await ok(h, "POST", `/api/v1/widget/conversations${query}`, opts({ message: { content: "hi" } }));
  const message = await ok(h, "POST", `/api/v1/widget/messages${query}`, opts({ content: "more" }));
  return { "widget/{message_id}": String(message.id), "{label}": "probe" };
}

const CUSTOM_ATTRIBUTE = {
  attribute_display_name: "Plan",
  attribute_key: "plan",
  attribute_model: "contact_attribute",
  attribute_display_type: "text",
};
export const FILTER_PAYLOAD = [
  { attribute_key: "status", filter_operator: "equal_to", values: ["open"], query_operator: null },
];
const CUSTOM_FILTER = { name: "Open", filter_type: "conversation", query: { payload: FILTER_PAYLOAD } };
const RULE = {
  name: "Resolve refunds",
  event_name: "message_created",
  conditions: [{ attribute_key: "content", filter_operator: "contains", values: ["refund"], query_operator: null }],
  actions: [{ action_name: "resolve_conversation" }],
};
