// One team: its members (a checkbox per agent, saved together), its settings, and deleting it.
import { api } from "../../lib/api.ts";
import { paths } from "../../lib/routes.ts";
import type { Agent, Team } from "../../lib/types.ts";
import { useResource } from "../../lib/use-resource.ts";
import { DetailPage } from "./DetailPage.tsx";
import { DeleteCard } from "./DeleteCard.tsx";
import { MembersForm } from "./MembersForm.tsx";
import { TeamEditForm } from "./TeamEditForm.tsx";
import { t } from "../../lib/i18n.ts";

export function TeamDetail({ accountId, teamId }: { accountId: number; teamId: number }) {
  const url = `/api/v1/accounts/${accountId}/teams/${teamId}`;
  const team = useResource(
    () => Promise.all([api<Team>("GET", url), api<Agent[]>("GET", `${url}/team_members`)]),
    [accountId, teamId],
    t("team.what"),
  );
  const save = async (userIds: number[]) => void (await api("PATCH", `${url}/team_members`, { user_ids: userIds }));
  const [record, members] = team.data.value ?? [];
  return (
    <DetailPage accountId={accountId} section="teams" back={t("team.all")} resource={team}>
      {record && members && (
        <MembersForm
          accountId={accountId}
          members={members.map((a) => a.id)}
          legend={t("team.members_of", { name: record.name })}
          save={save}
          titleId="team-title"
        >
          <h2 id="team-title">{record.name}</h2>
          {record.description && <p>{record.description}</p>}
          <h3>{t("team.members")}</h3>
        </MembersForm>
      )}
      {record && members && (
        <TeamEditForm
          key={record.id}
          accountId={accountId}
          team={record}
          onSaved={(updated) => (team.data.value = [updated, members])}
        />
      )}
      {record && (
        <DeleteCard
          accountId={accountId}
          what="team"
          title={t("team.delete_title")}
          label={t("team.delete")}
          question={t("team.delete_question", { name: record.name })}
          failed={t("team.delete_failed")}
          consequence={t("team.delete_consequence")}
          url={url}
          back={paths.settings(accountId, "teams")}
        />
      )}
    </DetailPage>
  );
}
