// /api/v1/accounts/:account_id/teams — teams and /teams/:team_id/team_members.
import { Elysia, t } from "elysia";
import type { AgentRecord } from "../db/agents.repo.ts";
import type { Deps } from "../deps.ts";
import { parseId } from "../domain/auth.service.ts";
import { teamOf } from "../domain/presenters/team.presenter.ts";
import { agentOf } from "../domain/presenters/user.presenter.ts";
import { whenReady } from "../lib/when-ready.ts";
import { accountScope } from "./auth.ts";
import { UserId } from "./field-docs.ts";
import { bodyOf } from "./request.ts";
import { AccountParams, Agent, Checked, errorResponses, Integer, Nullable, Text } from "./schemas.ts";

const Team = t.Object({
  id: Integer(),
  name: t.String(),
  description: Nullable(t.String()),
  allow_auto_assign: t.Boolean(),
  account_id: Integer(),
  is_member: t.Boolean({ description: "whether the caller belongs to the team" }),
});

const TeamBody = t.Object({
  name: t.Optional(Checked(t.String({ minLength: 1, maxLength: 255, description: "lower-cased; unique" }))),
  description: t.Optional(Checked(Text(1000))),
  allow_auto_assign: t.Optional(t.Boolean()),
});

const MembersBody = t.Object({
  user_ids: t.Optional(t.Array(UserId, { description: "user ids of agents of this account (at most 1000)" })),
});

// One parameter name for every route under /teams/: the router refuses two names at one place.
const TeamParams = t.Object({ account_id: t.String(), team_id: t.String() });
const agents = (list: AgentRecord[]) => list.map((a) => agentOf(a.user, a.membership));
const ok = () => new Response(null, { status: 200 });
const tags = ["teams"];

export function teamRoutes(d: Deps) {
  const teams = d.services.teams;
  const write = { admin: true, params: TeamParams, ...bodyOf(MembersBody, "team_member") } as const;
  return new Elysia({ prefix: "/api/v1/accounts/:account_id/teams" })
    .use(accountScope(d.services.auth))
    .get(
      "",
      ({ principal }) => whenReady(teams.listWithOwn(principal), ({ rows, own }) => rows.map((r) => teamOf(r, own))),
      {
        params: AccountParams,
        response: { 200: t.Array(Team), ...errorResponses },
        detail: { tags, summary: "List the account's teams" },
      },
    )
    .get(
      "/:team_id",
      ({ principal, params }) =>
        whenReady(teams.show(principal, parseId(params.team_id)), ({ team, own }) => teamOf(team, own)),
      {
        params: TeamParams,
        response: { 200: Team, ...errorResponses },
        detail: { tags, summary: "Show a team" },
      },
    )
    .post(
      "",
      async ({ principal, body }) => teamOf(await teams.create(principal, body), await teams.teamIdsOf(principal)),
      {
        admin: true,
        params: AccountParams,
        ...bodyOf(TeamBody, "team"),
        response: { 200: Team, ...errorResponses },
        detail: { tags, summary: "Create a team (administrators); the name is lower-cased and unique in the account" },
      },
    )
    .patch(
      "/:team_id",
      async ({ principal, params, body }) =>
        teamOf(await teams.update(principal, parseId(params.team_id), body), await teams.teamIdsOf(principal)),
      {
        admin: true,
        params: TeamParams,
        ...bodyOf(TeamBody, "team"),
        response: { 200: Team, ...errorResponses },
        detail: { tags, summary: "Update a team (administrators)" },
      },
    )
    .delete(
      "/:team_id",
      async ({ principal, params }) => (await teams.delete(principal, parseId(params.team_id)), ok()),
      {
        admin: true,
        params: TeamParams,
        response: { 200: t.Void(), ...errorResponses },
        detail: { tags, summary: "Delete a team (administrators); its conversations stay, without a team" },
      },
    )
    .get(
      "/:team_id/team_members",
      ({ principal, params }) => whenReady(teams.members(principal, parseId(params.team_id)), agents),
      {
        params: TeamParams,
        response: { 200: t.Array(Agent), ...errorResponses },
        detail: { tags, summary: "The team's member agents" },
      },
    )
    .post(
      "/:team_id/team_members",
      async ({ principal, params, body }) =>
        agents(await teams.addMembers(principal, parseId(params.team_id), body.user_ids)),
      {
        ...write,
        response: { 200: t.Array(Agent), ...errorResponses },
        detail: { tags, summary: "Add agents to a team (administrators); answers the agents added" },
      },
    )
    .patch(
      "/:team_id/team_members",
      async ({ principal, params, body }) =>
        agents(await teams.replaceMembers(principal, parseId(params.team_id), body.user_ids)),
      {
        ...write,
        response: { 200: t.Array(Agent), ...errorResponses },
        detail: { tags, summary: "Make the team's members exactly user_ids (administrators); answers all members" },
      },
    )
    .delete(
      "/:team_id/team_members",
      async ({ principal, params, body }) => (
        await teams.removeMembers(principal, parseId(params.team_id), body.user_ids), ok()
      ),
      {
        ...write,
        response: { 200: t.Void(), ...errorResponses },
        detail: { tags, summary: "Remove agents from a team (administrators)" },
      },
    );
}
