// Custom attribute definitions (migration 017).
import type { Database } from "bun:sqlite";
import { type Reads, TwoWayStatement } from "./reads.ts";

export type AttributeModel = "conversation_attribute" | "contact_attribute";

export interface AttributeDefinitionRow {
  id: number;
  account_id: number;
  attribute_model: AttributeModel;
  attribute_key: string;
  attribute_display_name: string;
  attribute_display_type: string;
  attribute_description: string | null;
  /** JSON array of the allowed values (list type). */
  attribute_values: string;
  regex_pattern: string | null;
  regex_cue: string | null;
  default_value: string | null;
  position: number;
  created_at: number;
  updated_at: number;
}

export type AttributeDefinitionFields = Omit<
  AttributeDefinitionRow,
  "id" | "account_id" | "position" | "created_at" | "updated_at"
>;

export class CustomAttributeDefinitionsRepo {
  private readonly listStmt: TwoWayStatement;
  private readonly listAllStmt: TwoWayStatement;
  private readonly byIdStmt: TwoWayStatement;
  private readonly byKeyStmt: TwoWayStatement;
  private readonly insertStmt: TwoWayStatement;
  private readonly updateStmt: TwoWayStatement;
  private readonly deleteStmt: TwoWayStatement;
  private readonly nextPositionStmt: TwoWayStatement;

  constructor(db: Database) {
    this.listStmt = new TwoWayStatement(
      db,
      "SELECT * FROM custom_attribute_definitions WHERE account_id = $account_id AND attribute_model = $model ORDER BY position, id",
    );
    this.listAllStmt = new TwoWayStatement(
      db,
      "SELECT * FROM custom_attribute_definitions WHERE account_id = $account_id ORDER BY attribute_model, position, id",
    );
    this.byIdStmt = new TwoWayStatement(
      db,
      "SELECT * FROM custom_attribute_definitions WHERE account_id = $account_id AND id = $id",
    );
    this.byKeyStmt = new TwoWayStatement(
      db,
      "SELECT * FROM custom_attribute_definitions WHERE account_id = $account_id AND attribute_model = $model AND attribute_key = $key",
    );
    this.insertStmt = new TwoWayStatement(
      db,
      `INSERT INTO custom_attribute_definitions (account_id, attribute_model, attribute_key, attribute_display_name, attribute_display_type,
         attribute_description, attribute_values, regex_pattern, regex_cue, default_value, position, created_at, updated_at)
       VALUES ($account_id, $attribute_model, $attribute_key, $attribute_display_name, $attribute_display_type,
         $attribute_description, $attribute_values, $regex_pattern, $regex_cue, $default_value, $position, $now, $now)`,
    );
    this.updateStmt = new TwoWayStatement(
      db,
      `UPDATE custom_attribute_definitions SET attribute_model = $attribute_model, attribute_key = $attribute_key,
         attribute_display_name = $attribute_display_name, attribute_display_type = $attribute_display_type,
         attribute_description = $attribute_description, attribute_values = $attribute_values, regex_pattern = $regex_pattern,
         regex_cue = $regex_cue, default_value = $default_value, updated_at = $now WHERE id = $id`,
    );
    this.deleteStmt = new TwoWayStatement(db, "DELETE FROM custom_attribute_definitions WHERE id = $id");
    this.nextPositionStmt = new TwoWayStatement(
      db,
      "SELECT COALESCE(MAX(position), 0) + 10 AS p FROM custom_attribute_definitions WHERE account_id = $account_id AND attribute_model = $model",
    );
  }

  *readList(accountId: number, model: AttributeModel | null): Reads<AttributeDefinitionRow[]> {
    const read = model
      ? this.listStmt.all({ account_id: accountId, model })
      : this.listAllStmt.all({ account_id: accountId });
    return (yield read) as AttributeDefinitionRow[];
  }

  *readById(accountId: number, id: number): Reads<AttributeDefinitionRow | null> {
    return (yield this.byIdStmt.get({ account_id: accountId, id })) as AttributeDefinitionRow | null;
  }

  *readByKey(accountId: number, model: AttributeModel, key: string): Reads<AttributeDefinitionRow | null> {
    return (yield this.byKeyStmt.get({ account_id: accountId, model, key })) as AttributeDefinitionRow | null;
  }

  *insertSteps(accountId: number, f: AttributeDefinitionFields, now: number): Reads<number> {
    const next = (yield this.nextPositionStmt.get({ account_id: accountId, model: f.attribute_model })) as {
      p: number;
    };
    return yield* this.insertStmt.insertSteps({ ...f, account_id: accountId, position: next.p, now });
  }

  *updateSteps(id: number, f: AttributeDefinitionFields, now: number): Reads<void> {
    yield this.updateStmt.write({ ...f, id, now });
  }

  *deleteSteps(id: number): Reads<void> {
    yield this.deleteStmt.write({ id });
  }
}
