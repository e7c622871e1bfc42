// Builders for the records most tests need, going through the real services.
import type { Role } from "../../src/db/users.repo.ts";
import type { Harness } from "./harness.ts";

let seq = 0;
const unique = () => `${Date.now().toString(36)}${(++seq).toString(36)}`;

export interface AccountFixture {
  accountId: number;
  adminId: number;
  adminToken: string;
}

export interface UserFixture {
  userId: number;
  token: string;
  email: string;
}

/** A new account with its administrator and the administrator's token. */
export function makeAccount(h: Harness, name = "Acme"): AccountFixture {
  const r = h.deps.services.accounts.bootstrap({ account: name, name: "Admin", email: `admin-${unique()}@example.com` });
  return { accountId: r.account_id, adminId: r.user_id, adminToken: r.api_access_token };
}

/** A user who is a member of the account with the given role, with a token. */
export function makeMember(h: Harness, accountId: number, role: Role = "agent", name = "Agent"): UserFixture {
  const email = `${role}-${unique()}@example.com`;
  const s = h.deps.services.accounts;
  const userId = h.deps.writeTx(() => s.findOrCreateUser(name, email, Math.floor(h.clock.nowMs() / 1000)));
  s.addMember(accountId, userId, role);
  return { userId, token: s.issueToken(userId), email };
}
