import type { Database } from "bun:sqlite";
import { type Reads, TwoWayStatement } from "./reads.ts";

export interface IdempotencyRow {
  account_id: number;
  key: string;
  conversation_id: number;
  message_id: number;
  created_at: number;
}

export class IdempotencyRepo {
  private readonly getStmt: TwoWayStatement;
  private readonly putStmt: TwoWayStatement;
  private readonly pruneStmt: TwoWayStatement;

  constructor(db: Database) {
    this.getStmt = new TwoWayStatement(
      db,
      "SELECT * FROM idempotency_keys WHERE account_id = $account_id AND key = $key",
    );
    this.putStmt = new TwoWayStatement(
      db,
      `INSERT INTO idempotency_keys (account_id, key, conversation_id, message_id, created_at)
       VALUES ($account_id, $key, $conversation_id, $message_id, $created_at)
       ON CONFLICT (account_id, key) DO UPDATE SET conversation_id = excluded.conversation_id,
         message_id = excluded.message_id, created_at = excluded.created_at`,
    );
    this.pruneStmt = new TwoWayStatement(db, "DELETE FROM idempotency_keys WHERE created_at < $before");
  }

  *readKey(accountId: number, key: string): Reads<IdempotencyRow | null> {
    return (yield this.getStmt.get({ account_id: accountId, key })) as IdempotencyRow | null;
  }

  *putSteps(row: IdempotencyRow): Reads<void> {
    yield this.putStmt.write(row as unknown as Record<string, string | number>);
  }

  *pruneSteps(before: number): Reads<number> {
    return yield* this.pruneStmt.changesSteps({ before });
  }
}
