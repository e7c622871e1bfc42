// Settings › Automation: the account's rules (on or off, deleted) and a form for a new one, over
// Chatwoot's automation API (§6.4: GET {payload: [rule]}, POST a bare rule, PATCH, DELETE). A
// server without it says so instead.
import { useSignal } from "@preact/signals";
import { ApiError, api } from "../../lib/api.ts";
import { humanize } from "../../lib/automation.ts";
import { describeError } from "../../lib/thread.ts";
import { useResource } from "../../lib/use-resource.ts";
import { ConfirmButton } from "../ConfirmButton.tsx";
import { LoadState } from "../LoadState.tsx";
import type { SectionProps } from "../Settings.tsx";
import { DataTable } from "../DataTable.tsx";
import { AutomationForm } from "./AutomationForm.tsx";
import { Unavailable } from "./Unavailable.tsx";

interface Rule {
  id: number;
  name: string;
  description: string | null;
  event_name: string;
  active: boolean;
  disabled_reason?: string | null;
}

export function AutomationSettings({ accountId }: SectionProps) {
  const base = `/api/v1/accounts/${accountId}/automation_rules`;
  const rules = useResource(
    () =>
      api<{ payload: Rule[] }>("GET", base).then(
        (r) => ({ list: r.payload as Rule[] | null }),
        (e) => (e instanceof ApiError && e.status === 404 ? { list: null } : Promise.reject(e)),
      ),
    [accountId],
    "The rules",
  );
  const message = useSignal("");
  const act = async (done: string, request: () => Promise<unknown>) => {
    try {
      await request();
      message.value = done;
      await rules.reload();
    } catch (e) {
      message.value = describeError(e, "The rule could not be changed.");
    }
  };
  const list = rules.data.value?.list;
  if (list === null) {
    return <Unavailable title="Automation" text="This server does not run automation rules yet." />;
  }
  return (
    <div class="settings-stack">
      <section class="settings-card" aria-labelledby="rules-title">
        <h2 id="rules-title">Automation</h2>
        <LoadState resource={rules} />
        <p role="status" class="form-status">
          {message.value}
        </p>
        {list && list.length === 0 && <p>No rules yet. A rule does something (label, assign, reply…) when a conversation or message meets its conditions.</p>}
        {list && list.length > 0 && (
          <DataTable columns={["Rule", "When", "On"]} actions>
            {list.map((r) => (
              <tr key={r.id}>
                <td class="wrap">
                  {r.name}
                  {r.disabled_reason && <span class="hint"> · switched off: {r.disabled_reason}</span>}
                </td>
                <td>{humanize(r.event_name)}</td>
                <td>
                  <input
                    type="checkbox"
                    aria-label={`${r.name} is on`}
                    checked={r.active}
                    onChange={(e) => void act(`${r.name} is ${e.currentTarget.checked ? "on" : "off"}.`, () => api("PATCH", `${base}/${r.id}`, { active: e.currentTarget.checked }))}
                  />
                </td>
                <td>
                  <ConfirmButton label="Delete" target={r.name} question={`Delete the rule ${r.name}?`} onConfirm={() => act(`${r.name} deleted.`, () => api("DELETE", `${base}/${r.id}`))} />
                </td>
              </tr>
            ))}
          </DataTable>
        )}
      </section>
      {list && <AutomationForm accountId={accountId} onCreated={(name) => act(`${name} created.`, async () => undefined)} />}
    </div>
  );
}
