// The account's label records (`labels`), and the re-tagging a rename or delete of one does on the
// free-form titles conversations and contacts carry (conversation_labels, contact_labels).
import type { Database, Statement } from "bun:sqlite";
import { type Reads, TwoWayStatement } from "./reads.ts";

export interface LabelRow {
  id: number;
  account_id: number;
  title: string;
  description: string | null;
  color: string;
  show_on_sidebar: number;
  created_at: number;
  updated_at: number;
}

export type LabelFields = Pick<LabelRow, "title" | "description" | "color" | "show_on_sidebar">;

type TagTable = "conversation_labels" | "contact_labels";

/** Re-tagging statements for one tag table. Titles match case-insensitively: tags are typed free-form. */
class Retagger {
  private readonly ownersStmt: Statement;
  private readonly renameStmt: Statement;
  private readonly dropStmt: Statement;

  constructor(db: Database, table: TagTable, owner: string) {
    this.ownersStmt = db.prepare(
      `SELECT DISTINCT ${owner} AS id FROM ${table} WHERE account_id = $account_id AND lower(title) = $title ORDER BY ${owner}`,
    );
    // An owner that already carries the new title keeps its old one here; the delete below drops it.
    this.renameStmt = db.prepare(
      `UPDATE ${table} SET title = $to WHERE account_id = $account_id AND lower(title) = $title
         AND NOT EXISTS (SELECT 1 FROM ${table} taken WHERE taken.${owner} = ${table}.${owner} AND taken.id <> ${table}.id AND taken.title = $to)`,
    );
    this.dropStmt = db.prepare(`DELETE FROM ${table} WHERE account_id = $account_id AND lower(title) = $title`);
  }

  /** Owner ids carrying the title. */
  owners(accountId: number, title: string): number[] {
    return (this.ownersStmt.all({ account_id: accountId, title }) as { id: number }[]).map((r) => r.id);
  }

  /** Renames the title in place (each owner keeps its labels' order), or removes it when `to` is null. */
  retag(accountId: number, title: string, to: string | null): void {
    if (to !== null) this.renameStmt.run({ account_id: accountId, title, to });
    this.dropStmt.run({ account_id: accountId, title });
  }
}

export class AccountLabelsRepo {
  private readonly insertStmt: Statement;
  private readonly updateStmt: Statement;
  private readonly deleteStmt: Statement;
  private readonly byIdStmt: Statement;
  private readonly byTitleStmt: TwoWayStatement;
  private readonly listStmt: TwoWayStatement;
  readonly conversations: Retagger;
  readonly contacts: Retagger;

  constructor(db: Database) {
    this.insertStmt = db.prepare(
      `INSERT INTO labels (account_id, title, description, color, show_on_sidebar, created_at, updated_at)
       VALUES ($account_id, $title, $description, $color, $show_on_sidebar, $now, $now)`,
    );
    this.updateStmt = db.prepare(
      `UPDATE labels SET title = $title, description = $description, color = $color, show_on_sidebar = $show_on_sidebar, updated_at = $now
       WHERE account_id = $account_id AND id = $id`,
    );
    this.deleteStmt = db.prepare("DELETE FROM labels WHERE account_id = $account_id AND id = $id");
    this.byIdStmt = db.prepare("SELECT * FROM labels WHERE account_id = $account_id AND id = $id");
    this.byTitleStmt = new TwoWayStatement(
      db,
      "SELECT * FROM labels WHERE account_id = $account_id AND title = $title",
    );
    this.listStmt = new TwoWayStatement(db, "SELECT * FROM labels WHERE account_id = $account_id ORDER BY title");
    this.conversations = new Retagger(db, "conversation_labels", "conversation_id");
    this.contacts = new Retagger(db, "contact_labels", "contact_id");
  }

  insert(accountId: number, f: LabelFields, now: number): number {
    return Number(this.insertStmt.run({ account_id: accountId, ...f, now }).lastInsertRowid);
  }

  update(accountId: number, id: number, f: LabelFields, now: number): void {
    this.updateStmt.run({ account_id: accountId, id, ...f, now });
  }

  delete(accountId: number, id: number): void {
    this.deleteStmt.run({ account_id: accountId, id });
  }

  byId(accountId: number, id: number): LabelRow | null {
    return (this.byIdStmt.get({ account_id: accountId, id }) as LabelRow | null) ?? null;
  }

  /** By lower-case title. */
  byTitle(accountId: number, title: string): LabelRow | null {
    return (this.byTitleStmt.statement.get({ account_id: accountId, title }) as LabelRow | null) ?? null;
  }

  *readByTitle(accountId: number, title: string): Reads<LabelRow | null> {
    return (yield this.byTitleStmt.get({ account_id: accountId, title })) as LabelRow | null;
  }

  list(accountId: number): LabelRow[] {
    return this.listStmt.statement.all({ account_id: accountId }) as LabelRow[];
  }

  *readList(accountId: number): Reads<LabelRow[]> {
    return (yield this.listStmt.all({ account_id: accountId })) as LabelRow[];
  }
}
