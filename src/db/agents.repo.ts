// Users as agents of one account: a user row joined with its membership, for the agent lists of the
// account, of an inbox and of a team. Every query goes through account_users of that account, so a
// user who is not (or no longer) a member of it never appears.
import type { Database } from "bun:sqlite";
import { type Reads, TwoWayStatement } from "./reads.ts";
import type { MembershipRow, Role, UserRow } from "./users.repo.ts";

export interface AgentRecord {
  user: UserRow;
  membership: MembershipRow;
}

const COLUMNS = `u.id, u.name, u.display_name, u.email, u.password_hash, u.pubsub_token, u.confirmed, u.created_at, u.updated_at,
  au.account_id, au.role, au.availability, au.auto_offline, au.active_at, au.created_at AS membership_created_at`;
const ORDER = "ORDER BY u.name COLLATE NOCASE, u.id";

/** A membership's settings, as an administrator or the member changes them. */
type MembershipSettings = {
  account_id: number;
  user_id: number;
  role: Role;
  availability: string;
  auto_offline: number;
};

type JoinedRow = UserRow & Omit<MembershipRow, "user_id" | "created_at"> & { membership_created_at: number };

function split(r: JoinedRow): AgentRecord {
  const { account_id, role, availability, auto_offline, active_at, membership_created_at, ...user } = r;
  return {
    user,
    membership: {
      account_id,
      user_id: user.id,
      role,
      availability,
      auto_offline,
      active_at,
      created_at: membership_created_at,
    },
  };
}

export class AgentsRepo {
  private readonly listStmt: TwoWayStatement;
  private readonly byIdStmt: TwoWayStatement;
  private readonly inInboxStmt: TwoWayStatement;
  private readonly inTeamStmt: TwoWayStatement;
  private readonly updateMembershipStmt: TwoWayStatement;
  private readonly renameStmt: TwoWayStatement;
  private readonly administratorsStmt: TwoWayStatement;
  private readonly removeInboxMembershipsStmt: TwoWayStatement;
  private readonly removeTeamMembershipsStmt: TwoWayStatement;
  private readonly removeMembershipStmt: TwoWayStatement;

  constructor(db: Database) {
    const from = "FROM account_users au JOIN users u ON u.id = au.user_id";
    this.listStmt = new TwoWayStatement(db, `SELECT ${COLUMNS} ${from} WHERE au.account_id = $account_id ${ORDER}`);
    this.byIdStmt = new TwoWayStatement(
      db,
      `SELECT ${COLUMNS} ${from} WHERE au.account_id = $account_id AND au.user_id = $user_id`,
    );
    this.inInboxStmt = new TwoWayStatement(
      db,
      `SELECT ${COLUMNS} ${from} JOIN inbox_members m ON m.user_id = au.user_id AND m.inbox_id = $inbox_id
       WHERE au.account_id = $account_id ${ORDER}`,
    );
    this.inTeamStmt = new TwoWayStatement(
      db,
      `SELECT ${COLUMNS} ${from} JOIN team_members m ON m.user_id = au.user_id AND m.team_id = $team_id
       WHERE au.account_id = $account_id ${ORDER}`,
    );
    this.updateMembershipStmt = new TwoWayStatement(
      db,
      `UPDATE account_users SET role = $role, availability = $availability, auto_offline = $auto_offline
       WHERE account_id = $account_id AND user_id = $user_id`,
    );
    this.renameStmt = new TwoWayStatement(db, "UPDATE users SET name = $name, updated_at = $now WHERE id = $id");
    this.administratorsStmt = new TwoWayStatement(
      db,
      "SELECT COUNT(*) AS n FROM account_users WHERE account_id = $account_id AND role = 'administrator'",
    );
    this.removeInboxMembershipsStmt = new TwoWayStatement(
      db,
      "DELETE FROM inbox_members WHERE user_id = $user_id AND inbox_id IN (SELECT id FROM inboxes WHERE account_id = $account_id)",
    );
    this.removeTeamMembershipsStmt = new TwoWayStatement(
      db,
      "DELETE FROM team_members WHERE user_id = $user_id AND team_id IN (SELECT id FROM teams WHERE account_id = $account_id)",
    );
    this.removeMembershipStmt = new TwoWayStatement(
      db,
      "DELETE FROM account_users WHERE account_id = $account_id AND user_id = $user_id",
    );
  }

  /** Every member of the account (agents and administrators), by name. */
  list(accountId: number): AgentRecord[] {
    return (this.listStmt.statement.all({ account_id: accountId }) as JoinedRow[]).map(split);
  }

  *readList(accountId: number): Reads<AgentRecord[]> {
    return ((yield this.listStmt.all({ account_id: accountId })) as JoinedRow[]).map(split);
  }

  *readById(accountId: number, userId: number): Reads<AgentRecord | null> {
    const row = (yield this.byIdStmt.get({ account_id: accountId, user_id: userId })) as JoinedRow | null;
    return row ? split(row) : null;
  }

  *readInInbox(accountId: number, inboxId: number): Reads<AgentRecord[]> {
    return ((yield this.inInboxStmt.all({ account_id: accountId, inbox_id: inboxId })) as JoinedRow[]).map(split);
  }

  *readInTeam(accountId: number, teamId: number): Reads<AgentRecord[]> {
    return ((yield this.inTeamStmt.all({ account_id: accountId, team_id: teamId })) as JoinedRow[]).map(split);
  }

  /** In place: the profile's own update (ProfileService) still runs in place. */
  updateMembership(m: MembershipSettings): void {
    this.updateMembershipStmt.statement.run(m);
  }

  *updateMembershipSteps(m: MembershipSettings): Reads<void> {
    yield this.updateMembershipStmt.write(m);
  }

  *renameSteps(userId: number, name: string, now: number): Reads<void> {
    yield this.renameStmt.write({ id: userId, name, now });
  }

  *readAdministratorCount(accountId: number): Reads<number> {
    return ((yield this.administratorsStmt.get({ account_id: accountId })) as { n: number }).n;
  }

  /**
   * Takes the user out of the account: its membership and its inbox and team memberships there. In
   * place for the Platform API's removal; the account API's runs removeFromAccountSteps.
   */
  removeFromAccount(accountId: number, userId: number): void {
    const ids = { account_id: accountId, user_id: userId };
    this.removeInboxMembershipsStmt.statement.run(ids);
    this.removeTeamMembershipsStmt.statement.run(ids);
    this.removeMembershipStmt.statement.run(ids);
  }

  *removeFromAccountSteps(accountId: number, userId: number): Reads<void> {
    const ids = { account_id: accountId, user_id: userId };
    yield this.removeInboxMembershipsStmt.write(ids);
    yield this.removeTeamMembershipsStmt.write(ids);
    yield this.removeMembershipStmt.write(ids);
  }
}
