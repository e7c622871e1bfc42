// A world for report tests: an inbox with working hours (Mon-Fri 09:00-17:00 Europe/Berlin, the
// inbox default), one without, three teams, a contact, and helpers that drive conversations through
// HTTP at hand-picked instants of the ManualClock.
import { expect } from "bun:test";
import type { ReportingEventRow } from "../../src/db/reporting-events.repo.ts";
import {
  addInboxMember,
  addTeamMember,
  makeAccount,
  makeMember,
  makeInbox,
  makeTeam,
  type AccountFixture,
  type UserFixture,
} from "./factories.ts";
import { createHarness, type Harness } from "./harness.ts";

export interface ReportWorld {
  h: Harness;
  a: AccountFixture;
  agent: UserFixture;
  /** Working hours on: Mon-Fri 09:00-17:00 Europe/Berlin. */
  berlin: number;
  /** Working hours off. */
  plain: number;
  teams: { sales: number; support: number; empty: number };
  contactId: number;
  base: string;
}

export async function reportWorld(): Promise<ReportWorld> {
  const h = createHarness();
  const a = await makeAccount(h, "Acme");
  const agent = await makeMember(h, a.accountId, "agent", "Ann Agent");
  const berlin = (await makeInbox(h, a, { name: "Berlin", working_hours_enabled: true, timezone: "Europe/Berlin" })).id;
  const plain = (await makeInbox(h, a, { name: "Plain" })).id;
  await addInboxMember(h, a, berlin, agent.userId);
  await addInboxMember(h, a, plain, agent.userId);
  const teams = {
    sales: (await makeTeam(h, a, "sales")).id,
    support: (await makeTeam(h, a, "support")).id,
    empty: (await makeTeam(h, a, "empty")).id,
  };
  await addTeamMember(h, a, teams.sales, agent.userId);
  const base = `/api/v1/accounts/${a.accountId}`;
  const c = await h.request("POST", `${base}/contacts`, {
    token: a.adminToken,
    body: { name: "Carla Customer", email: "carla@example.com" },
  });
  expect(c.status).toBe(200);
  return { h, a, agent, berlin, plain, teams, contactId: c.body.payload.contact.id, base };
}

/** Sets the clock to a UTC wall time: at(w, "2026-01-09T15:00:00Z"). */
export function at(w: ReportWorld, iso: string): number {
  const ms = Date.parse(iso);
  w.h.clock.set(ms);
  return ms / 1000;
}

/** Runs each step with the clock set to its instant. */
export async function timeline(w: ReportWorld, steps: [iso: string, step: () => Promise<unknown>][]): Promise<void> {
  for (const [iso, step] of steps) {
    at(w, iso);
    await step();
  }
}

export interface Conv {
  displayId: number;
  id: number;
}

export async function open(w: ReportWorld, inboxId: number, body: Record<string, unknown> = {}): Promise<Conv> {
  const r = await w.h.request("POST", `${w.base}/conversations`, {
    token: w.a.adminToken,
    body: { inbox_id: inboxId, contact_id: w.contactId, ...body },
  });
  expect(r.status).toBe(200);
  const row = w.h.deps.db
    .query("SELECT id FROM conversations WHERE account_id = ? AND display_id = ?")
    .get(w.a.accountId, r.body.id) as { id: number };
  return { displayId: r.body.id, id: row.id };
}

export async function say(
  w: ReportWorld,
  c: Conv,
  body: Record<string, unknown>,
  token = w.a.adminToken,
): Promise<void> {
  const r = await w.h.request("POST", `${w.base}/conversations/${c.displayId}/messages`, { token, body });
  expect(r.status).toBe(200);
}

export const incoming = (w: ReportWorld, c: Conv, content = "help") => say(w, c, { content, message_type: "incoming" });
export const reply = (w: ReportWorld, c: Conv, content = "on it") => say(w, c, { content });

export async function setStatus(w: ReportWorld, c: Conv, status: string): Promise<void> {
  const r = await w.h.request("POST", `${w.base}/conversations/${c.displayId}/toggle_status`, {
    token: w.a.adminToken,
    body: { status },
  });
  expect(r.status).toBe(200);
  expect(r.body.payload.current_status).toBe(status);
}

/** The conversation's reporting events as [name, value, value_in_business_hours]. */
export function eventsOf(w: ReportWorld, c: Conv): [string, number, number | null][] {
  return w.h.deps.repos.reportingEvents.ofConversation(c.id).map((e) => [e.name, e.value, e.value_in_business_hours]);
}

