// Agents: the users of an account with their role and availability. Administrators add them by
// email (an existing user with that email joins the account), change them and take them out.
import type { AgentRecord, AgentsRepo } from "../db/agents.repo.ts";
import { type Reads, readSoon } from "../db/reads.ts";
import type { WriteTx } from "../db/tx.ts";
import type { Role, UsersRepo } from "../db/users.repo.ts";
import { unixSeconds, type Clock } from "../lib/clock.ts";
import type { AccountsService } from "./accounts.service.ts";
import type { PasswordResetsService } from "./password-resets.service.ts";
import { requireAdministrator, type AccountPrincipal } from "./auth.service.ts";
import { AppError, FieldErrors, NotFoundError, ValidationError } from "./errors.ts";
import { emailValue, oneOf, requiredString } from "./validate.ts";

export const ROLES = ["agent", "administrator"] as const;
const AVAILABILITIES = ["online", "offline", "busy"] as const;
type Availability = (typeof AVAILABILITIES)[number];

export interface AgentsDeps {
  agents: AgentsRepo;
  users: UsersRepo;
  accounts: AccountsService;
  writeTx: WriteTx;
  clock: Clock;
  /** Steps of the removal's body once the agent has left the account (unassigns their conversations). */
  onRemoved?: (account: { id: number; name: string }, userId: number) => Reads<void>;
  /**
   * For an agent who has no password yet: queues the mail of a link to choose one, in the caller's
   * body (its steps answer false when the server cannot send mail), and wakes the sender after.
   */
  invitations?: Pick<PasswordResetsService, "inviteSteps" | "invitedAfterCommit">;
}

export interface AgentInput {
  name?: unknown;
  email?: unknown;
  role?: unknown;
  availability?: unknown;
  auto_offline?: unknown;
}

interface Settings {
  role: Role;
  availability: Availability;
  auto_offline: number;
}

/** Reads role/availability/auto_offline, keeping the current value of whatever is absent. */
function settings(errors: FieldErrors, input: AgentInput, current: Settings): Settings {
  const role = input.role === undefined ? current.role : oneOf(errors, "role", input.role, ROLES);
  const availability =
    input.availability === undefined
      ? current.availability
      : oneOf(errors, "availability", input.availability, AVAILABILITIES);
  let autoOffline = current.auto_offline;
  if (input.auto_offline !== undefined) {
    if (typeof input.auto_offline === "boolean") autoOffline = input.auto_offline ? 1 : 0;
    else errors.add("auto_offline", "must be true or false", "invalid");
  }
  return { role: role ?? current.role, availability: availability ?? current.availability, auto_offline: autoOffline };
}

const lastAdministrator = (field: string) =>
  ValidationError.of(
    field,
    "is the account's only administrator; make another member an administrator first",
    "invalid",
  );

export class AgentsService {
  constructor(private readonly d: AgentsDeps) {}

  /** Read-only: awaited on PostgreSQL (src/db/reads.ts readSoon), in place on SQLite. */
  list(p: AccountPrincipal): AgentRecord[] | Promise<AgentRecord[]> {
    return readSoon(this.d.agents.readList(p.account.id));
  }

  /** The agent or its 404, as a step of an awaited body. */
  private *readFound(accountId: number, userId: number | null): Reads<AgentRecord> {
    return agentFound(userId, userId === null ? null : yield* this.d.agents.readById(accountId, userId));
  }

