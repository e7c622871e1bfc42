// The outbox writer (its SQL is in src/db/events.repo.ts). record() must run inside writeTx: the event commits or rolls back with the
// change it describes, so no listener ever sees an event for a change that did not happen. Written as
// steps (src/db/reads.ts), hooks included, so that an awaited body (writeTx.steps) records the same way.
import type { Database } from "bun:sqlite";
import { EventsRepo } from "../db/events.repo.ts";
import { type Reads, readNow } from "../db/reads.ts";
import { writing } from "../db/tx.ts";
import type { Clock } from "../lib/clock.ts";
import type { NewEvent, StoredEvent } from "../shared/event-types.ts";

/**
 * Work that must commit together with the event (e.g. webhook delivery rows), as steps; null when
 * the event needs none, which a hook can often tell without the database (no generator to run).
 */
export type InTransactionHook = (event: StoredEvent) => Reads<void> | null;

export class EventOutbox {
  private readonly events: EventsRepo;
  private readonly hooks: InTransactionHook[] = [];
  /** Set when an event was written in the transaction under way; read by the bus after commit. */
  pending = false;

  constructor(
    private readonly db: Database,
    private readonly clock: Clock,
  ) {
    this.events = new EventsRepo(db);
  }

  onRecord(hook: InTransactionHook): void {
    this.hooks.push(hook);
  }

  record(e: NewEvent): StoredEvent {
    return readNow(this.recordSteps(e));
  }

  *recordSteps(e: NewEvent): Reads<StoredEvent> {
    if (!writing(this.db)) throw new Error(`event ${e.kind} recorded outside writeTx`);
    const createdAtMs = this.clock.nowMs();
    const id = yield* this.events.insertSteps({
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
      id,
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
    for (const hook of this.hooks) {
      const steps = hook(stored);
      if (steps) yield* steps;
    }
    this.pending = true;
    return stored;
  }
}
