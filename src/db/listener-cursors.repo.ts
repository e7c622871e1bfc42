// Where each durable listener of the bus stopped (the last event it finished).
import type { Database } from "bun:sqlite";
import { type Reads, readNow, TwoWayStatement } from "./reads.ts";

export class ListenerCursorsRepo {
  private readonly getStmt: TwoWayStatement;
  private readonly setStmt: TwoWayStatement;

  constructor(db: Database) {
    this.getStmt = new TwoWayStatement(db, "SELECT last_event_id FROM listener_cursors WHERE name = $name");
    // Only forward: a process that lost the background lease mid-batch may save its place after
    // another process went further, and moving back would hand those events to the listener again.
    this.setStmt = new TwoWayStatement(
      db,
      "INSERT INTO listener_cursors (name, last_event_id) VALUES ($name, $id) ON CONFLICT(name) DO UPDATE SET last_event_id = max(listener_cursors.last_event_id, excluded.last_event_id)",
    );
  }

  /** The listener's cursor; null for a listener never registered. */
  get(name: string): number | null {
    return readNow(this.readGet(name));
  }

  *readGet(name: string): Reads<number | null> {
    return ((yield this.getStmt.get({ name })) as { last_event_id: number } | null)?.last_event_id ?? null;
  }

  /** In place: a listener's first registration, at start. */
  set(name: string, id: number): void {
    readNow(this.setSteps(name, id));
  }

  *setSteps(name: string, id: number): Reads<void> {
    yield this.setStmt.write({ name, id });
  }
}
