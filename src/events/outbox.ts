// The outbox writer. record() must run inside writeTx: the event commits or rolls back with the
// change it describes, so no listener ever sees an event for a change that did not happen.
import type { Database, Statement } from "bun:sqlite";
import type { Clock } from "../lib/clock.ts";
import type { NewEvent, StoredEvent } from "./types.ts";

/** Synchronous work that must commit together with the event (e.g. webhook delivery rows). */
export type InTransactionHook = (event: StoredEvent) => void;

interface EventRow {
  id: number;
  account_id: number;
  kind: string;
  actor_type: string;
  actor_id: number | null;
  inbox_id: number | null;
  conversation_id: number | null;
  contact_id: number | null;
  private: number;
  payload: string;
  created_at_ms: number;
}

export function eventFromRow(r: EventRow): StoredEvent {
  return {
    id: r.id,
    kind: r.kind as StoredEvent["kind"],
    accountId: r.account_id,
    actor: { type: r.actor_type as StoredEvent["actor"]["type"], id: r.actor_id },
    inboxId: r.inbox_id,
    conversationId: r.conversation_id,
    contactId: r.contact_id,
    private: r.private === 1,
    payload: JSON.parse(r.payload) as Record<string, unknown>,
    createdAtMs: r.created_at_ms,
  };
}

export class EventOutbox {
  private readonly insert: Statement;
  private readonly hooks: InTransactionHook[] = [];
  /** Set when an event was written in the transaction under way; read by the bus after commit. */
  pending = false;

  constructor(private readonly db: Database, private readonly clock: Clock) {
    this.insert = db.prepare(
      `INSERT INTO events (account_id, kind, actor_type, actor_id, inbox_id, conversation_id, contact_id, private, payload, created_at_ms)
       VALUES ($account_id, $kind, $actor_type, $actor_id, $inbox_id, $conversation_id, $contact_id, $private, $payload, $created_at_ms)`,
    );
  }

  onRecord(hook: InTransactionHook): void {
    this.hooks.push(hook);
  }

  record(e: NewEvent): StoredEvent {
    if (!this.db.inTransaction) throw new Error(`event ${e.kind} recorded outside writeTx`);
    const createdAtMs = this.clock.nowMs();
    const result = this.insert.run({
      account_id: e.accountId,
      kind: e.kind,
      actor_type: e.actor.type,
      actor_id: e.actor.id,
      inbox_id: e.inboxId ?? null,
      conversation_id: e.conversationId ?? null,
      contact_id: e.contactId ?? null,
      private: e.private ? 1 : 0,
      payload: JSON.stringify(e.payload),
      created_at_ms: createdAtMs,
    });
    const stored: StoredEvent = {
      id: Number(result.lastInsertRowid),
      kind: e.kind,
      accountId: e.accountId,
      actor: e.actor,
      inboxId: e.inboxId ?? null,
      conversationId: e.conversationId ?? null,
      contactId: e.contactId ?? null,
      private: e.private ?? false,
      payload: e.payload,
      createdAtMs,
    };
    for (const hook of this.hooks) hook(stored);
    this.pending = true;
    return stored;
  }
}
