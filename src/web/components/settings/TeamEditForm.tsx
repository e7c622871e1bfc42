// Changing a team: its name (lower-cased by the server, as Chatwoot does), description, and whether
// its conversations are assigned to its members automatically.
import { useSignal } from "@preact/signals";
import { api } from "../../lib/api.ts";
import { loadDirectory } from "../../lib/directory.ts";
import type { Team } from "../../lib/types.ts";
import { useSubmit } from "../../lib/use-submit.ts";
import { CheckField } from "../CheckField.tsx";
import { Field, describedBy } from "../Field.tsx";
import { FormFooter } from "../FormFooter.tsx";
import { TextInput } from "../TextInput.tsx";
import { t } from "../../lib/i18n.ts";

export function TeamEditForm({
  accountId,
  team,
  onSaved,
}: {
  accountId: number;
  team: Team;
  onSaved(team: Team): void;
}) {
  const name = useSignal(team.name);
  const description = useSignal(team.description ?? "");
  const autoAssign = useSignal(team.allow_auto_assign);
  const saved = useSignal("");
  const form = useSubmit(
    { name: t("teams.name"), description: t("teams.description"), allow_auto_assign: t("teams.auto_assign") },
    "edit-team-",
    t("teams.saving_what"),
  );
  const submit = (e: SubmitEvent) => {
    e.preventDefault();
    saved.value = "";
    void form.run(async () => {
      const body = {
        name: name.value.trim(),
        description: description.value.trim() || null,
        allow_auto_assign: autoAssign.value,
      };
      const updated = await api<Team>("PATCH", `/api/v1/accounts/${accountId}/teams/${team.id}`, body);
      void loadDirectory(accountId, true).catch(() => undefined);
      name.value = updated.name;
      onSaved(updated);
      saved.value = t("teams.saved", { name: updated.name });
    });
  };
  const errors = form.errors.value;
  return (
    <form class="settings-card" onSubmit={submit} noValidate aria-labelledby="edit-team-title">
      <h2 id="edit-team-title">{t("teams.settings")}</h2>
      <Field id="edit-team-name" label={t("teams.name")} error={errors.name} hint={t("teams.lower_case")}>
        <TextInput {...describedBy("edit-team-name", errors.name, true)} maxLength={255} value={name} />
      </Field>
      <Field id="edit-team-description" label={t("teams.description_optional")} error={errors.description}>
        <TextInput {...describedBy("edit-team-description", errors.description)} maxLength={255} value={description} />
      </Field>
      <CheckField
        id="edit-team-allow_auto_assign"
        label={t("teams.auto_assign_label")}
        value={autoAssign}
        error={errors.allow_auto_assign}
      />
      <FormFooter failure={form.failure.value} saved={saved.value} busy={form.busy.value} label={t("teams.save")} />
    </form>
  );
}