export function rawEventsOf(w: ReportWorld, c: Conv): ReportingEventRow[] {
  return w.h.deps.repos.reportingEvents.ofConversation(c.id);
}

/** GET a v2 report of the world's account as the administrator (or `token`). */
export function report(
  w: ReportWorld,
  path: string,
  query: Record<string, string | number | boolean> = {},
  token: string | null = w.a.adminToken,
) {
  const qs = new URLSearchParams(Object.entries(query).map(([k, v]) => [k, String(v)])).toString();
  return w.h.request("GET", `/api/v2/accounts/${w.a.accountId}/${path}${qs ? `?${qs}` : ""}`, { token });
}

export interface Dataset {
  w: ReportWorld;
  c1: Conv;
  c2: Conv;
  c3: Conv;
  c4: Conv;
}

/**
 * Four conversations in January 2026 (times UTC; Berlin is UTC+1), the figures the report tests
 * compute by hand:
 *   c1 Berlin, sales, assignee agent: created Fri 09 15:00 (incoming); agent replies Mon 12 09:00
 *      (first response 66 h, business 2 h); contact Mon 15:30; agent Tue 13 08:15 (reply 16 h 45 min,
 *      business 45 min); resolved Tue 09:00 (90 h, business 10 h). Labels vip, billing.
 *   c2 Plain, sales, assignee agent: created Mon 12 10:00; agent 10:10 (first response 600); contact
 *      11:00; agent 11:30 (reply 1800); resolved 12:00 (7200); reopened 13:00; resolved 14:00 (14400).
 *      Label billing.
 *   c3 Berlin, support: created Mon 12 08:00; admin 08:30 (first response 1800, business 1800). Label vip.
 *   c4 Plain, no team: created Tue 13 10:00; admin 10:05 (first response 300).
 * Team "empty" has nothing.
 */
export async function dataset(): Promise<Dataset> {
  const w = await reportWorld();
  const agentSays = (c: Conv, content = "on it") => say(w, c, { content }, w.agent.token);
  const label = async (c: Conv, labels: string[]) => {
    const r = await w.h.request("POST", `${w.base}/conversations/${c.displayId}/labels`, {
      token: w.a.adminToken,
      body: { labels },
    });
    expect(r.status).toBe(200);
  };

  at(w, "2026-01-09T15:00:00Z");
  const c1 = await open(w, w.berlin, {
    team_id: w.teams.sales,
    assignee_id: w.agent.userId,
    message: { content: "order missing", message_type: "incoming" },
  });
  await label(c1, ["vip", "billing"]);
  await timeline(w, [
    ["2026-01-12T09:00:00Z", () => agentSays(c1)],
    ["2026-01-12T15:30:00Z", () => incoming(w, c1)],
    ["2026-01-13T08:15:00Z", () => agentSays(c1)],
    ["2026-01-13T09:00:00Z", () => setStatus(w, c1, "resolved")],
  ]);

  at(w, "2026-01-12T10:00:00Z");
  const c2 = await open(w, w.plain, { team_id: w.teams.sales, assignee_id: w.agent.userId });
  await label(c2, ["billing"]);
  await timeline(w, [
    ["2026-01-12T10:10:00Z", () => agentSays(c2)],
    ["2026-01-12T11:00:00Z", () => incoming(w, c2)],
    ["2026-01-12T11:30:00Z", () => agentSays(c2)],
    ["2026-01-12T12:00:00Z", () => setStatus(w, c2, "resolved")],
    ["2026-01-12T13:00:00Z", () => setStatus(w, c2, "open")],
    ["2026-01-12T14:00:00Z", () => setStatus(w, c2, "resolved")],
  ]);

  at(w, "2026-01-12T08:00:00Z");
  const c3 = await open(w, w.berlin, { team_id: w.teams.support });
  await label(c3, ["vip"]);
  await timeline(w, [["2026-01-12T08:30:00Z", () => reply(w, c3)]]);

  at(w, "2026-01-13T10:00:00Z");
  const c4 = await open(w, w.plain);
  await timeline(w, [["2026-01-13T10:05:00Z", () => reply(w, c4)]]);
  return { w, c1, c2, c3, c4 };
}

/** Unix seconds of an ISO instant. */
export const ts = (iso: string) => Date.parse(iso) / 1000;

export const H = 3600;
/** A range holding the whole dataset. */
export const ALL = { since: ts("2026-01-05T00:00:00Z"), until: ts("2026-01-19T00:00:00Z") };
