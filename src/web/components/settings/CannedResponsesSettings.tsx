// Settings › Canned responses: the account's saved replies (Chatwoot's canned_responses API), a form
// to add one, and Edit on each row (the form then changes it). In the reply box "/" and the short
// code insert one.
import { useSignal } from "@preact/signals";
import { api } from "../../lib/api.ts";
import type { CannedResponseItem as CannedResponse } from "../../lib/canned.ts";
import { describeError } from "../../lib/thread.ts";
import { useResource } from "../../lib/use-resource.ts";
import { useSubmit } from "../../lib/use-submit.ts";
import { Field, describedBy } from "../Field.tsx";
import type { SectionProps } from "../Settings.tsx";
import { TextInput } from "../TextInput.tsx";
import { EditableList, EditFormEnd } from "./EditableList.tsx";
import { t } from "../../lib/i18n.ts";

export function CannedResponsesSettings({ accountId }: SectionProps) {
  const base = `/api/v1/accounts/${accountId}/canned_responses`;
  const list = useResource(() => api<CannedResponse[]>("GET", base), [accountId], t("canned.what"));
  const message = useSignal("");
  const editing = useSignal<CannedResponse | null>(null);
  const shortCode = useSignal("");
  const content = useSignal("");
  const form = useSubmit(
    { short_code: t("canned.short_code"), content: t("canned.content") },
    "canned-",
    t("canned.saving_what"),
  );
  const edit = (c: CannedResponse | null) => {
    editing.value = c;
    shortCode.value = c?.short_code ?? "";
    content.value = c?.content ?? "";
    document.getElementById("canned-short_code")?.focus();
  };
  const submit = (e: SubmitEvent) => {
    e.preventDefault();
    void form.run(async () => {
      const body = { short_code: shortCode.value.trim(), content: content.value };
      const c = editing.value;
      const saved = await (c
        ? api<CannedResponse>("PATCH", `${base}/${c.id}`, body)
        : api<CannedResponse>("POST", base, body));
      edit(null);
      await list.reload();
      // Once the list shows the change: what screen readers (and the tests) wait for.
      message.value = t(c ? "canned.saved" : "canned.created", { code: saved.short_code });
    });
  };
  const remove = async (c: CannedResponse) => {
    try {
      await api("DELETE", `${base}/${c.id}`);
      await list.reload();
      message.value = t("canned.deleted", { code: c.short_code });
    } catch (error) {
      message.value = describeError(error, t("canned.delete_failed"));
    }
  };
  const errors = form.errors.value;
  return (
    <div class="settings-stack">
      <EditableList<CannedResponse>
        id="canned-title"
        title={t("canned.title")}
        hint={t("canned.hint")}
        none={t("canned.none")}
        list={list}
        message={message.value}
        columns={[t("canned.short_code"), t("canned.content")]}
        cells={(c) => (
          <>
            <td>
              <code>/{c.short_code}</code>
            </td>
            <td class="wrap">{c.content}</td>
          </>
        )}
        name={(c) => `/${c.short_code}`}
        editLabel={(c) => t("canned.edit", { code: c.short_code })}
        question={(c) => t("canned.delete_question", { code: c.short_code })}
        onEdit={edit}
        onDelete={remove}
      />
      <form class="settings-card" onSubmit={submit} noValidate aria-labelledby="canned-form-title">
        <h2 id="canned-form-title">
          {editing.value ? t("canned.edit", { code: editing.value.short_code }) : t("canned.add_title")}
        </h2>
        <Field
          id="canned-short_code"
          label={t("canned.short_code")}
          error={errors.short_code}
          hint={t("canned.code_hint")}
        >
          <TextInput {...describedBy("canned-short_code", errors.short_code, true)} maxLength={100} value={shortCode} />
        </Field>
        <Field id="canned-content" label={t("canned.content")} error={errors.content}>
          <textarea
            {...describedBy("canned-content", errors.content)}
            rows={4}
            value={content.value}
            onInput={(e) => (content.value = e.currentTarget.value)}
          />
        </Field>
        <EditFormEnd
          failure={form.failure.value}
          busy={form.busy.value}
          editing={editing.value !== null}
          saveLabel={t("canned.save")}
          createLabel={t("canned.create")}
          onCancel={() => edit(null)}
        />
      </form>
    </div>
  );
}
