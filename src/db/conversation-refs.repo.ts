// Read-only lookups into the directory (inboxes, teams, members) that conversations need. The
// directory's own repos belong to its routes; these are the few questions conversations ask.
import type { Database } from "bun:sqlite";
import { Batch } from "./batch.ts";
import { type Reads, TwoWayStatement } from "./reads.ts";
import type { ChannelType } from "./channel-types.ts";
import type { MembershipRow, UserRow } from "./users.repo.ts";

export interface InboxRef {
  id: number;
  account_id: number;
  name: string;
  channel_type: ChannelType;
  channel_attributes: string;
  webhook_url: string | null;
  lock_to_single_conversation: number;
}

export interface TeamRef {
  id: number;
  account_id: number;
  name: string;
  description: string | null;
  allow_auto_assign: number;
}

/** A user with their membership of one account (null when they have left it). */
export interface MemberRef {
  user: UserRow;
  membership: MembershipRow | null;
}

const INBOX_COLUMNS =
  "id, account_id, name, channel_type, channel_attributes, webhook_url, lock_to_single_conversation";

export class ConversationRefsRepo {
  private readonly inboxStmt: TwoWayStatement;
  private readonly inboxesBatch: Batch<InboxRef>;
  private readonly isInboxMemberStmt: TwoWayStatement;
  private readonly memberInboxesStmt: TwoWayStatement;
  private readonly teamStmt: TwoWayStatement;
  private readonly teamsBatch: Batch<TeamRef>;
  private readonly isTeamMemberStmt: TwoWayStatement;
  private readonly users: Batch<UserRow>;
  private readonly memberships: Batch<MembershipRow>;
  private readonly teamsOfUserStmt: TwoWayStatement;
  private readonly accountStmt: TwoWayStatement;

  constructor(db: Database) {
    this.inboxStmt = new TwoWayStatement(
      db,
      `SELECT ${INBOX_COLUMNS} FROM inboxes WHERE account_id = $account_id AND id = $id`,
    );
    this.inboxesBatch = new Batch<InboxRef>(db, `SELECT ${INBOX_COLUMNS} FROM inboxes WHERE id IN {ids}`, "id");
    this.isInboxMemberStmt = new TwoWayStatement(
      db,
      "SELECT 1 AS ok FROM inbox_members WHERE inbox_id = $inbox_id AND user_id = $user_id",
    );
    this.memberInboxesStmt = new TwoWayStatement(
      db,
      "SELECT im.inbox_id FROM inbox_members im JOIN inboxes i ON i.id = im.inbox_id WHERE im.user_id = $user_id AND i.account_id = $account_id",
    );
    this.teamStmt = new TwoWayStatement(
      db,
      "SELECT id, account_id, name, description, allow_auto_assign FROM teams WHERE account_id = $account_id AND id = $id",
    );
    this.teamsBatch = new Batch<TeamRef>(
      db,
      "SELECT id, account_id, name, description, allow_auto_assign FROM teams WHERE id IN {ids}",
      "id",
    );
    this.isTeamMemberStmt = new TwoWayStatement(
      db,
      "SELECT 1 AS ok FROM team_members WHERE team_id = $team_id AND user_id = $user_id",
    );
    this.accountStmt = new TwoWayStatement(db, "SELECT id, name FROM accounts WHERE id = $id");
    this.teamsOfUserStmt = new TwoWayStatement(
      db,
      "SELECT team_id FROM team_members WHERE user_id = $user_id AND team_id IN (SELECT value FROM json_each($ids))",
    );
    // Two plain lookups merged in code: a LEFT JOIN here measured 30-50 µs against 1-2 µs for the pair.
    this.users = new Batch<UserRow>(db, "SELECT * FROM users WHERE id IN {ids}", "id");
    this.memberships = new Batch<MembershipRow>(
      db,
      "SELECT * FROM account_users WHERE account_id = $account_id AND user_id IN {ids}",
      "user_id",
    );
  }

  accountRef(id: number): { id: number; name: string } | null {
    return (this.accountStmt.statement.get({ id }) as { id: number; name: string } | null) ?? null;
  }

