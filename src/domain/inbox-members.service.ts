// Which agents work an inbox (Chatwoot's endpoint and its siblings). Every answer is the inbox's
// members after the change (docs/compatibility.md #7), as agents of this account.
import type { AgentRecord, AgentsRepo } from "../db/agents.repo.ts";
import type { InboxesRepo } from "../db/inboxes.repo.ts";
import { chain, nested, type Reads, readSoon } from "../db/reads.ts";
import type { WriteTx } from "../db/tx.ts";
import { unixSeconds, type Clock } from "../lib/clock.ts";
import { parseId, requireAdministrator, type AccountPrincipal } from "./auth.service.ts";
import { ValidationError } from "./errors.ts";
import { idList } from "./id-list.ts";
import type { InboxesService } from "./inboxes.service.ts";
import { addMembersSteps, readAccountUserIds, removeMembersSteps, replaceMembersSteps } from "./member-sets.ts";

export interface InboxMembersDeps {
  inboxes: InboxesRepo;
  agents: AgentsRepo;
  inboxesService: InboxesService;
  writeTx: WriteTx;
  clock: Clock;
}

export interface MembersInput {
  inbox_id?: unknown;
  user_ids?: unknown;
}

export class InboxMembersService {
  constructor(private readonly d: InboxMembersDeps) {}

  /**
   * Members of an inbox the caller may see (administrators, or agents who are members). Read-only:
   * awaited on PostgreSQL (src/db/reads.ts readSoon), in place on SQLite.
   */
  list(p: AccountPrincipal, inboxId: number | null): AgentRecord[] | Promise<AgentRecord[]> {
    const { agents } = this.d;
    return readSoon(
      chain(this.d.inboxesService.readVisibleOne(p, inboxId), (inbox) => agents.readInInbox(p.account.id, inbox.id)),
    );
  }

  /**
   * Chatwoot's assignable agents for a set of inboxes (the mobile app asks on opening a chat): the
   * agents who are members of every one of them, then the account's administrators, who may work
   * any inbox. Each inbox must be one the caller may see. Read-only, as list().
   */
  assignable(p: AccountPrincipal, rawInboxIds: unknown): AgentRecord[] | Promise<AgentRecord[]> {
    const ids = idList("inbox_ids", rawInboxIds, { max: MAX_INBOXES, noun: ["inbox", "inboxes"], scalar: true });
    return readSoon(this.readAssignableIn(p, ids));
  }

  /** The same for one inbox named by the path (an unknown id is a 404, as on every inbox route). */
  assignableInInbox(p: AccountPrincipal, inboxId: number | null): AgentRecord[] | Promise<AgentRecord[]> {
    return readSoon(this.readAssignableIn(p, [inboxId]));
  }

  /** Every inbox checked (404/403, in the order asked) before any members are read, as before. */
  private *readAssignableIn(p: AccountPrincipal, inboxIds: readonly (number | null)[]): Reads<AgentRecord[]> {
    const { agents, inboxesService } = this.d;
    const inboxes: { id: number }[] = [];
    for (const id of inboxIds) inboxes.push(yield* nested(inboxesService.readVisibleOne(p, id)));
    const members: AgentRecord[][] = [];
    for (const inbox of inboxes) members.push(yield* nested(agents.readInInbox(p.account.id, inbox.id)));
    const [first, ...rest] = members;
    const inAll = (first ?? []).filter((m) => rest.every((other) => other.some((o) => o.user.id === m.user.id)));
    const ids = new Set(inAll.map((m) => m.user.id));
    const administrators = (yield* nested(agents.readList(p.account.id))).filter(
      (a) => a.membership.role === "administrator" && !ids.has(a.user.id),
    );
    return [...inAll, ...administrators];
  }

  add(p: AccountPrincipal, input: MembersInput): Promise<AgentRecord[]> {
    const { inboxes } = this.d;
    return this.change(p, input, function* (inboxId, ids, now) {
      yield* addMembersSteps(inboxes.members, inboxId, ids, now);
    });
  }

  replace(p: AccountPrincipal, input: MembersInput): Promise<AgentRecord[]> {
    const { inboxes } = this.d;
    return this.change(p, input, (inboxId, ids, now) => replaceMembersSteps(inboxes.members, inboxId, ids, now));
  }

  remove(p: AccountPrincipal, input: MembersInput): Promise<AgentRecord[]> {
    const { inboxes } = this.d;
    return this.change(p, input, (inboxId, ids) => removeMembersSteps(inboxes.members, inboxId, ids));
  }

  /** A member change in one awaited body; the inbox and the users are checked inside it. */
  private async change(
    p: AccountPrincipal,
    input: MembersInput,
    apply: (inboxId: number, ids: number[], now: number) => Reads<void>,
  ): Promise<AgentRecord[]> {
    requireAdministrator(p);
    if (input.inbox_id === undefined || input.inbox_id === null || input.inbox_id === "") {
      throw ValidationError.of("inbox_id", "can't be blank", "required");
    }
    const { agents, inboxesService, clock } = this.d;
    // Checked inside the transaction so that a concurrent removal cannot slip a stranger in.
    return await this.d.writeTx.steps(function* () {
      const inbox = yield* inboxesService.readFound(p.account.id, parseId(input.inbox_id));
      const ids = yield* readAccountUserIds(input.user_ids, function* (userId) {
        return (yield* agents.readById(p.account.id, userId)) !== null;
      });
      yield* apply(inbox.id, ids, unixSeconds(clock));
      return yield* agents.readInInbox(p.account.id, inbox.id);
    });
  }
}

/** The most inboxes one question may name (the app sends the inboxes of one conversation). */
const MAX_INBOXES = 100;
