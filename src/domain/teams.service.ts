// Teams and their members. Every member of the account reads them; administrators change them.
// Names are lower-cased and unique per account, as in Chatwoot.
import type { AgentRecord, AgentsRepo } from "../db/agents.repo.ts";
import type { TeamFields, TeamRow, TeamsRepo } from "../db/teams.repo.ts";
import { chain, nested, type Reads, readSoon } from "../db/reads.ts";
import type { WriteTx } from "../db/tx.ts";
import { unixSeconds, type Clock } from "../lib/clock.ts";
import { requireAdministrator, type AccountPrincipal } from "./auth.service.ts";
import { FieldErrors, NotFoundError } from "./errors.ts";
import { addMembersSteps, readAccountUserIds, removeMembersSteps, replaceMembersSteps } from "./member-sets.ts";
import { optionalString, requiredString } from "./validate.ts";

export interface TeamsDeps {
  teams: TeamsRepo;
  agents: AgentsRepo;
  writeTx: WriteTx;
  clock: Clock;
}

export interface TeamInput {
  name?: unknown;
  description?: unknown;
  allow_auto_assign?: unknown;
}

interface TeamShown {
  team: TeamRow;
  /** The caller's teams. */
  own: Set<number>;
}

interface TeamList {
  rows: TeamRow[];
  /** The caller's teams. */
  own: Set<number>;
}

export class TeamsService {
  constructor(private readonly d: TeamsDeps) {}

  /** The teams, and those the caller is in: read-only, awaited on PostgreSQL (src/db/reads.ts readSoon). */
  listWithOwn(p: AccountPrincipal): TeamList | Promise<TeamList> {
    const { teams } = this.d;
    return readSoon(
      (function* () {
        const rows = yield* nested(teams.readList(p.account.id));
        return { rows, own: yield* nested(teams.readTeamIdsOf(p.account.id, p.user.id)) };
      })(),
    );
  }

  /** One team and whether the caller is in it: read-only, awaited on PostgreSQL. */
  show(p: AccountPrincipal, id: number | null): TeamShown | Promise<TeamShown> {
    const { teams } = this.d;
    return readSoon(
      chain(this.readExisting(p, id), function* (team) {
        return { team, own: yield* nested(teams.readTeamIdsOf(p.account.id, p.user.id)) };
      }),
    );
  }

  /** The team or its 404, as a step of a read-only route's Reads or of a write's body. */
  private *readExisting(p: AccountPrincipal, id: number | null): Reads<TeamRow> {
    return teamFound(id, id === null ? null : yield* nested(this.d.teams.readById(p.account.id, id)));
  }

  /** The ids of the account's teams the caller belongs to (the `is_member` of each team), as list(). */
  teamIdsOf(p: AccountPrincipal): Set<number> | Promise<Set<number>> {
    return readSoon(this.d.teams.readTeamIdsOf(p.account.id, p.user.id));
  }

  create(p: AccountPrincipal, input: TeamInput): Promise<TeamRow> {
    const { teams, clock } = this.d;
    const self = this;
    return this.d.writeTx.steps(function* () {
      requireAdministrator(p);
      const fields = yield* self.readFields(p.account.id, input, null);
      const id = yield* teams.insertSteps(p.account.id, fields, unixSeconds(clock));
      return (yield* teams.readById(p.account.id, id))!;
    });
  }

  update(p: AccountPrincipal, id: number | null, input: TeamInput): Promise<TeamRow> {
    requireAdministrator(p);
    const { teams, clock } = this.d;
    const self = this;
    return this.d.writeTx.steps(function* () {
      const team = yield* self.readExisting(p, id);
      const fields = yield* self.readFields(p.account.id, input, team);
      yield* teams.updateSteps(p.account.id, team.id, fields, unixSeconds(clock));
      return (yield* teams.readById(p.account.id, team.id))!;
    });
  }

