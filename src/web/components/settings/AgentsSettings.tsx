// Settings › Agents: everyone in the account with their role (changed in place) and a way to remove
// them, and a form to add someone by name, email and role. A path with an agent's id edits them.
import { useSignal } from "@preact/signals";
import { api } from "../../lib/api.ts";
import { loadDirectory } from "../../lib/directory.ts";
import { user } from "../../lib/session.ts";
import { describeError } from "../../lib/thread.ts";
import type { Agent } from "../../lib/types.ts";
import { useResource } from "../../lib/use-resource.ts";
import { ConfirmButton } from "../ConfirmButton.tsx";
import type { SectionProps } from "../Settings.tsx";
import { AgentDetail } from "./AgentDetail.tsx";
import { AgentForm } from "./AgentForm.tsx";
import { Link } from "../Link.tsx";
import { paths } from "../../lib/routes.ts";
import { LoadState } from "../LoadState.tsx";
import { DataTable } from "../DataTable.tsx";
import { t } from "../../lib/i18n.ts";

export function AgentsSettings({ accountId, itemId }: SectionProps) {
  if (itemId !== null) return <AgentDetail accountId={accountId} agentId={itemId} />;
  return <AgentList accountId={accountId} />;
}

function AgentList({ accountId }: { accountId: number }) {
  const base = `/api/v1/accounts/${accountId}/agents`;
  const agents = useResource(() => api<Agent[]>("GET", base), [accountId], t("agents.what"));
  const message = useSignal<{ text: string; error: boolean } | null>(null);
  const changed = async (text: string) => {
    await agents.reload();
    void loadDirectory(accountId, true).catch(() => undefined);
    message.value = { text, error: false };
  };
  const setRole = async (a: Agent, role: string, control: HTMLSelectElement) => {
    try {
      await api("PATCH", `${base}/${a.id}`, { role });
      await changed(t(role === "administrator" ? "agents.now_admin" : "agents.now_agent", { name: a.available_name }));
    } catch (e) {
      control.value = a.role;
      message.value = { text: describeError(e, t("agents.role_failed")), error: true };
    }
  };
  const remove = async (a: Agent) => {
    try {
      await api("DELETE", `${base}/${a.id}`);
      await changed(t("agents.removed", { name: a.available_name }));
    } catch (e) {
      message.value = { text: describeError(e, t("agents.remove_failed")), error: true };
    }
  };
  const list = agents.data.value;
  return (
    <div class="settings-stack">
      <section class="settings-card" aria-labelledby="agents-title">
        <h2 id="agents-title">{t("agents.title")}</h2>
        <LoadState resource={agents} />
        <p role="status" class="form-status">
          {message.value && !message.value.error ? message.value.text : ""}
        </p>
        <p role="alert" class="field-error">
          {message.value?.error ? message.value.text : ""}
        </p>
        {list && (
          <DataTable columns={[t("agents.col.name"), t("agents.col.email"), t("agents.col.role")]} actions>
            {list.map((a) => (
              <tr key={a.id}>
                <td>
                  <Link href={paths.settings(accountId, "agents", a.id)}>{a.available_name}</Link>
                  {a.confirmed === false && <span class="tag">{t("agents.pending")}</span>}
                </td>
                <td class="wrap">{a.email}</td>
                <td>
                  <select
                    aria-label={t("agents.role_of", { name: a.available_name })}
                    value={a.role}
                    onChange={(e) => void setRole(a, e.currentTarget.value, e.currentTarget)}
                  >
                    <option value="agent">{t("agents.agent")}</option>
                    <option value="administrator">{t("agents.administrator")}</option>
                  </select>
                </td>
                <td>
                  {a.id !== user.value?.id && (
                    <ConfirmButton
                      label={t("common.remove")}
                      target={a.available_name}
                      question={t("agents.remove_question", { name: a.available_name })}
                      onConfirm={() => remove(a)}
                    />
                  )}
                </td>
              </tr>
            ))}
          </DataTable>
        )}
      </section>
      <AgentForm accountId={accountId} onAdded={(a) => changed(t("agents.added", { name: a.available_name }))} />
    </div>
  );
}
