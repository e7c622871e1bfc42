import type { Database, Statement } from "bun:sqlite";
import { type Reads, TwoWayStatement } from "./reads.ts";

export interface AccountRow {
  id: number;
  name: string;
  locale: string;
  status: "active" | "suspended";
  custom_attributes: string;
  created_at: number;
  updated_at: number;
}

export class AccountsRepo {
  private readonly insertStmt: Statement;
  private readonly byIdStmt: TwoWayStatement;
  private readonly updateStmt: Statement;

  constructor(db: Database) {
    this.insertStmt = db.prepare(
      "INSERT INTO accounts (name, locale, created_at, updated_at) VALUES ($name, $locale, $now, $now)",
    );
    this.byIdStmt = new TwoWayStatement(db, "SELECT * FROM accounts WHERE id = $id");
    this.updateStmt = db.prepare(
      "UPDATE accounts SET name = $name, locale = $locale, custom_attributes = $custom_attributes, updated_at = $now WHERE id = $id",
    );
  }

  insert(a: { name: string; locale: string; now: number }): number {
    return Number(this.insertStmt.run(a).lastInsertRowid);
  }

  byId(id: number): AccountRow | null {
    return (this.byIdStmt.statement.get({ id }) as AccountRow | null) ?? null;
  }

  *readById(id: number): Reads<AccountRow | null> {
    return (yield this.byIdStmt.get({ id })) as AccountRow | null;
  }

  update(id: number, a: { name: string; locale: string; custom_attributes: string; now: number }): void {
    this.updateStmt.run({ id, ...a });
  }
}