  /** Deletes the team and its memberships; its conversations stay, with no team (their FK sets NULL). */
  async delete(p: AccountPrincipal, id: number | null): Promise<void> {
    requireAdministrator(p);
    const { teams } = this.d;
    const self = this;
    await this.d.writeTx.steps(function* () {
      const team = yield* self.readExisting(p, id);
      yield* teams.deleteSteps(p.account.id, team.id);
    });
  }

  /** The team's agents: read-only, awaited on PostgreSQL. */
  members(p: AccountPrincipal, teamId: number | null): AgentRecord[] | Promise<AgentRecord[]> {
    return readSoon(chain(this.readExisting(p, teamId), (team) => this.d.agents.readInTeam(p.account.id, team.id)));
  }

  /** Adds members; returns only the agents it added, as Chatwoot does. */
  addMembers(p: AccountPrincipal, teamId: number | null, userIds: unknown): Promise<AgentRecord[]> {
    const { teams, agents } = this.d;
    return this.changeMembers(p, teamId, userIds, function* (team, ids, now) {
      const added = new Set(yield* addMembersSteps(teams.members, team, ids, now));
      return (yield* agents.readInTeam(p.account.id, team)).filter((a) => added.has(a.user.id));
    });
  }

  /** Makes the member set exactly `user_ids`; returns all members. */
  replaceMembers(p: AccountPrincipal, teamId: number | null, userIds: unknown): Promise<AgentRecord[]> {
    const { teams, agents } = this.d;
    return this.changeMembers(p, teamId, userIds, function* (team, ids, now) {
      yield* replaceMembersSteps(teams.members, team, ids, now);
      return yield* agents.readInTeam(p.account.id, team);
    });
  }

  async removeMembers(p: AccountPrincipal, teamId: number | null, userIds: unknown): Promise<void> {
    const { teams } = this.d;
    await this.changeMembers(p, teamId, userIds, function* (team, ids) {
      yield* removeMembersSteps(teams.members, team, ids);
      return [];
    });
  }

  /** A member change in one awaited body; the team and the users are checked inside it. */
  private changeMembers(
    p: AccountPrincipal,
    teamId: number | null,
    userIds: unknown,
    apply: (teamId: number, ids: number[], now: number) => Reads<AgentRecord[]>,
  ): Promise<AgentRecord[]> {
    requireAdministrator(p);
    const { agents, clock } = this.d;
    const self = this;
    return this.d.writeTx.steps(function* () {
      const team = yield* self.readExisting(p, teamId);
      const ids = yield* readAccountUserIds(userIds, function* (userId) {
        return (yield* agents.readById(p.account.id, userId)) !== null;
      });
      return yield* apply(team.id, ids, unixSeconds(clock));
    });
  }

  /** The fields to save, validated; a name another team has is a 422 (read inside the body). */
  private *readFields(accountId: number, input: TeamInput, current: TeamRow | null): Reads<TeamFields> {
    const errors = new FieldErrors();
    const rawName =
      current === null || input.name !== undefined ? requiredString(errors, "name", input.name) : current.name;
    const name = rawName?.toLowerCase();
    if (name !== undefined) {
      const other = yield* this.d.teams.readByName(accountId, name);
      if (other && other.id !== current?.id) errors.add("name", "has already been taken", "taken");
    }
    const description = optionalString(errors, "description", input.description, 1000);
    let allow = current?.allow_auto_assign ?? 1;
    if (input.allow_auto_assign !== undefined) {
      if (typeof input.allow_auto_assign === "boolean") allow = input.allow_auto_assign ? 1 : 0;
      else errors.add("allow_auto_assign", "must be true or false", "invalid");
    }
    errors.throwIfAny();
    return {
      name: name!,
      description: description === undefined ? (current?.description ?? null) : description,
      allow_auto_assign: allow,
    };
  }
}

/** The team readExisting() found, or its 404. */
function teamFound(id: number | null, team: TeamRow | null): TeamRow {
  if (team) return team;
  const message = id === null ? "no such team in this account" : `no team ${id} in this account`;
  throw new NotFoundError("Team", "id", message);
}
