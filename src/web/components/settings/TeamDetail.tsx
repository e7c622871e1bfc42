// One team: its members (a checkbox per agent, saved together) and deleting it.
import { useSignal } from "@preact/signals";
import { useEffect } from "preact/hooks";
import { api } from "../../lib/api.ts";
import { directory, loadDirectory } from "../../lib/directory.ts";
import { navigate } from "../../lib/router.ts";
import { paths } from "../../lib/routes.ts";
import { describeError } from "../../lib/thread.ts";
import type { Agent, Team } from "../../lib/types.ts";
import { useResource } from "../../lib/use-resource.ts";
import { useSubmit } from "../../lib/use-submit.ts";
import { ConfirmButton } from "../ConfirmButton.tsx";
import { FormFailure } from "../FormFailure.tsx";
import { Link } from "../Link.tsx";
import { MemberChecklist } from "./MemberChecklist.tsx";

export function TeamDetail({ accountId, teamId }: { accountId: number; teamId: number }) {
  const url = `/api/v1/accounts/${accountId}/teams/${teamId}`;
  const team = useResource(() => Promise.all([api<Team>("GET", url), api<Agent[]>("GET", `${url}/team_members`)]), [accountId, teamId], "The team");
  const chosen = useSignal<Set<number>>(new Set());
  const saved = useSignal("");
  const deleteError = useSignal<string | null>(null);
  const form = useSubmit({}, "", "Saving the members");
  useEffect(() => void loadDirectory(accountId).catch(() => undefined), [accountId]);
  useEffect(() => void (team.data.value && (chosen.value = new Set(team.data.value[1].map((a) => a.id)))), [team.data.value]);

  const submit = (e: SubmitEvent) => {
    e.preventDefault();
    saved.value = "";
    void form.run(async () => {
      await api("PATCH", `${url}/team_members`, { user_ids: [...chosen.value] });
      saved.value = "Members saved.";
    });
  };
  const remove = async () => {
    try {
      await api("DELETE", url);
      void loadDirectory(accountId, true).catch(() => undefined);
      navigate(paths.settings(accountId, "teams"));
    } catch (e) {
      deleteError.value = describeError(e, "The team could not be deleted.");
    }
  };
  const t = team.data.value?.[0];
  return (
    <div class="settings-stack">
      <p>
        <Link href={paths.settings(accountId, "teams")}>← All teams</Link>
      </p>
      {team.error.value && <p role="alert">{team.error.value}</p>}
      {!t && !team.error.value && <p role="status">Loading…</p>}
      {t && (
        <form class="settings-card" onSubmit={submit} aria-labelledby="team-title">
          <h2 id="team-title">{t.name}</h2>
          {t.description && <p>{t.description}</p>}
          <h3>Members</h3>
          {directory.value ? <MemberChecklist agents={directory.value.agents} chosen={chosen} legend={`Members of ${t.name}`} /> : <p role="status">Loading…</p>}
          <FormFailure message={form.failure.value} />
          <div class="form-actions">
            <button type="submit" class="primary" aria-disabled={form.busy.value ? "true" : undefined}>
              {form.busy.value ? "Saving…" : "Save members"}
            </button>
            <p role="status" class="form-status">
              {saved.value}
            </p>
          </div>
        </form>
      )}
      {t && (
        <section class="settings-card danger-zone" aria-labelledby="team-delete-title">
          <h2 id="team-delete-title">Delete this team</h2>
          <p>Its conversations stay, without a team.</p>
          <ConfirmButton label="Delete team" question={`Delete ${t.name}?`} onConfirm={remove} />
          {deleteError.value && <p role="alert">{deleteError.value}</p>}
        </section>
      )}
    </div>
  );
}
