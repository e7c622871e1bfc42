// Settings › Labels, over Chatwoot's label API (§6.4: GET /labels {payload: [label]}, POST bare
// label, PATCH, DELETE). Conversations can carry any label; the account's labels are the ones offered
// in the inbox's filter and label field. A path with a label's id edits it. A server without the
// label API says so instead.
import { useSignal } from "@preact/signals";
import { api } from "../../lib/api.ts";
import { loadDirectory } from "../../lib/directory.ts";
import { describeError } from "../../lib/thread.ts";
import { useResource } from "../../lib/use-resource.ts";
import { ConfirmButton } from "../ConfirmButton.tsx";
import type { SectionProps } from "../Settings.tsx";
import { LabelForm, type Label } from "./LabelForm.tsx";
import { Link } from "../Link.tsx";
import { DetailPage } from "./DetailPage.tsx";
import { paths } from "../../lib/routes.ts";
import { LoadState } from "../LoadState.tsx";
import { DataTable } from "../DataTable.tsx";
import { t } from "../../lib/i18n.ts";

async function listLabels(accountId: number): Promise<Label[]> {
  return (await api<{ payload: Label[] }>("GET", `/api/v1/accounts/${accountId}/labels`)).payload;
}

export function LabelsSettings({ accountId, itemId }: SectionProps) {
  if (itemId !== null) return <LabelDetail accountId={accountId} labelId={itemId} />;
  return <LabelList accountId={accountId} />;
}

function LabelDetail({ accountId, labelId }: { accountId: number; labelId: number }) {
  const label = useResource(
    () => api<Label>("GET", `/api/v1/accounts/${accountId}/labels/${labelId}`),
    [accountId, labelId],
    t("labelset.what_one"),
  );
  const message = useSignal("");
  const l = label.data.value;
  const saved = async (updated: Label) => {
    label.data.value = updated;
    message.value = t("labelset.saved", { title: updated.title });
    void loadDirectory(accountId, true).catch(() => undefined);
  };
  return (
    <DetailPage accountId={accountId} section="labels" back={t("labelset.all")} resource={label}>
      <p role="status" class="form-status">
        {message.value}
      </p>
      {l && <LabelForm key={l.id} accountId={accountId} label={l} onSaved={saved} />}
    </DetailPage>
  );
}

function LabelList({ accountId }: { accountId: number }) {
  const labels = useResource(() => listLabels(accountId).then((list) => ({ list })), [accountId], t("labelset.what"));
  const message = useSignal("");
  const changed = async (text: string) => {
    message.value = text;
    await labels.reload();
    void loadDirectory(accountId, true).catch(() => undefined);
  };
  const remove = async (l: Label) => {
    try {
      await api("DELETE", `/api/v1/accounts/${accountId}/labels/${l.id}`);
      await changed(t("labelset.deleted", { title: l.title }));
    } catch (e) {
      message.value = describeError(e, t("labelset.delete_failed"));
    }
  };
  const loaded = labels.data.value;
  return (
    <div class="settings-stack">
      <section class="settings-card" aria-labelledby="labels-title">
        <h2 id="labels-title">{t("labelset.title")}</h2>
        <LoadState resource={labels} />
        <p role="status" class="form-status">
          {message.value}
        </p>
        {loaded?.list && loaded.list.length === 0 && <p>{t("labelset.none")}</p>}
        {loaded?.list && loaded.list.length > 0 && (
          <DataTable columns={[t("labelset.col.label"), t("labelset.col.description")]} actions>
            {loaded.list.map((l) => (
              <tr key={l.id}>
                <td>
                  <span class="swatch" style={{ background: l.color }} aria-hidden="true" />{" "}
                  <Link href={paths.settings(accountId, "labels", l.id)}>{l.title}</Link>
                </td>
                <td class="wrap">{l.description ?? ""}</td>
                <td>
                  <ConfirmButton
                    label={t("common.delete")}
                    target={l.title}
                    question={t("labelset.delete_question", { title: l.title })}
                    onConfirm={() => remove(l)}
                  />
                </td>
              </tr>
            ))}
          </DataTable>
        )}
      </section>
      {loaded?.list && (
        <LabelForm accountId={accountId} onSaved={(l) => changed(t("labelset.created", { title: l.title }))} />
      )}
    </div>
  );
}
