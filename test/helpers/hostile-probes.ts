// The requests of the hostile-input sweep: for each route of the app, its path ids replaced one at a
// time by ids that name nothing, each body field replaced by each hostile value in an otherwise
// plausible body, and whole bodies that are not an object of fields.
import type { RequestOptions } from "./harness.ts";
import { HOSTILE_BODIES, HOSTILE_IDS, HOSTILE_MULTIPART, HOSTILE_VALUES, type Route } from "./hostile.ts";
import { FILTER_PAYLOAD, type HostileWorld } from "./hostile-world.ts";

type Ids = Record<string, string>;

/** One request of the sweep. */
export interface Probe {
  route: Route;
  variant: string;
  path: string;
  opts: RequestOptions;
}

function familyOf(path: string): "platform" | "public" | "widget" | "api" {
  if (path.startsWith("/platform/")) return "platform";
  if (path.startsWith("/public/")) return "public";
  if (path.startsWith("/api/v1/widget")) return "widget";
  return "api";
}

/** The seeded value for a path parameter: by family and segment, by segment, else by name. */
function idFor(ids: Ids, family: string, before: string, param: string): string {
  const key = [`${family}/${before}/{${param}}`, `${before}/{${param}}`, `${family}/{${param}}`, `{${param}}`].find(
    (k) => k in ids,
  );
  if (!key) throw new Error(`no seeded value for {${param}} after ${before}`);
  return ids[key]!;
}

/** The route's path with every parameter resolved, except `hostile` (param, raw value) when given. */
export function pathOf(w: Pick<HostileWorld, "ids" | "widgetQuery">, route: Route, hostile?: [string, string]): string {
  const family = familyOf(route.path);
  const segments = route.path.split("/");
  const out = segments.map((s, i) => {
    const m = /^\{(\w+)\}$/.exec(s);
    if (!m) return s;
    if (hostile && hostile[0] === m[1]) return hostile[1];
    return encodeURIComponent(idFor(w.ids, family, segments[i - 1]!, m[1]!));
  });
  return out.join("/") + (family === "widget" ? w.widgetQuery : "");
}

function authOf(w: HostileWorld, route: Route): RequestOptions {
  const family = familyOf(route.path);
  if (family === "platform") return { token: w.platformToken };
  if (family === "public") return {};
  if (family === "widget") return { headers: { "x-auth-token": w.widgetToken } };
  return { token: w.adminToken };
}

/** The same body for a membership route's POST (add), PATCH (replace) and DELETE (remove). */
const everyMethod = (path: string, body: Record<string, unknown>) =>
  Object.fromEntries(["POST", "PATCH", "DELETE"].map((m) => [`${m} ${path}`, body]));

