// Taking back what a user's credentials opened. Both actions also give the user a new realtime
// pubsub_token, so sockets opened with the old token, the revoked API token or an ended session
// are closed at the hub's next credential check (every ping).
import type { SessionsRepo } from "../db/sessions.repo.ts";
import type { TokensRepo } from "../db/tokens.repo.ts";
import type { WriteTx } from "../db/tx.ts";
import type { UsersRepo } from "../db/users.repo.ts";
import { unixSeconds, type Clock } from "../lib/clock.ts";
import { newAccessToken, randomToken, sha256Hex } from "../lib/tokens.ts";

export interface CredentialsDeps {
  users: UsersRepo;
  tokens: TokensRepo;
  sessions: SessionsRepo;
  writeTx: WriteTx;
  clock: Clock;
}

export class CredentialsService {
  constructor(private readonly d: CredentialsDeps) {}

  /**
   * Chatwoot's POST /api/v1/profile/reset_access_token: every API access token of the user stops
   * working and one new token is issued (shown once). Browser sessions stay.
   */
  resetAccessToken(userId: number): Promise<string> {
    const { tokens, users, clock } = this.d;
    return this.d.writeTx.steps(function* () {
      const now = unixSeconds(clock);
      yield* tokens.revokeAllSteps("user", userId);
      const token = newAccessToken();
      yield* tokens.insertSteps({ token_hash: sha256Hex(token), owner_type: "user", owner_id: userId, now });
      yield* users.setPubsubTokenSteps(userId, randomToken(24), now);
      return token;
    });
  }

  /** Ends every browser session of the user (ours: Chatwoot has no such action); returns how many. */
  signOutEverywhere(userId: number): Promise<number> {
    const { users, sessions, clock } = this.d;
    return this.d.writeTx.steps(function* () {
      yield* users.setPubsubTokenSteps(userId, randomToken(24), unixSeconds(clock));
      return yield* sessions.deleteForUserSteps(userId);
    });
  }
}
