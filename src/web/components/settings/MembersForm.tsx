// Choosing the members of an inbox or a team: a checkbox per agent of the account, saved together
// (the server is told the full list).
import { useSignal } from "@preact/signals";
import type { ComponentChildren } from "preact";
import { useEffect } from "preact/hooks";
import { directory } from "../../lib/directory.ts";
import { useSubmit } from "../../lib/use-submit.ts";
import { FormFailure } from "../FormFailure.tsx";
import { SubmitButton } from "../SubmitButton.tsx";
import { MemberChecklist } from "./MemberChecklist.tsx";
import { t } from "../../lib/i18n.ts";

interface Props {
  accountId: number;
  /** The current members' user ids; null while they load. */
  members: number[] | null;
  legend: string;
  save(userIds: number[]): Promise<void>;
  /** The form's heading and anything above the list. */
  children: ComponentChildren;
  titleId: string;
}

export function MembersForm({ members, legend, save, children, titleId }: Props) {
  const chosen = useSignal<Set<number>>(new Set());
  const saved = useSignal("");
  const form = useSubmit({}, "", t("members.saving_what"));
  useEffect(() => void (members && (chosen.value = new Set(members))), [members?.join()]);
  const submit = (e: SubmitEvent) => {
    e.preventDefault();
    saved.value = "";
    void form.run(async () => {
      await save([...chosen.value]);
      saved.value = t("members.saved");
    });
  };
  return (
    <form class="settings-card" onSubmit={submit} aria-labelledby={titleId}>
      {children}
      {directory.value && members ? (
        <MemberChecklist agents={directory.value.agents} chosen={chosen} legend={legend} />
      ) : (
        <p role="status">{t("common.loading")}</p>
      )}
      <FormFailure message={form.failure.value} />
      <div class="form-actions">
        <SubmitButton busy={form.busy.value} label={t("members.save")} busyLabel={t("common.saving")} />
        <p role="status" class="form-status">
          {saved.value}
        </p>
      </div>
    </form>
  );
}
