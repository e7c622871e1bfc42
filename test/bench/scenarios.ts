// The scenarios npm run bench drives, each a rotation of requests against the seeded account.
// Writes rotate over many conversations: the per-conversation flood guard allows 200 messages a
// minute, and a benchmark that hammered one conversation would measure 429s.
import { join } from "node:path";
import { multipartMessage } from "./attachment-setup.ts";
import type { BenchRequest } from "./load.ts";

// The seed's version is in the file's name: a change to src/db/seed.repo.ts's data must not reuse
// an old file.
const SEED_VERSION = 3; // 3: seeded conversations carry labels (the filter scenarios)

/** The seeded database's file for a scale; the measurement scripts default to the million-row seed. */
export function seededDatabase(contacts = 1_000_000, conversations = 1_000_000): string {
  return join(import.meta.dir, "results", `bench-v${SEED_VERSION}-${contacts}-${conversations}.db`);
}

/** What `parley seed --json` prints: the ids and tokens the scenarios address. */
export interface SeedInfo {
  account_id: number;
  api_access_token: string;
  inbox_id: number;
  inbox_identifier: string;
  contact_identifier: string;
  public_conversation_id: number;
  thread_conversation_id: number;
  thread_middle_message_id: number;
  team_ids: number[];
  conversations: number;
  /** [contact_identifier, conversation display id] pairs for public-API writes. */
  public_targets: [string, number][];
}

/** An attachment sent on the running server (attachment-setup.ts): its signed link, as a path. */
export interface AttachmentInfo {
  downloadPath: string;
}

/** A website inbox and visitors made on the running server (widget-setup.ts). */
export interface WidgetInfo {
  websiteToken: string;
  /** Each visitor's X-Auth-Token; each has an open conversation. */
  visitors: string[];
}

export interface Scenario {
  name: string;
  /** What limits it, for the results table in test/bench/README.md. */
  needsSeed: boolean;
  /** Needs the website chat's inbox and visitors (made before the scenario runs). */
  needsWidget?: boolean;
  /** Needs an attachment to download (sent before the scenario runs). */
  needsAttachment?: boolean;
  requests(seed: SeedInfo & { widget?: WidgetInfo; attachment?: AttachmentInfo }): BenchRequest[];
}

const json = { "content-type": "application/json" };
const auth = (s: SeedInfo) => ({ api_access_token: s.api_access_token });
const account = (s: SeedInfo) => `/api/v1/accounts/${s.account_id}`;

/** Display ids 2..N+1 of seeded conversations (1 holds the long thread). */
function spread(s: SeedInfo, n = 4000): number[] {
  const count = Math.max(1, Math.min(n, s.conversations - 1));
  return Array.from({ length: count }, (_, i) => 2 + ((i * 7919) % Math.max(1, s.conversations - 1)));
}

function createMessage(s: SeedInfo, displayId: number, i: number): BenchRequest {
  return {
    method: "POST",
    path: `${account(s)}/conversations/${displayId}/messages`,
    headers: { ...json, ...auth(s) },
    body: JSON.stringify({ content: `Benchmark message ${i}: where is my order?`, message_type: "incoming" }),
  };
}

/**
 * BENCH_ONLY's choice: comma-separated scenario names, or their beginnings. A beginning is what
 * selects a name that holds commas itself ("message-list" for "message-list (before, 10,000-message
 * thread)"), which the list's own commas would cut apart. Null: no choice made.
 */
export function chosenScenarios(list: string | undefined): ((name: string) => boolean) | null {
  const wanted = list
    ?.split(",")
    .map((s) => s.trim())
    .filter(Boolean);
  if (!wanted?.length) return null;
  return (name) => wanted.some((w) => name === w || name.startsWith(w));
}

