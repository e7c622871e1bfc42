import type { Database } from "bun:sqlite";
import { Batch } from "./batch.ts";
import { type Reads, TwoWayStatement } from "./reads.ts";

export interface ContactRow {
  id: number;
  account_id: number;
  name: string;
  email: string | null;
  phone_number: string | null;
  identifier: string | null;
  company_name: string | null;
  blocked: number;
  avatar_url: string | null;
  additional_attributes: string;
  custom_attributes: string;
  last_activity_at: number | null;
  created_at: number;
  updated_at: number;
}

/** The columns a create or update writes (everything but ids and timestamps). */
export type ContactFields = Pick<
  ContactRow,
  | "name"
  | "email"
  | "phone_number"
  | "identifier"
  | "company_name"
  | "blocked"
  | "avatar_url"
  | "additional_attributes"
  | "custom_attributes"
>;

/** The columns no two contacts of an account may share. */
export type UniqueField = "email" | "phone_number" | "identifier";

export class ContactsRepo {
  private readonly insertStmt: TwoWayStatement;
  private readonly updateStmt: TwoWayStatement;
  private readonly byIdStmt: TwoWayStatement;
  private readonly byIdsBatch: Batch<ContactRow>;
  private readonly deleteStmt: TwoWayStatement;
  private readonly touchStmt: TwoWayStatement;
  private readonly holderStmts: Record<UniqueField, TwoWayStatement>;

  constructor(db: Database) {
    this.insertStmt = new TwoWayStatement(
      db,
      `INSERT INTO contacts (account_id, name, email, phone_number, identifier, company_name, blocked, avatar_url,
         additional_attributes, custom_attributes, last_activity_at, created_at, updated_at)
       VALUES ($account_id, $name, $email, $phone_number, $identifier, $company_name, $blocked, $avatar_url,
         $additional_attributes, $custom_attributes, NULL, $now, $now)`,
    );
    this.updateStmt = new TwoWayStatement(
      db,
      `UPDATE contacts SET name = $name, email = $email, phone_number = $phone_number, identifier = $identifier,
         company_name = $company_name, blocked = $blocked, avatar_url = $avatar_url,
         additional_attributes = $additional_attributes, custom_attributes = $custom_attributes, updated_at = $now
       WHERE id = $id`,
    );
    this.byIdStmt = new TwoWayStatement(db, "SELECT * FROM contacts WHERE account_id = $account_id AND id = $id");
    this.byIdsBatch = new Batch<ContactRow>(db, "SELECT * FROM contacts WHERE id IN {ids}", "id");
    this.deleteStmt = new TwoWayStatement(db, "DELETE FROM contacts WHERE id = $id");
    this.touchStmt = new TwoWayStatement(
      db,
      "UPDATE contacts SET last_activity_at = $at, updated_at = $at WHERE id = $id",
    );
    const holder = (column: UniqueField) =>
      new TwoWayStatement(db, `SELECT id FROM contacts WHERE account_id = $account_id AND ${column} = $value`);
    this.holderStmts = {
      email: holder("email"),
      phone_number: holder("phone_number"),
      identifier: holder("identifier"),
    };
  }

  *insertSteps(accountId: number, f: ContactFields, now: number): Reads<number> {
    return yield* this.insertStmt.insertSteps({ account_id: accountId, ...f, now });
  }

  *updateSteps(id: number, f: ContactFields, now: number): Reads<void> {
    yield this.updateStmt.write({ id, ...f, now });
  }

  byId(accountId: number, id: number): ContactRow | null {
    return (this.byIdStmt.statement.get({ account_id: accountId, id }) as ContactRow | null) ?? null;
  }

  *readById(accountId: number, id: number): Reads<ContactRow | null> {
    return (yield this.byIdStmt.get({ account_id: accountId, id })) as ContactRow | null;
  }

  /** Batch load by ids (callers have already scoped the ids to one account). */
  byIds(ids: readonly number[]): Map<number, ContactRow> {
    return this.byIdsBatch.map(ids);
  }

  readByIds(ids: readonly number[]): Reads<Map<number, ContactRow>> {
    return this.byIdsBatch.readMap(ids);
  }

  *deleteSteps(id: number): Reads<void> {
    yield this.deleteStmt.write({ id });
  }

  /** Records activity (an incoming message); returns nothing, the caller re-reads for the event. */
  *touchActivitySteps(id: number, at: number): Reads<void> {
    yield this.touchStmt.write({ id, at });
  }

  /** The id of the contact in this account holding a unique value, if any. */
  *readHolderOf(accountId: number, field: UniqueField, value: string): Reads<number | null> {
    const row = yield this.holderStmts[field].get({ account_id: accountId, value });
    return (row as { id: number } | null)?.id ?? null;
  }
}
