// Who works in an inbox (PATCH inbox_members with the full list). Administrators reach every inbox
// anyway; the list says so rather than hide them.
import { api } from "../../lib/api.ts";
import { forgetInboxMembers } from "../../lib/directory.ts";
import type { Agent } from "../../lib/types.ts";
import { useResource } from "../../lib/use-resource.ts";
import { MembersForm } from "./MembersForm.tsx";
import { t } from "../../lib/i18n.ts";

export function InboxMembers({ accountId, inboxId }: { accountId: number; inboxId: number }) {
  const url = `/api/v1/accounts/${accountId}/inbox_members`;
  const members = useResource(
    () => api<{ payload: Agent[] }>("GET", `${url}/${inboxId}`).then((r) => r.payload),
    [accountId, inboxId],
    t("members.what"),
  );
  const save = async (userIds: number[]) => {
    members.data.value = (
      await api<{ payload: Agent[] }>("PATCH", url, { inbox_id: inboxId, user_ids: userIds })
    ).payload;
    forgetInboxMembers();
  };
  return (
    <MembersForm
      accountId={accountId}
      members={members.data.value?.map((a) => a.id) ?? null}
      legend={t("members.of_inbox")}
      save={save}
      titleId="inbox-members-title"
    >
      <h2 id="inbox-members-title">{t("members.title")}</h2>
      <p class="hint">{t("members.inbox_hint")}</p>
      {members.error.value && <p role="alert">{members.error.value}</p>}
    </MembersForm>
  );
}
