import type { Database, Statement } from "bun:sqlite";
import { type Reads, TwoWayStatement } from "./reads.ts";

export type TokenOwnerType = "user" | "platform_app";

export interface TokenOwner {
  owner_type: TokenOwnerType;
  owner_id: number;
}

type NewToken = { token_hash: string; owner_type: TokenOwnerType; owner_id: number; now: number };

export class TokensRepo {
  private readonly insertStmt: TwoWayStatement;
  private readonly ownerStmt: Statement;
  private readonly deleteForOwnerStmt: TwoWayStatement;

  constructor(db: Database) {
    this.insertStmt = new TwoWayStatement(
      db,
      "INSERT INTO access_tokens (token_hash, owner_type, owner_id, created_at) VALUES ($token_hash, $owner_type, $owner_id, $now)",
    );
    this.ownerStmt = db.prepare("SELECT owner_type, owner_id FROM access_tokens WHERE token_hash = $token_hash");
    this.deleteForOwnerStmt = new TwoWayStatement(
      db,
      "DELETE FROM access_tokens WHERE owner_type = $owner_type AND owner_id = $owner_id",
    );
  }

  *insertSteps(t: NewToken): Reads<void> {
    yield this.insertStmt.write(t);
  }

  ownerOf(tokenHash: string): TokenOwner | null {
    return (this.ownerStmt.get({ token_hash: tokenHash }) as TokenOwner | null) ?? null;
  }

  *revokeAllSteps(ownerType: TokenOwnerType, ownerId: number): Reads<void> {
    yield this.deleteForOwnerStmt.write({ owner_type: ownerType, owner_id: ownerId });
  }
}
