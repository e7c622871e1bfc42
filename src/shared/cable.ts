// The browser's side of /cable's ActionCable framing, as pure functions: what a server frame means,
// the subscription identifier (with `since` after a reconnect), how long to wait before the next
// attempt, and what an account event asks the screens to look at again.

import { CHANNEL, PROTOCOL } from "./cable-frames.ts";

export { PROTOCOL };

/** An account event as the stream sends it (`seq` is absent only on presence updates). */
export interface CableEvent {
  event: string;
  data: Record<string, unknown>;
  seq: number | null;
}

export type ServerFrame =
  | { type: "welcome" }
  | { type: "ping" }
  | { type: "confirm"; identifier: string }
  | { type: "reject"; identifier: string }
  | { type: "disconnect"; reconnect: boolean }
  | { type: "event"; identifier: string; message: CableEvent }
  | { type: "unknown" };

const isObject = (v: unknown): v is Record<string, unknown> => !!v && typeof v === "object" && !Array.isArray(v);

/** A frame from the server; anything this client does not know is "unknown" (and ignored). */
export function parseFrame(raw: unknown): ServerFrame {
  let v: unknown;
  try {
    v = typeof raw === "string" ? JSON.parse(raw) : null;
  } catch {
    return { type: "unknown" };
  }
  if (!isObject(v)) return { type: "unknown" };
  switch (v.type) {
    case "welcome":
      return { type: "welcome" };
    case "ping":
      return { type: "ping" };
    case "confirm_subscription":
    case "reject_subscription":
      if (typeof v.identifier !== "string") return { type: "unknown" };
      return { type: v.type === "confirm_subscription" ? "confirm" : "reject", identifier: v.identifier };
    case "disconnect":
      return { type: "disconnect", reconnect: v.reconnect !== false };
  }
  const m = v.message;
  if (typeof v.identifier !== "string" || !isObject(m) || typeof m.event !== "string") return { type: "unknown" };
  return {
    type: "event",
    identifier: v.identifier,
    message: { event: m.event, data: isObject(m.data) ? m.data : {}, seq: typeof m.seq === "number" ? m.seq : null },
  };
}

/**
 * The subscription to one account. The session cookie identifies the user (the server accepts it
 * from our own page), so no token is put in page script. `since`: replay what came after it first.
 */
export function identifier(accountId: number, since: number | null): string {
  return JSON.stringify({ channel: CHANNEL, account_id: accountId, ...(since === null ? {} : { since }) });
}

export const subscribeCommand = (identifierJson: string) =>
  JSON.stringify({ command: "subscribe", identifier: identifierJson });

/** Before reconnect attempt `attempt` (0 = the first after a drop): 0.5 s doubling to 30 s, with up to 20 % jitter so a restart is not met by every tab at once. */
export function backoffMs(attempt: number, random: () => number = Math.random): number {
  const base = Math.min(30_000, 500 * 2 ** Math.min(attempt, 16));
  return Math.round(base * (1 + 0.2 * random()));
}

/** The server pings every 3 s: this long without any frame means the connection is dead. */
export const SILENCE_MS = 10_000;

export interface Interest {
  /** Page 1 of the list may have changed. */
  list: boolean;
  /** The open conversation may have changed: the one with this id (display id), or whichever is open ("any"). */
  conversation: number | "any" | null;
  /** Messages to put in the thread of conversation `conversationId` as they are. */
  messages: Record<string, unknown>[];
  /** Every screen must look again (the stream cannot tell what was missed). */
  everything: boolean;
}

const num = (v: unknown): number | null => (typeof v === "number" ? v : null);

/** What an event changes for the inbox screens. */
export function interestOf(e: CableEvent): Interest {
  const none: Interest = { list: false, conversation: null, messages: [], everything: false };
  switch (e.event) {
    case "resync":
      return { ...none, everything: true };
    case "message.created":
    case "message.updated":
      return { ...none, list: true, messages: [e.data], conversation: num(e.data.conversation_id) };
    case "conversation.created":
    case "conversation.updated":
    case "conversation.status_changed":
    case "assignee.changed":
    case "team.changed":
      return { ...none, list: true, conversation: num(e.data.id) };
    case "contact.created":
    case "contact.updated":
    case "contact.deleted":
      // Names in the list and the open conversation's contact; the event does not say which conversations.
      return { ...none, list: true, conversation: "any" };
    default:
      return none; // typing, presence
  }
}