export const SCENARIOS: Scenario[] = [
  { name: "health", needsSeed: false, requests: () => [{ path: "/health" }] },
  {
    name: "message-create (account API)",
    needsSeed: true,
    requests: (s) => spread(s).map((id, i) => createMessage(s, id, i)),
  },
  {
    name: "message-create (public API)",
    needsSeed: true,
    requests: (s) =>
      s.public_targets.map(([contact, id], i) => ({
        method: "POST",
        path: `/public/api/v1/inboxes/${s.inbox_identifier}/contacts/${contact}/conversations/${id}/messages`,
        headers: json,
        body: JSON.stringify({ content: `Public benchmark message ${i}` }),
      })),
  },
  {
    // toggle_status without a status: open ↔ resolved, each with its activity message and events.
    name: "status toggle",
    needsSeed: true,
    requests: (s) =>
      spread(s).map((id) => ({
        method: "POST",
        path: `${account(s)}/conversations/${id}/toggle_status`,
        headers: { ...json, ...auth(s) },
        body: "{}",
      })),
  },
  {
    name: "message-list (before, 10,000-message thread)",
    needsSeed: true,
    requests: (s) => [
      {
        path: `${account(s)}/conversations/${s.thread_conversation_id}/messages?before=${s.thread_middle_message_id}`,
        headers: auth(s),
      },
    ],
  },
  {
    name: "contact-search",
    needsSeed: true,
    requests: (s) =>
      ["kowalski", "smith", "rossi", "nakamura", "CRM-19", "+1200000", "gmail"].map((q) => ({
        path: `${account(s)}/contacts/search?q=${encodeURIComponent(q)}`,
        headers: auth(s),
      })),
  },
  {
    name: "conversation-list (filters)",
    needsSeed: true,
    requests: (s) => [
      { path: `${account(s)}/conversations?status=open&assignee_type=all&page=1`, headers: auth(s) },
      {
        path: `${account(s)}/conversations?status=open&inbox_id=${s.inbox_id}&team_id=${s.team_ids[0]}&page=2`,
        headers: auth(s),
      },
      { path: `${account(s)}/conversations?status=resolved&assignee_type=unassigned`, headers: auth(s) },
    ],
  },
  {
    // Evolution API's lookup of an inbound WhatsApp sender: identifier OR phone, the number without "+".
    name: "contacts/filter (phone lookup)",
    needsSeed: true,
    requests: (s) =>
      Array.from({ length: 200 }, (_, i) => {
        const phone = `1${2_000_000_000 + 10 + ((i * 7919) % 50_000) * 20}`;
        const payload = [
          { attribute_key: "identifier", filter_operator: "equal_to", values: [phone], query_operator: "OR" },
          { attribute_key: "phone_number", filter_operator: "equal_to", values: [phone], query_operator: null },
        ];
        return {
          method: "POST",
          path: `${account(s)}/contacts/filter`,
          headers: { ...json, ...auth(s) },
          body: JSON.stringify({ payload }),
        };
      }),
  },
  {
    // The mobile app's filtered list: a status and a label, first pages.
    name: "conversations/filter (status + label)",
    needsSeed: true,
    requests: (s) =>
      (["open", "resolved", "pending"] as const).flatMap((status) =>
        ["billing", "vip"].map((label) => ({
          method: "POST",
          path: `${account(s)}/conversations/filter?page=1`,
          headers: { ...json, ...auth(s) },
          body: JSON.stringify({
            payload: [
              { attribute_key: "status", filter_operator: "equal_to", values: [status], query_operator: "AND" },
              { attribute_key: "labels", filter_operator: "equal_to", values: [label], query_operator: null },
            ],
          }),
        })),
      ),
  },
  {
    // A file as a WhatsApp bridge sends it: multipart, a caption and one 16 KB attachments[] part.
    name: "attachment upload (16 KB multipart)",
    needsSeed: true,
    requests: (s) =>
      spread(s).map((id, i) => {
        const { body, contentType } = multipartMessage(`Invoice ${i}`);
        return {
          method: "POST",
          path: `${account(s)}/conversations/${id}/messages`,
          headers: { ...auth(s), "content-type": contentType },
          body,
        };
      }),
  },
  {
    // The file again, from its signed link (what an agent's browser or a bridge fetches).
    name: "attachment download (16 KB)",
    needsSeed: true,
    needsAttachment: true,
    requests: (s) => [{ path: s.attachment!.downloadPath }],
  },
  {
    // The website chat's composer: a visitor sends a message (X-Auth-Token), rotating over visitors.
    name: "widget: message create",
    needsSeed: true,
    needsWidget: true,
    requests: (s) =>
      s.widget!.visitors.map((token, i) => ({
        method: "POST",
        path: `/api/v1/widget/messages?website_token=${s.widget!.websiteToken}`,
        headers: { ...json, "x-auth-token": token },
        body: JSON.stringify({ message: { content: `Widget message ${i}: is anyone there?` } }),
      })),
  },
  {
    // The chat page opening: the visitor's latest messages.
    name: "widget: messages",
    needsSeed: true,
    needsWidget: true,
    requests: (s) =>
      s.widget!.visitors.map((token) => ({
        path: `/api/v1/widget/messages?website_token=${s.widget!.websiteToken}`,
        headers: { "x-auth-token": token },
      })),
  },
  {
    name: "team summary (one month)",
    needsSeed: true,
    requests: (s) => {
      const until = Math.floor(Date.now() / 1000);
      return [
        {
          path: `/api/v2/accounts/${s.account_id}/summary_reports/team?since=${until - 30 * 86400}&until=${until}`,
          headers: auth(s),
        },
      ];
    },
  },
  {
    name: "mixed (70% reads, 30% writes)",
    needsSeed: true,
    requests: (s) =>
      spread(s, 1000).flatMap((id, i) => [
        { path: `${account(s)}/conversations/${id}/messages`, headers: auth(s) },
        { path: `${account(s)}/conversations/${id}`, headers: auth(s) },
        { path: `${account(s)}/conversations?status=open&page=${1 + (i % 5)}`, headers: auth(s) },
        ...(i % 3 === 0 ? [] : [createMessage(s, id, i)]),
        { path: `${account(s)}/contacts/search?q=${["smith", "lee", "garcia"][i % 3]}`, headers: auth(s) },
      ]),
  },
];
