// Teams and their members. Every member of the account reads them; administrators change them.
// Names are lower-cased and unique per account, as in Chatwoot.
import type { AgentRecord, AgentsRepo } from "../db/agents.repo.ts";
import type { TeamFields, TeamRow, TeamsRepo } from "../db/teams.repo.ts";
import { chain, nested, type Reads, readSoon } from "../db/reads.ts";
import type { WriteTx } from "../db/tx.ts";
import { unixSeconds, type Clock } from "../lib/clock.ts";
import { requireAdministrator, type AccountPrincipal } from "./auth.service.ts";
import { FieldErrors, NotFoundError } from "./errors.ts";
import { accountUserIds, addMembers, removeMembers, replaceMembers } from "./member-sets.ts";
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

  /** The team or its 404, in place: write paths call it inside their writeTx, with no generator to run. */
  get(p: AccountPrincipal, id: number | null): TeamRow {
    return teamFound(id, id === null ? null : this.d.teams.byId(p.account.id, id));
  }

  /** get() as a step of a read-only route's Reads (awaited on PostgreSQL: src/db/reads.ts). */
  private *readExisting(p: AccountPrincipal, id: number | null): Reads<TeamRow> {
    return teamFound(id, id === null ? null : yield* nested(this.d.teams.readById(p.account.id, id)));
  }

  /** The ids of the account's teams the caller belongs to (the `is_member` of each team). */
  teamIdsOf(p: AccountPrincipal): Set<number> {
    return this.d.teams.teamIdsOf(p.account.id, p.user.id);
  }

  create(p: AccountPrincipal, input: TeamInput): Promise<TeamRow> {
    return this.d.writeTx(() => this.createBody(p, input));
  }

  /** create()'s body, run in its transaction. */
  private createBody(p: AccountPrincipal, input: TeamInput): TeamRow {
    requireAdministrator(p);
    const fields = this.fields(p.account.id, input, null);
    const id = this.d.teams.insert(p.account.id, fields, unixSeconds(this.d.clock));
    return this.d.teams.byId(p.account.id, id)!;
  }

  async update(p: AccountPrincipal, id: number | null, input: TeamInput): Promise<TeamRow> {
    requireAdministrator(p);
    return this.d.writeTx(() => {
      const team = this.get(p, id);
      this.d.teams.update(p.account.id, team.id, this.fields(p.account.id, input, team), unixSeconds(this.d.clock));
      return this.d.teams.byId(p.account.id, team.id)!;
    });
  }

  /** Deletes the team and its memberships; its conversations stay, with no team (their FK sets NULL). */
  async delete(p: AccountPrincipal, id: number | null): Promise<void> {
    requireAdministrator(p);
    await this.d.writeTx(() => this.d.teams.delete(p.account.id, this.get(p, id).id));
  }

  /** The team's agents: read-only, awaited on PostgreSQL. */
  members(p: AccountPrincipal, teamId: number | null): AgentRecord[] | Promise<AgentRecord[]> {
    return readSoon(chain(this.readExisting(p, teamId), (team) => this.d.agents.readInTeam(p.account.id, team.id)));
  }

  /** Adds members; returns only the agents it added, as Chatwoot does. */
  addMembers(p: AccountPrincipal, teamId: number | null, userIds: unknown): Promise<AgentRecord[]> {
    return this.changeMembers(p, teamId, userIds, (team, ids, now) => {
      const added = new Set(addMembers(this.d.teams.members, team, ids, now));
      return this.d.agents.inTeam(p.account.id, team).filter((a) => added.has(a.user.id));
    });
  }

  /** Makes the member set exactly `user_ids`; returns all members. */
  replaceMembers(p: AccountPrincipal, teamId: number | null, userIds: unknown): Promise<AgentRecord[]> {
    return this.changeMembers(p, teamId, userIds, (team, ids, now) => {
      replaceMembers(this.d.teams.members, team, ids, now);
      return this.d.agents.inTeam(p.account.id, team);
    });
  }

  async removeMembers(p: AccountPrincipal, teamId: number | null, userIds: unknown): Promise<void> {
    await this.changeMembers(p, teamId, userIds, (team, ids) => {
      removeMembers(this.d.teams.members, team, ids);
      return [];
    });
  }

  /** A member change in its own transaction; the team and the users are checked inside it. */
  private async changeMembers(
    p: AccountPrincipal,
    teamId: number | null,
    userIds: unknown,
    apply: (teamId: number, ids: number[], now: number) => AgentRecord[],
  ): Promise<AgentRecord[]> {
    requireAdministrator(p);
    return await this.d.writeTx(() => {
      const team = this.get(p, teamId);
      const ids = accountUserIds(userIds, (userId) => this.d.agents.byId(p.account.id, userId) !== null);
      return apply(team.id, ids, unixSeconds(this.d.clock));
    });
  }

  private fields(accountId: number, input: TeamInput, current: TeamRow | null): TeamFields {
    const errors = new FieldErrors();
    const rawName =
      current === null || input.name !== undefined ? requiredString(errors, "name", input.name) : current.name;
    const name = rawName?.toLowerCase();
    if (name !== undefined) {
      const other = this.d.teams.byName(accountId, name);
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

/** The team found by get() or readExisting(), or the same 404 for both. */
function teamFound(id: number | null, team: TeamRow | null): TeamRow {
  if (team) return team;
  const message = id === null ? "no such team in this account" : `no team ${id} in this account`;
  throw new NotFoundError("Team", "id", message);
}
