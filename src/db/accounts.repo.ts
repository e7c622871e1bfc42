import type { Database } from "bun:sqlite";
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
  private readonly insertStmt: TwoWayStatement;
  private readonly byIdStmt: TwoWayStatement;
  private readonly updateStmt: TwoWayStatement;

  constructor(db: Database) {
    this.insertStmt = new TwoWayStatement(
      db,
      "INSERT INTO accounts (name, locale, created_at, updated_at) VALUES ($name, $locale, $now, $now)",
    );
    this.byIdStmt = new TwoWayStatement(db, "SELECT * FROM accounts WHERE id = $id");
    this.updateStmt = new TwoWayStatement(
      db,
      "UPDATE accounts SET name = $name, locale = $locale, custom_attributes = $custom_attributes, updated_at = $now WHERE id = $id",
    );
  }

  *insertSteps(a: { name: string; locale: string; now: number }): Reads<number> {
    return yield* this.insertStmt.insertSteps(a);
  }

  byId(id: number): AccountRow | null {
    return (this.byIdStmt.statement.get({ id }) as AccountRow | null) ?? null;
  }

  *readById(id: number): Reads<AccountRow | null> {
    return (yield this.byIdStmt.get({ id })) as AccountRow | null;
  }

  *updateSteps(id: number, a: { name: string; locale: string; custom_attributes: string; now: number }): Reads<void> {
    yield this.updateStmt.write({ id, ...a });
  }
}