  async create(p: AccountPrincipal, input: AgentInput): Promise<AgentRecord> {
    requireAdministrator(p);
    const errors = new FieldErrors();
    const name = requiredString(errors, "name", input.name);
    const email = emailValue(errors, "email", input.email, true);
    const s = settings(errors, input, { role: "agent", availability: "online", auto_offline: 1 });
    errors.throwIfAny();
    const accountId = p.account.id;
    const { users, agents, accounts, invitations, clock } = this.d;
    let invited = false;
    const agent = await this.d.writeTx.steps(function* () {
      const now = unixSeconds(clock);
      const existing = yield* users.readByEmail(email!);
      if (existing && (yield* users.readMembership(accountId, existing.id)))
        throw ValidationError.of("email", "has already been taken", "taken");
      const userId = yield* accounts.findOrCreateUserSteps(name!, email!, now);
      yield* users.addMembershipSteps({ account_id: accountId, user_id: userId, role: s.role, now });
      yield* agents.updateMembershipSteps({ account_id: accountId, user_id: userId, ...s });
      if (!(yield* users.readById(userId))?.password_hash) {
        yield* users.markUnconfirmedSteps(userId);
        if (invitations) invited = yield* invitations.inviteSteps(userId, accountId);
      }
      return (yield* agents.readById(accountId, userId))!;
    });
    if (invited) invitations!.invitedAfterCommit();
    return agent;
  }

  /**
   * Mails an agent who has not chosen a password a new invitation link (ours: Chatwoot has no
   * endpoint for it); the earlier link stops working. 422 once they have a password, 503 when the
   * server cannot send mail.
   */
  async invite(p: AccountPrincipal, userId: number | null): Promise<AgentRecord> {
    requireAdministrator(p);
    const accountId = p.account.id;
    const { invitations } = this.d;
    const self = this;
    const agent = await this.d.writeTx.steps(function* () {
      const agent = yield* self.readFound(accountId, userId);
      if (agent.user.password_hash)
        throw ValidationError.of(
          "id",
          "has already chosen a password: they can use Forgot your password?",
          "confirmed",
        );
      if (!invitations || !(yield* invitations.inviteSteps(agent.user.id, accountId)))
        throw new AppError(503, "This server cannot send mail", [
          { field: "id", message: "no mail server is configured (PARLEY_SMTP_URL)", code: "mail_not_configured" },
        ]);
      return agent;
    });
    invitations!.invitedAfterCommit();
    return agent;
  }

  async update(p: AccountPrincipal, userId: number | null, input: AgentInput): Promise<AgentRecord> {
    requireAdministrator(p);
    const accountId = p.account.id;
    const { agents, clock } = this.d;
    const self = this;
    return this.d.writeTx.steps(function* () {
      const agent = yield* self.readFound(accountId, userId);
      const errors = new FieldErrors();
      const name = input.name === undefined ? undefined : requiredString(errors, "name", input.name);
      const s = settings(errors, input, agent.membership);
      errors.throwIfAny();
      if (
        agent.membership.role === "administrator" &&
        s.role !== "administrator" &&
        (yield* agents.readAdministratorCount(accountId)) === 1
      ) {
        throw lastAdministrator("role");
      }
      // The name belongs to the user, not the membership: as in Chatwoot it changes everywhere.
      if (name !== undefined && name !== agent.user.name)
        yield* agents.renameSteps(agent.user.id, name, unixSeconds(clock));
      yield* agents.updateMembershipSteps({ account_id: accountId, user_id: agent.user.id, ...s });
      return (yield* agents.readById(accountId, agent.user.id))!;
    });
  }

  /**
   * Takes the agent out of this account with their inbox and team memberships there. The user
   * and their other accounts stay; their conversations in the account are unassigned (onRemoved).
   */
  async remove(p: AccountPrincipal, userId: number | null): Promise<void> {
    requireAdministrator(p);
    const accountId = p.account.id;
    const { agents, onRemoved } = this.d;
    const self = this;
    await this.d.writeTx.steps(function* () {
      const agent = yield* self.readFound(accountId, userId);
      if (agent.membership.role === "administrator" && (yield* agents.readAdministratorCount(accountId)) === 1)
        throw lastAdministrator("id");
      yield* agents.removeFromAccountSteps(accountId, agent.user.id);
      if (onRemoved) yield* onRemoved(p.account, agent.user.id);
    });
  }
}

function agentFound(userId: number | null, agent: AgentRecord | null): AgentRecord {
  if (agent) return agent;
  const message = userId === null ? "no such agent in this account" : `no agent ${userId} in this account`;
  throw new NotFoundError("Agent", "id", message);
}
