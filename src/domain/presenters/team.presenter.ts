// Wire shape of a team (Chatwoot's team partial): `is_member` is about the caller.
import type { TeamRow } from "../../db/teams.repo.ts";

export function teamOf(row: TeamRow, callerTeamIds: Set<number>) {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    allow_auto_assign: row.allow_auto_assign === 1,
    account_id: row.account_id,
    is_member: callerTeamIds.has(row.id),
  };
}
