// Settings › Macros (Chatwoot's macros API): the macros this member may run, with their visibility,
// author and number of actions, a form to add one, and Edit/Delete on those they may change (their
// own; an administrator: all). The one settings section agents may open too (Settings.mayOpen):
// they keep personal macros here. Each macro runs from the conversation screen's Macros menu.
import { useSignal } from "@preact/signals";
import { api } from "../../lib/api.ts";
import { t } from "../../lib/i18n.ts";
import { type Macro, mayChange } from "../../lib/macros.ts";
import { user } from "../../lib/session.ts";
import { describeError } from "../../lib/thread.ts";
import { useResource } from "../../lib/use-resource.ts";
import type { SectionProps } from "../Settings.tsx";
import { EditableList } from "./EditableList.tsx";
import { MacroForm } from "./MacroForm.tsx";

export function MacrosSettings({ accountId }: SectionProps) {
  const base = `/api/v1/accounts/${accountId}/macros`;
  const list = useResource(
    () => api<{ payload: Macro[] }>("GET", base).then((r) => r.payload),
    [accountId],
    t("macros.what"),
  );
  const message = useSignal("");
  const editing = useSignal<Macro | null>(null);
  const me = user.value;
  const administrator = me?.accounts.find((a) => a.id === accountId)?.role === "administrator";
  const edit = (macro: Macro | null) => {
    editing.value = macro;
    document.getElementById("macro-name")?.focus();
  };
  // Each message is set once the list shows the change: it is what screen readers (and the tests) wait for.
  const saved = async (name: string) => {
    const text = t(editing.value ? "macros.saved" : "macros.created", { name });
    editing.value = null;
    await list.reload();
    message.value = text;
  };
  const remove = async (macro: Macro) => {
    try {
      await api("DELETE", `${base}/${macro.id}`);
      if (editing.value?.id === macro.id) edit(null);
      await list.reload();
      message.value = t("macros.deleted", { name: macro.name });
    } catch (error) {
      message.value = describeError(error, t("macros.delete_failed"));
    }
  };
  return (
    <div class="settings-stack">
      <EditableList<Macro>
        id="macros-title"
        title={t("macros.title")}
        hint={t("macros.hint")}
        none={t("macros.none")}
        list={list}
        message={message.value}
        columns={[t("macros.name"), t("macros.visibility"), t("macros.author"), t("macros.count")]}
        cells={(m) => (
          <>
            <td class="wrap">{m.name}</td>
            <td>{t(`macros.vis.${m.visibility}`)}</td>
            <td>{m.created_by?.available_name ?? ""}</td>
            <td>{m.actions.length}</td>
          </>
        )}
        name={(m) => m.name}
        editLabel={(m) => t("macros.edit", { name: m.name })}
        question={(m) => t("macros.delete_question", { name: m.name })}
        onEdit={edit}
        onDelete={remove}
        editable={(m) => mayChange(m, me?.id ?? 0, administrator)}
      />
      {list.data.value && (
        <MacroForm
          key={editing.value?.id ?? "new"}
          accountId={accountId}
          macro={editing.value}
          administrator={administrator}
          onSaved={saved}
          onCancel={() => edit(null)}
        />
      )}
    </div>
  );
}
