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

export function AgentsSettings({ accountId, itemId }: SectionProps) {
  if (itemId !== null) return <AgentDetail accountId={accountId} agentId={itemId} />;
  return <AgentList accountId={accountId} />;
}

function AgentList({ accountId }: { accountId: number }) {
  const base = `/api/v1/accounts/${accountId}/agents`;
  const agents = useResource(() => api<Agent[]>("GET", base), [accountId], "The agents");
  const message = useSignal<{ text: string; error: boolean } | null>(null);
  const changed = async (text: string) => {
    await agents.reload();
    void loadDirectory(accountId, true).catch(() => undefined);
    message.value = { text, error: false };
  };
  const setRole = async (a: Agent, role: string, control: HTMLSelectElement) => {
    try {
      await api("PATCH", `${base}/${a.id}`, { role });
      await changed(`${a.available_name} is now ${role === "administrator" ? "an administrator" : "an agent"}.`);
    } catch (e) {
      control.value = a.role;
      message.value = { text: describeError(e, "The role could not be changed."), error: true };
    }
  };
  const remove = async (a: Agent) => {
    try {
      await api("DELETE", `${base}/${a.id}`);
      await changed(`${a.available_name} was removed from the account.`);
    } catch (e) {
      message.value = { text: describeError(e, "The agent could not be removed."), error: true };
    }
  };
  const list = agents.data.value;
  return (
    <div class="settings-stack">
      <section class="settings-card" aria-labelledby="agents-title">
        <h2 id="agents-title">Agents</h2>
        <LoadState resource={agents} />
        <p role="status" class="form-status">
          {message.value && !message.value.error ? message.value.text : ""}
        </p>
        <p role="alert" class="field-error">
          {message.value?.error ? message.value.text : ""}
        </p>
        {list && (
          <DataTable columns={["Name", "Email", "Role"]} actions>
            {list.map((a) => (
              <tr key={a.id}>
                <td>
                  <Link href={paths.settings(accountId, "agents", a.id)}>{a.available_name}</Link>
                </td>
                <td class="wrap">{a.email}</td>
                <td>
                  <select
                    aria-label={`Role of ${a.available_name}`}
                    value={a.role}
                    onChange={(e) => void setRole(a, e.currentTarget.value, e.currentTarget)}
                  >
                    <option value="agent">Agent</option>
                    <option value="administrator">Administrator</option>
                  </select>
                </td>
                <td>
                  {a.id !== user.value?.id && (
                    <ConfirmButton
                      label="Remove"
                      target={a.available_name}
                      question={`Remove ${a.available_name} from the account?`}
                      onConfirm={() => remove(a)}
                    />
                  )}
                </td>
              </tr>
            ))}
          </DataTable>
        )}
      </section>
      <AgentForm accountId={accountId} onAdded={(a) => changed(`${a.available_name} was added.`)} />
    </div>
  );
}