/** An otherwise-valid body for each route that takes one (keyed by method and template). */
export function plausible(w: Pick<HostileWorld, "ids" | "adminEmail">, route: Route): Record<string, unknown> {
  const id = (k: string) => Number(w.ids[k]);
  const agent = id("agents/{id}");
  const inbox = id("{inbox_id}");
  const key = `${route.method} ${route.path.replace(/^\/api\/v1\/accounts\/\{account_id\}/, "~")}`;
  const payload = FILTER_PAYLOAD;
  const bodies: Record<string, Record<string, unknown>> = {
    "POST /auth/sign_in": { email: w.adminEmail, password: "not-the-password" },
    "PATCH ~": { name: "Acme" },
    "POST ~/inboxes": { name: "Another", channel: { type: "api" } },
    "PATCH ~/inboxes/{id}": { name: "Support" },
    ...everyMethod("~/inbox_members", { inbox_id: inbox, user_ids: [agent] }),
    "POST ~/agents": { name: "New", email: "new-agent@example.com", role: "agent" },
    "PATCH ~/agents/{id}": { name: "Agent" },
    "POST ~/teams": { name: "support" },
    "PATCH ~/teams/{team_id}": { description: "the team" },
    ...everyMethod("~/teams/{team_id}/team_members", { user_ids: [agent] }),
    "POST /platform/api/v1/accounts": { name: "Another" },
    "PATCH /platform/api/v1/accounts/{id}": { name: "Platform account" },
    "POST /platform/api/v1/accounts/{id}/account_users": { user_id: id("platform/users/{id}"), role: "agent" },
    "DELETE /platform/api/v1/accounts/{id}/account_users": { user_id: id("platform/users/{id}") },
    "POST /platform/api/v1/users": { name: "Q", email: "q@example.com", password: "Password1!" },
    "PATCH /platform/api/v1/users/{id}": { name: "P" },
    "POST /platform/api/v1/agent_bots": { name: "Bot" },
    "PATCH /platform/api/v1/agent_bots/{id}": { name: "Bot" },
    "POST ~/agent_bots": { name: "Bot", outgoing_url: "https://bot.example.com/in" },
    "PATCH ~/agent_bots/{id}": { name: "Bot" },
    "POST ~/inboxes/{id}/set_agent_bot": { agent_bot: id("agent_bots/{id}") },
    "POST ~/webhooks": { url: "https://hooks.example.com/other", subscriptions: ["message_created"] },
    "PATCH ~/webhooks/{id}": { name: "Probe" },
    "POST ~/contacts/export": { column_names: ["name", "email"] },
    "POST ~/contacts/filter": { payload: [{ ...payload[0], attribute_key: "name", values: ["carla"] }] },
    "POST ~/conversations/filter": { payload },
    "POST ~/contacts/{id}/notes": { content: "Another note" },
    "PATCH ~/contacts/{id}/notes/{note_id}": { content: "A note" },
    "POST ~/actions/contact_merge": {
      base_contact_id: id("contacts/{id}"),
      mergee_contact_id: id("{mergee_contact_id}"),
    },
    "POST ~/custom_filters": { name: "Open", filter_type: "conversation", query: { payload } },
    "PATCH ~/custom_filters/{id}": { name: "Open" },
    "POST ~/contacts": { name: "Someone" },
    "PATCH ~/contacts/{id}": { name: "Carla" },
    "PUT ~/contacts/{id}": { name: "Carla" },
    "POST ~/contacts/{id}/destroy_custom_attributes": { custom_attributes: ["plan"] },
    "POST ~/contacts/{id}/contact_inboxes": { inbox_id: inbox },
    "POST ~/contacts/{id}/labels": { labels: ["probe"] },
    "POST ~/conversations": { inbox_id: inbox, contact_id: id("contacts/{id}") },
    "PATCH ~/conversations/{conversation_id}": { priority: "high" },
    "POST ~/conversations/{conversation_id}/toggle_status": { status: "open" },
    "POST ~/conversations/{conversation_id}/toggle_priority": { priority: "low" },
    "POST ~/conversations/{conversation_id}/assignments": { assignee_id: agent },
    "POST ~/conversations/{conversation_id}/labels": { labels: ["probe"] },
    "POST ~/conversations/{conversation_id}/custom_attributes": { custom_attributes: { plan: "pro" } },
    "POST ~/conversations/{conversation_id}/messages": { content: "hi" },
    "PATCH ~/conversations/{conversation_id}/messages/{message_id}": { status: "delivered" },
    ...everyMethod("~/conversations/{conversation_id}/participants", { user_ids: [agent] }),
    "POST ~/conversations/{conversation_id}/transcript": { email: "someone@example.com" },
    "POST ~/conversations/{conversation_id}/toggle_typing_status": { typing_status: "on" },
    "POST ~/labels": { title: "another" },
    "PATCH ~/labels/{id}": { description: "a label" },
    "POST ~/automation_rules": {
      name: "Rule",
      event_name: "conversation_created",
      conditions: payload,
      actions: [{ action_name: "resolve_conversation" }],
    },
    "PATCH ~/automation_rules/{id}": { name: "Rule" },
    "PATCH ~/notification_settings": { selected_email_flags: ["email_conversation_assignment"] },
    "POST ~/canned_responses": { short_code: "bye", content: "Bye!" },
    "PATCH ~/canned_responses/{id}": { content: "Hello!" },
    "POST ~/dashboard_apps": { title: "Orders", content: [{ type: "frame", url: "https://orders.example.com" }] },
    "PATCH ~/dashboard_apps/{id}": { title: "CRM" },
    "POST ~/macros": { name: "Resolve", actions: [{ action_name: "resolve_conversation", action_params: [] }] },
    "PATCH ~/macros/{id}": { name: "Reopen" },
    "POST ~/custom_attribute_definitions": {
      attribute_display_name: "Tier",
      attribute_key: "tier",
      attribute_model: "conversation_attribute",
      attribute_display_type: "text",
    },
    "PATCH ~/custom_attribute_definitions/{id}": { attribute_display_name: "Plan" },
    "POST /public/api/v1/inboxes/{inbox_identifier}/contacts": { name: "Visitor" },
    "POST /api/v1/widget/conversations": { message: { content: "hi" } },
    "POST /api/v1/widget/events": { name: "webwidget.triggered", event_info: {} },
    "PATCH /api/v1/widget/contact/set_user": { identifier: "visitor-1" },
    "POST /api/v1/widget/labels": { label: "probe" },
    "POST /api/v1/widget/contact/destroy_custom_attributes": { custom_attributes: ["plan"] },
    "POST /api/v1/widget/conversations/set_custom_attributes": { custom_attributes: { plan: "pro" } },
    "POST /api/v1/widget/conversations/destroy_custom_attributes": { custom_attributes: ["plan"] },
  };
  if (key in bodies) return bodies[key]!;
  if (/\/contacts\/\{contact_identifier\}$/.test(route.path) || route.path.startsWith("/api/v1/widget/contact"))
    return { name: "Visitor" };
  if (/toggle_typing$/.test(route.path)) return { typing_status: "on" };
  if (/\/messages$/.test(route.path)) return { content: "hi" };
  if (/\/messages\/\{message_id\}$/.test(route.path))
    return { submitted_values: [{ name: "email", value: "v@example.com" }] };
  return {};
}

/** Every request of the sweep, in route order. */
export function probesOf(w: HostileWorld): Probe[] {
  const probes: Probe[] = [];
  for (const route of w.routes) {
    const auth = authOf(w, route);
    const base = route.bodyProps ? plausible(w, route) : undefined;
    for (const param of route.params)
      for (const [name, raw] of HOSTILE_IDS)
        probes.push({
          route,
          variant: `{${param}} = ${name}`,
          path: pathOf(w, route, [param, raw]),
          opts: { ...auth, body: base },
        });
    if (!route.bodyProps) continue;
    const path = pathOf(w, route);
    for (const prop of route.bodyProps)
      for (const [name, value] of HOSTILE_VALUES)
        probes.push({ route, variant: `${prop} = ${name}`, path, opts: { ...auth, body: { ...base, [prop]: value } } });
    const raw = [...HOSTILE_BODIES, ...(route.multipart ? HOSTILE_MULTIPART : [])];
    for (const b of raw) {
      const headers = { ...auth.headers, ...(b.contentType ? { "content-type": b.contentType } : {}) };
      probes.push({ route, variant: b.name, path, opts: { ...auth, headers, body: b.body } });
    }
  }
  return probes;
}
