// Free-form label titles on conversations and on contacts, kept in tables (not a cached string) so
// that a later label rename or delete can update every tagged record with one statement.
import type { Database } from "bun:sqlite";
import { Batch } from "./batch.ts";
import { nested, type Reads, readNow, TwoWayStatement } from "./reads.ts";

type Target = "conversation" | "contact";

interface LabelRow {
  owner_id: number;
  title: string;
}

class LabelSet {
  private readonly list: Batch<LabelRow>;
  private readonly addStmt: TwoWayStatement;
  private readonly removeStmt: TwoWayStatement;

  constructor(db: Database, table: string, column: string) {
    this.list = new Batch<LabelRow>(
      db,
      `SELECT ${column} AS owner_id, title FROM ${table} WHERE ${column} IN {ids} ORDER BY ${column}, id`,
      "owner_id",
    );
    this.addStmt = new TwoWayStatement(
      db,
      `INSERT OR IGNORE INTO ${table} (${column}, account_id, title) VALUES ($owner_id, $account_id, $title)`,
    );
    this.removeStmt = new TwoWayStatement(db, `DELETE FROM ${table} WHERE ${column} = $owner_id AND title = $title`);
  }

  of(ids: readonly number[]): Map<number, string[]> {
    return titles(this.list.group(ids));
  }

  *readOf(ids: readonly number[]): Reads<Map<number, string[]>> {
    return titles(yield* this.list.readGroup(ids));
  }

  *addSteps(ownerId: number, accountId: number, title: string): Reads<void> {
    yield this.addStmt.write({ owner_id: ownerId, account_id: accountId, title });
  }

  *removeSteps(ownerId: number, title: string): Reads<void> {
    yield this.removeStmt.write({ owner_id: ownerId, title });
  }
}

export class LabelsRepo {
  private readonly sets: Record<Target, LabelSet>;

  constructor(db: Database) {
    this.sets = {
      conversation: new LabelSet(db, "conversation_labels", "conversation_id"),
      contact: new LabelSet(db, "contact_labels", "contact_id"),
    };
  }

  /** Titles per owner id, in the order they were added. */
  readOf(target: Target, ids: readonly number[]): Reads<Map<number, string[]>> {
    return this.sets[target].readOf(ids);
  }

  titles(target: Target, id: number): string[] {
    return this.sets[target].of([id]).get(id) ?? [];
  }

  *readTitles(target: Target, id: number): Reads<string[]> {
    return (yield* nested(this.sets[target].readOf([id]))).get(id) ?? [];
  }

  /** Replaces the owner's labels; returns the titles added and removed (for activity messages). */
  replace(
    target: Target,
    ownerId: number,
    accountId: number,
    titles: readonly string[],
  ): { added: string[]; removed: string[] } {
    return readNow(this.replaceSteps(target, ownerId, accountId, titles));
  }

  *replaceSteps(
    target: Target,
    ownerId: number,
    accountId: number,
    titles: readonly string[],
  ): Reads<{ added: string[]; removed: string[] }> {
    const set = this.sets[target];
    const current = yield* this.readTitles(target, ownerId);
    const added = titles.filter((t) => !current.includes(t));
    const removed = current.filter((t) => !titles.includes(t));
    for (const t of removed) yield* set.removeSteps(ownerId, t);
    for (const t of added) yield* set.addSteps(ownerId, accountId, t);
    return { added, removed };
  }
}

function titles(rows: Map<number, LabelRow[]>): Map<number, string[]> {
  return new Map([...rows].map(([id, list]) => [id, list.map((r) => r.title)]));
}
