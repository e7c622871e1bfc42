// One team: its members (a checkbox per agent, saved together), its settings, and deleting it.
import { api } from "../../lib/api.ts";
import { paths } from "../../lib/routes.ts";
import type { Agent, Team } from "../../lib/types.ts";
import { useResource } from "../../lib/use-resource.ts";
import { DetailPage } from "./DetailPage.tsx";
import { DeleteCard } from "./DeleteCard.tsx";
import { MembersForm } from "./MembersForm.tsx";
import { TeamEditForm } from "./TeamEditForm.tsx";

export function TeamDetail({ accountId, teamId }: { accountId: number; teamId: number }) {
  const url = `/api/v1/accounts/${accountId}/teams/${teamId}`;
  const team = useResource(
    () => Promise.all([api<Team>("GET", url), api<Agent[]>("GET", `${url}/team_members`)]),
    [accountId, teamId],
    "The team",
  );
  const save = async (userIds: number[]) => void (await api("PATCH", `${url}/team_members`, { user_ids: userIds }));
  const [t, members] = team.data.value ?? [];
  return (
    <DetailPage accountId={accountId} section="teams" back="All teams" resource={team}>
      {t && members && (
        <MembersForm
          accountId={accountId}
          members={members.map((a) => a.id)}
          legend={`Members of ${t.name}`}
          save={save}
          titleId="team-title"
        >
          <h2 id="team-title">{t.name}</h2>
          {t.description && <p>{t.description}</p>}
          <h3>Members</h3>
        </MembersForm>
      )}
      {t && members && (
        <TeamEditForm
          key={t.id}
          accountId={accountId}
          team={t}
          onSaved={(updated) => (team.data.value = [updated, members])}
        />
      )}
      {t && (
        <DeleteCard
          accountId={accountId}
          what="team"
          name={t.name}
          consequence="Its conversations stay, without a team."
          url={url}
          back={paths.settings(accountId, "teams")}
        />
      )}
    </DetailPage>
  );
}
