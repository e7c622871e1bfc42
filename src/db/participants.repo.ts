// Conversation participants (migration 017): agents following a conversation.
import type { Database } from "bun:sqlite";
import { type Reads, TwoWayStatement } from "./reads.ts";

export class ParticipantsRepo {
  private readonly idsStmt: TwoWayStatement;
  private readonly addStmt: TwoWayStatement;
  private readonly removeStmt: TwoWayStatement;

  constructor(db: Database) {
    this.idsStmt = new TwoWayStatement(
      db,
      "SELECT user_id FROM conversation_participants WHERE conversation_id = $c ORDER BY id",
    );
    this.addStmt = new TwoWayStatement(
      db,
      "INSERT OR IGNORE INTO conversation_participants (account_id, conversation_id, user_id, created_at) VALUES ($account_id, $c, $user_id, $now)",
    );
    this.removeStmt = new TwoWayStatement(
      db,
      "DELETE FROM conversation_participants WHERE conversation_id = $c AND user_id = $user_id",
    );
  }

  userIds(conversationId: number): number[] {
    return (this.idsStmt.statement.all({ c: conversationId }) as { user_id: number }[]).map((r) => r.user_id);
  }

  *readUserIds(conversationId: number): Reads<number[]> {
    return ((yield this.idsStmt.all({ c: conversationId })) as { user_id: number }[]).map((r) => r.user_id);
  }

  *addSteps(accountId: number, conversationId: number, userId: number, now: number): Reads<void> {
    yield this.addStmt.write({ account_id: accountId, c: conversationId, user_id: userId, now });
  }

  *removeSteps(conversationId: number, userId: number): Reads<void> {
    yield this.removeStmt.write({ c: conversationId, user_id: userId });
  }
}