  *readAccountRef(id: number): Reads<{ id: number; name: string } | null> {
    return (yield this.accountStmt.get({ id })) as { id: number; name: string } | null;
  }

  inbox(accountId: number, id: number): InboxRef | null {
    return (this.inboxStmt.statement.get({ account_id: accountId, id }) as InboxRef | null) ?? null;
  }

  *readInbox(accountId: number, id: number): Reads<InboxRef | null> {
    return (yield this.inboxStmt.get({ account_id: accountId, id })) as InboxRef | null;
  }

  inboxes(ids: readonly number[]): Map<number, InboxRef> {
    return this.inboxesBatch.map(ids);
  }

  readInboxes(ids: readonly number[]): Reads<Map<number, InboxRef>> {
    return this.inboxesBatch.readMap(ids);
  }

  isInboxMember(inboxId: number, userId: number): boolean {
    return this.isInboxMemberStmt.statement.get({ inbox_id: inboxId, user_id: userId }) !== null;
  }

  *readIsInboxMember(inboxId: number, userId: number): Reads<boolean> {
    return (yield this.isInboxMemberStmt.get({ inbox_id: inboxId, user_id: userId })) !== null;
  }

  /** Inboxes of this account the user is a member of. */
  *readMemberInboxIds(accountId: number, userId: number): Reads<number[]> {
    const rows = yield this.memberInboxesStmt.all({ account_id: accountId, user_id: userId });
    return (rows as { inbox_id: number }[]).map((r) => r.inbox_id);
  }

  team(accountId: number, id: number): TeamRef | null {
    return (this.teamStmt.statement.get({ account_id: accountId, id }) as TeamRef | null) ?? null;
  }

  *readTeam(accountId: number, id: number): Reads<TeamRef | null> {
    return (yield this.teamStmt.get({ account_id: accountId, id })) as TeamRef | null;
  }

  readTeams(ids: readonly number[]): Reads<Map<number, TeamRef>> {
    return this.teamsBatch.readMap(ids);
  }

  *readIsTeamMember(teamId: number, userId: number): Reads<boolean> {
    return (yield this.isTeamMemberStmt.get({ team_id: teamId, user_id: userId })) !== null;
  }

  /** Which of these teams the user belongs to. */
  teamsOfUser(userId: number, teamIds: readonly number[]): Set<number> {
    if (teamIds.length === 0) return new Set();
    return teamSet(this.teamsOfUserStmt.statement.all(teamsOfUserParams(userId, teamIds)) as TeamOfUser[]);
  }

  *readTeamsOfUser(userId: number, teamIds: readonly number[]): Reads<Set<number>> {
    if (teamIds.length === 0) return new Set();
    return teamSet((yield this.teamsOfUserStmt.all(teamsOfUserParams(userId, teamIds))) as TeamOfUser[]);
  }

  /** Users by id with their membership of the account (senders, assignees). */
  members(accountId: number, ids: readonly number[]): Map<number, MemberRef> {
    const users = this.users.rows(ids);
    return withMemberships(users, users.length ? this.memberships.map(ids, { account_id: accountId }) : new Map());
  }

  *readMembers(accountId: number, ids: readonly number[]): Reads<Map<number, MemberRef>> {
    const users = yield* this.users.readRows(ids);
    const memberships = users.length ? yield* this.memberships.readMap(ids, { account_id: accountId }) : new Map();
    return withMemberships(users, memberships);
  }

  member(accountId: number, id: number): MemberRef | null {
    return this.members(accountId, [id]).get(id) ?? null;
  }
}

interface TeamOfUser {
  team_id: number;
}

function teamsOfUserParams(userId: number, teamIds: readonly number[]) {
  return { user_id: userId, ids: JSON.stringify([...new Set(teamIds)]) };
}

function teamSet(rows: TeamOfUser[]): Set<number> {
  return new Set(rows.map((r) => r.team_id));
}

function withMemberships(users: UserRow[], memberships: Map<number, MembershipRow>): Map<number, MemberRef> {
  const map = new Map<number, MemberRef>();
  for (const user of users) map.set(user.id, { user, membership: memberships.get(user.id) ?? null });
  return map;
}
