// Builders for the records most tests need, going through the real services' awaited public
// methods, as a request would: each builder answers with a promise.
import type { InboxRow } from "../../src/db/inboxes.repo.ts";
import type { TeamRow } from "../../src/db/teams.repo.ts";
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
export async function makeAccount(h: Harness, name = "Acme"): Promise<AccountFixture> {
  const r = await h.deps.services.accounts.bootstrap({
    account: name,
    name: "Admin",
    email: `admin-${unique()}@example.com`,
  });
  return { accountId: r.account_id, adminId: r.user_id, adminToken: r.api_access_token };
}

/** A user who is a member of the account with the given role, with a token. */
export async function makeMember(
  h: Harness,
  accountId: number,
  role: Role = "agent",
  name = "Agent",
): Promise<UserFixture> {
  const email = `${role}-${unique()}@example.com`;
  const s = h.deps.services.accounts;
  const userId = await h.deps.writeTx(() => s.findOrCreateUser(name, email, Math.floor(h.clock.nowMs() / 1000)));
  await s.addMember(accountId, userId, role);
  return { userId, token: await s.issueToken(userId), email };
}

/** The administrator's principal in the account, for calling services directly. */
function adminOf(h: Harness, a: AccountFixture) {
  return h.deps.services.auth.account(a.adminToken, String(a.accountId));
}

/** An inbox created through the service (API channel unless `input` says otherwise). */
export async function makeInbox(h: Harness, a: AccountFixture, input: Record<string, unknown> = {}): Promise<InboxRow> {
  return h.deps.services.inboxes.create(adminOf(h, a), { name: "Support", channel: { type: "api" }, ...input });
}

/** Makes the users members of the inbox (they must be members of the account). */
export async function addInboxMember(
  h: Harness,
  a: AccountFixture,
  inboxId: number,
  ...userIds: number[]
): Promise<void> {
  await h.deps.services.inboxMembers.add(adminOf(h, a), { inbox_id: inboxId, user_ids: userIds });
}

export async function makeTeam(
  h: Harness,
  a: AccountFixture,
  name = "sales",
  input: Record<string, unknown> = {},
): Promise<TeamRow> {
  return h.deps.services.teams.create(adminOf(h, a), { name, ...input });
}

export async function addTeamMember(
  h: Harness,
  a: AccountFixture,
  teamId: number,
  ...userIds: number[]
): Promise<void> {
  await h.deps.services.teams.addMembers(adminOf(h, a), teamId, userIds);
}
