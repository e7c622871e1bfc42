// Who works in an inbox: a checkbox per agent, saved together (PATCH inbox_members with the full
// list). Administrators reach every inbox anyway; the list says so rather than hide them.
import { useSignal } from "@preact/signals";
import { useEffect } from "preact/hooks";
import { api } from "../../lib/api.ts";
import { directory, forgetInboxMembers, loadDirectory } from "../../lib/directory.ts";
import type { Agent } from "../../lib/types.ts";
import { useResource } from "../../lib/use-resource.ts";
import { useSubmit } from "../../lib/use-submit.ts";
import { FormFailure } from "../FormFailure.tsx";
import { MemberChecklist } from "./MemberChecklist.tsx";

export function InboxMembers({ accountId, inboxId }: { accountId: number; inboxId: number }) {
  const url = `/api/v1/accounts/${accountId}/inbox_members`;
  const members = useResource(() => api<{ payload: Agent[] }>("GET", `${url}/${inboxId}`).then((r) => r.payload), [accountId, inboxId], "The members");
  const chosen = useSignal<Set<number>>(new Set());
  const saved = useSignal("");
  const form = useSubmit({}, "", "Saving the members");
  useEffect(() => void loadDirectory(accountId).catch(() => undefined), [accountId]);
  useEffect(() => void (members.data.value && (chosen.value = new Set(members.data.value.map((a) => a.id)))), [members.data.value]);

  const submit = (e: SubmitEvent) => {
    e.preventDefault();
    saved.value = "";
    void form.run(async () => {
      const r = await api<{ payload: Agent[] }>("PATCH", url, { inbox_id: inboxId, user_ids: [...chosen.value] });
      members.data.value = r.payload;
      forgetInboxMembers();
      saved.value = "Members saved.";
    });
  };
  return (
    <form class="settings-card" onSubmit={submit} aria-labelledby="inbox-members-title">
      <h2 id="inbox-members-title">Members</h2>
      <p class="hint">Agents see and answer the conversations of the inboxes they are members of. Administrators see every inbox.</p>
      {members.error.value && <p role="alert">{members.error.value}</p>}
      {directory.value && members.data.value ? (
        <MemberChecklist agents={directory.value.agents} chosen={chosen} legend="Members of this inbox" />
      ) : (
        !members.error.value && <p role="status">Loading…</p>
      )}
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
  );
}
