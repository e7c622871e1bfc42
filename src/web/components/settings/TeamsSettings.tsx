// Settings › Teams: the teams, a form for a new one; a path with a team's id shows that team.
import { useSignal } from "@preact/signals";
import { api } from "../../lib/api.ts";
import { loadDirectory } from "../../lib/directory.ts";
import { navigate } from "../../lib/router.ts";
import { paths } from "../../lib/routes.ts";
import type { Team } from "../../lib/types.ts";
import { useResource } from "../../lib/use-resource.ts";
import { useSubmit } from "../../lib/use-submit.ts";
import { Field, describedBy } from "../Field.tsx";
import { FormFailure } from "../FormFailure.tsx";
import { Link } from "../Link.tsx";
import type { SectionProps } from "../Settings.tsx";
import { TextInput } from "../TextInput.tsx";
import { TeamDetail } from "./TeamDetail.tsx";
import { SubmitButton } from "../SubmitButton.tsx";
import { LoadState } from "../LoadState.tsx";
import { t } from "../../lib/i18n.ts";

export function TeamsSettings({ accountId, itemId }: SectionProps) {
  if (itemId !== null) return <TeamDetail accountId={accountId} teamId={itemId} />;
  return <TeamList accountId={accountId} />;
}

function TeamList({ accountId }: { accountId: number }) {
  const teams = useResource(
    () => api<Team[]>("GET", `/api/v1/accounts/${accountId}/teams`),
    [accountId],
    t("teams.what"),
  );
  const list = teams.data.value;
  return (
    <div class="settings-stack">
      <section class="settings-card" aria-labelledby="teams-title">
        <h2 id="teams-title">{t("teams.title")}</h2>
        <LoadState resource={teams} />
        {list && list.length === 0 && <p>{t("teams.none")}</p>}
        {list && list.length > 0 && (
          <ul class="plain-list">
            {list.map((team) => (
              <li key={team.id}>
                <Link href={paths.settings(accountId, "teams", team.id)}>{team.name}</Link>
                {team.description && <span class="hint"> · {team.description}</span>}
              </li>
            ))}
          </ul>
        )}
      </section>
      <TeamForm accountId={accountId} />
    </div>
  );
}

function TeamForm({ accountId }: { accountId: number }) {
  const name = useSignal("");
  const description = useSignal("");
  const form = useSubmit(
    { name: t("teams.name"), description: t("teams.description") },
    "team-",
    t("teams.creating_what"),
  );
  const submit = (e: SubmitEvent) => {
    e.preventDefault();
    void form.run(async () => {
      const team = await api<Team>("POST", `/api/v1/accounts/${accountId}/teams`, {
        name: name.value.trim(),
        description: description.value.trim() || null,
      });
      void loadDirectory(accountId, true).catch(() => undefined);
      navigate(paths.settings(accountId, "teams", team.id));
    });
  };
  const errors = form.errors.value;
  return (
    <form class="settings-card" onSubmit={submit} noValidate aria-labelledby="new-team-title">
      <h2 id="new-team-title">{t("teams.add_title")}</h2>
      <Field id="team-name" label={t("teams.name")} error={errors.name} hint={t("teams.lower_case")}>
        <TextInput {...describedBy("team-name", errors.name, true)} maxLength={255} value={name} />
      </Field>
      <Field id="team-description" label={t("teams.description_optional")} error={errors.description}>
        <TextInput {...describedBy("team-description", errors.description)} maxLength={255} value={description} />
      </Field>
      <FormFailure message={form.failure.value} />
      <SubmitButton busy={form.busy.value} label={t("teams.create")} busyLabel={t("teams.creating")} />
    </form>
  );
}
