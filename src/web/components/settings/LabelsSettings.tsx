// Settings › Labels, over Chatwoot's label API (§6.4: GET /labels {payload: [label]}, POST bare
// label, DELETE). Conversations can carry any label; the account's labels are the ones offered in
// the inbox's filter and label field. A server without the label API says so instead.
import { useSignal } from "@preact/signals";
import { ApiError, api } from "../../lib/api.ts";
import { loadDirectory } from "../../lib/directory.ts";
import { describeError } from "../../lib/thread.ts";
import { useResource } from "../../lib/use-resource.ts";
import { ConfirmButton } from "../ConfirmButton.tsx";
import type { SectionProps } from "../Settings.tsx";
import { LabelForm, type Label } from "./LabelForm.tsx";
import { LoadState } from "../LoadState.tsx";
import { DataTable } from "../DataTable.tsx";
import { Unavailable } from "./Unavailable.tsx";

/** null: this server has no label API. */
async function listLabels(accountId: number): Promise<Label[] | null> {
  try {
    return (await api<{ payload: Label[] }>("GET", `/api/v1/accounts/${accountId}/labels`)).payload;
  } catch (e) {
    if (e instanceof ApiError && e.status === 404) return null;
    throw e;
  }
}

export function LabelsSettings({ accountId }: SectionProps) {
  const labels = useResource(() => listLabels(accountId).then((list) => ({ list })), [accountId], "The labels");
  const message = useSignal("");
  const changed = async (text: string) => {
    message.value = text;
    await labels.reload();
    void loadDirectory(accountId, true).catch(() => undefined);
  };
  const remove = async (l: Label) => {
    try {
      await api("DELETE", `/api/v1/accounts/${accountId}/labels/${l.id}`);
      await changed(`Label ${l.title} deleted.`);
    } catch (e) {
      message.value = describeError(e, "The label could not be deleted.");
    }
  };
  const loaded = labels.data.value;
  if (loaded && loaded.list === null) {
    return <Unavailable title="Labels" text="This server does not manage an account label list yet. Conversations can still be labelled freely." />;
  }
  return (
    <div class="settings-stack">
      <section class="settings-card" aria-labelledby="labels-title">
        <h2 id="labels-title">Labels</h2>
        <LoadState resource={labels} />
        <p role="status" class="form-status">
          {message.value}
        </p>
        {loaded?.list && loaded.list.length === 0 && <p>No labels yet.</p>}
        {loaded?.list && loaded.list.length > 0 && (
          <DataTable columns={["Label", "Description"]} actions>
            {loaded.list.map((l) => (
              <tr key={l.id}>
                <td>
                  <span class="swatch" style={{ background: l.color }} aria-hidden="true" /> {l.title}
                </td>
                <td class="wrap">{l.description ?? ""}</td>
                <td>
                  <ConfirmButton label="Delete" target={l.title} question={`Delete the label ${l.title}?`} onConfirm={() => remove(l)} />
                </td>
              </tr>
            ))}
          </DataTable>
        )}
      </section>
      {loaded?.list && <LabelForm accountId={accountId} onCreated={(l) => changed(`Label ${l.title} created.`)} />}
    </div>
  );
}
