// The account's label records (`labels`), and the re-tagging a rename or delete of one does on the
// free-form titles conversations and contacts carry (conversation_labels, contact_labels).
import type { Database } from "bun:sqlite";
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
  private readonly ownersStmt: TwoWayStatement;
  private readonly renameStmt: TwoWayStatement;
  private readonly dropStmt: TwoWayStatement;

  constructor(db: Database, table: TagTable, owner: string) {
    this.ownersStmt = new TwoWayStatement(
      db,
      `SELECT DISTINCT ${owner} AS id FROM ${table} WHERE account_id = $account_id AND lower(title) = $title ORDER BY ${owner}`,
    );
    // An owner that already carries the new title keeps its old one here; the delete below drops it.
    this.renameStmt = new TwoWayStatement(
      db,
      `UPDATE ${table} SET title = $to WHERE account_id = $account_id AND lower(title) = $title
         AND NOT EXISTS (SELECT 1 FROM ${table} taken WHERE taken.${owner} = ${table}.${owner} AND taken.id <> ${table}.id AND taken.title = $to)`,
    );
    this.dropStmt = new TwoWayStatement(
      db,
      `DELETE FROM ${table} WHERE account_id = $account_id AND lower(title) = $title`,
    );
  }

  /** Owner ids carrying the title. */
  *readOwners(accountId: number, title: string): Reads<number[]> {
    return ((yield this.ownersStmt.all({ account_id: accountId, title })) as { id: number }[]).map((r) => r.id);
  }

  /** Renames the title where it stands (each owner keeps its labels' order), or removes it when `to` is null. */
  *retagSteps(accountId: number, title: string, to: string | null): Reads<void> {
    if (to !== null) yield this.renameStmt.write({ account_id: accountId, title, to });
    yield this.dropStmt.write({ account_id: accountId, title });
  }
}

export class AccountLabelsRepo {
  private readonly insertStmt: TwoWayStatement;
  private readonly updateStmt: TwoWayStatement;
  private readonly deleteStmt: TwoWayStatement;
  private readonly byIdStmt: TwoWayStatement;
  private readonly byTitleStmt: TwoWayStatement;
  private readonly listStmt: TwoWayStatement;
  readonly conversations: Retagger;
  readonly contacts: Retagger;

  constructor(db: Database) {
    this.insertStmt = new TwoWayStatement(
      db,
      `INSERT INTO labels (account_id, title, description, color, show_on_sidebar, created_at, updated_at)
       VALUES ($account_id, $title, $description, $color, $show_on_sidebar, $now, $now)`,
    );
    this.updateStmt = new TwoWayStatement(
      db,
      `UPDATE labels SET title = $title, description = $description, color = $color, show_on_sidebar = $show_on_sidebar, updated_at = $now
       WHERE account_id = $account_id AND id = $id`,
    );
    this.deleteStmt = new TwoWayStatement(db, "DELETE FROM labels WHERE account_id = $account_id AND id = $id");
    this.byIdStmt = new TwoWayStatement(db, "SELECT * FROM labels WHERE account_id = $account_id AND id = $id");
    this.byTitleStmt = new TwoWayStatement(
      db,
      "SELECT * FROM labels WHERE account_id = $account_id AND title = $title",
    );
    this.listStmt = new TwoWayStatement(db, "SELECT * FROM labels WHERE account_id = $account_id ORDER BY title");
    this.conversations = new Retagger(db, "conversation_labels", "conversation_id");
    this.contacts = new Retagger(db, "contact_labels", "contact_id");
  }

  *insertSteps(accountId: number, f: LabelFields, now: number): Reads<number> {
    return yield* this.insertStmt.insertSteps({ account_id: accountId, ...f, now });
  }

  *updateSteps(accountId: number, id: number, f: LabelFields, now: number): Reads<void> {
    yield this.updateStmt.write({ account_id: accountId, id, ...f, now });
  }

  *deleteSteps(accountId: number, id: number): Reads<void> {
    yield this.deleteStmt.write({ account_id: accountId, id });
  }

  *readById(accountId: number, id: number): Reads<LabelRow | null> {
    return (yield this.byIdStmt.get({ account_id: accountId, id })) as LabelRow | null;
  }

  /** By lower-case title. */
  byTitle(accountId: number, title: string): LabelRow | null {
    return (this.byTitleStmt.statement.get({ account_id: accountId, title }) as LabelRow | null) ?? null;
  }

  *readByTitle(accountId: number, title: string): Reads<LabelRow | null> {
    return (yield this.byTitleStmt.get({ account_id: accountId, title })) as LabelRow | null;
  }

  *readList(accountId: number): Reads<LabelRow[]> {
    return (yield this.listStmt.all({ account_id: accountId })) as LabelRow[];
  }
}
