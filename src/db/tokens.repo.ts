import type { Database, Statement } from "bun:sqlite";

export type TokenOwnerType = "user" | "platform_app";

export interface TokenOwner {
  owner_type: TokenOwnerType;
  owner_id: number;
}

export class TokensRepo {
  private readonly insertStmt: Statement;
  private readonly ownerStmt: Statement;
  private readonly deleteForOwnerStmt: Statement;

  constructor(db: Database) {
    this.insertStmt = db.prepare(
      "INSERT INTO access_tokens (token_hash, owner_type, owner_id, created_at) VALUES ($token_hash, $owner_type, $owner_id, $now)",
    );
    this.ownerStmt = db.prepare("SELECT owner_type, owner_id FROM access_tokens WHERE token_hash = $token_hash");
    this.deleteForOwnerStmt = db.prepare(
      "DELETE FROM access_tokens WHERE owner_type = $owner_type AND owner_id = $owner_id",
    );
  }

  insert(t: { token_hash: string; owner_type: TokenOwnerType; owner_id: number; now: number }): void {
    this.insertStmt.run(t);
  }

  ownerOf(tokenHash: string): TokenOwner | null {
    return (this.ownerStmt.get({ token_hash: tokenHash }) as TokenOwner | null) ?? null;
  }

  revokeAll(ownerType: TokenOwnerType, ownerId: number): void {
    this.deleteForOwnerStmt.run({ owner_type: ownerType, owner_id: ownerId });
  }
}
