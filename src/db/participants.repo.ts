// Conversation participants (migration 017): agents following a conversation.
import type { Database, Statement } from "bun:sqlite";

export class ParticipantsRepo {
  private readonly idsStmt: Statement;
  private readonly addStmt: Statement;
  private readonly removeStmt: Statement;

  constructor(db: Database) {
    this.idsStmt = db.prepare("SELECT user_id FROM conversation_participants WHERE conversation_id = $c ORDER BY id");
    this.addStmt = db.prepare(
      "INSERT OR IGNORE INTO conversation_participants (account_id, conversation_id, user_id, created_at) VALUES ($account_id, $c, $user_id, $now)",
    );
    this.removeStmt = db.prepare(
      "DELETE FROM conversation_participants WHERE conversation_id = $c AND user_id = $user_id",
    );
  }

  userIds(conversationId: number): number[] {
    return (this.idsStmt.all({ c: conversationId }) as { user_id: number }[]).map((r) => r.user_id);
  }

  add(accountId: number, conversationId: number, userId: number, now: number): void {
    this.addStmt.run({ account_id: accountId, c: conversationId, user_id: userId, now });
  }

  remove(conversationId: number, userId: number): void {
    this.removeStmt.run({ c: conversationId, user_id: userId });
  }
}
