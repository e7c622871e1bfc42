// Settings › Canned responses: the account's saved replies (Chatwoot's canned_responses API), a form
// to add one, and Edit on each row (the form then changes it). In the reply box "/" and the short
// code insert one.
import { useSignal } from "@preact/signals";
import { api } from "../../lib/api.ts";
import type { CannedResponseItem as CannedResponse } from "../../lib/canned.ts";
import { describeError } from "../../lib/thread.ts";
import { useResource } from "../../lib/use-resource.ts";
import { useSubmit } from "../../lib/use-submit.ts";
import { ConfirmButton } from "../ConfirmButton.tsx";
import { DataTable } from "../DataTable.tsx";
import { Field, describedBy } from "../Field.tsx";
import { FormFailure } from "../FormFailure.tsx";
import { LoadState } from "../LoadState.tsx";
import type { SectionProps } from "../Settings.tsx";
import { SubmitButton } from "../SubmitButton.tsx";
import { TextInput } from "../TextInput.tsx";

export function CannedResponsesSettings({ accountId }: SectionProps) {
  const base = `/api/v1/accounts/${accountId}/canned_responses`;
  const list = useResource(() => api<CannedResponse[]>("GET", base), [accountId], "The canned responses");
  const message = useSignal("");
  const editing = useSignal<CannedResponse | null>(null);
  const shortCode = useSignal("");
  const content = useSignal("");
  const form = useSubmit({ short_code: "Short code", content: "Content" }, "canned-", "Saving the canned response");
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
      message.value = `/${saved.short_code} ${c ? "saved" : "created"}.`;
      edit(null);
      await list.reload();
    });
  };
  const remove = async (c: CannedResponse) => {
    try {
      await api("DELETE", `${base}/${c.id}`);
      message.value = `/${c.short_code} deleted.`;
      await list.reload();
    } catch (error) {
      message.value = describeError(error, "The canned response could not be deleted.");
    }
  };
  const rows = list.data.value;
  const errors = form.errors.value;
  return (
    <div class="settings-stack">
      <section class="settings-card" aria-labelledby="canned-title">
        <h2 id="canned-title">Canned responses</h2>
        <p class="hint">In the reply box, type / and the short code to insert one.</p>
        <LoadState resource={list} />
        <p role="status" class="form-status">
          {message.value}
        </p>
        {rows && rows.length === 0 && <p>No canned responses yet.</p>}
        {rows && rows.length > 0 && (
          <DataTable columns={["Short code", "Content"]} actions caption="Canned responses">
            {rows.map((c) => (
              <tr key={c.id}>
                <td>
                  <code>/{c.short_code}</code>
                </td>
                <td class="wrap">{c.content}</td>
                <td>
                  <button type="button" class="small" aria-label={`Edit /${c.short_code}`} onClick={() => edit(c)}>
                    Edit
                  </button>{" "}
                  <ConfirmButton
                    label="Delete"
                    target={`/${c.short_code}`}
                    question={`Delete /${c.short_code}?`}
                    onConfirm={() => remove(c)}
                  />
                </td>
              </tr>
            ))}
          </DataTable>
        )}
      </section>
      <form class="settings-card" onSubmit={submit} noValidate aria-labelledby="canned-form-title">
        <h2 id="canned-form-title">{editing.value ? `Edit /${editing.value.short_code}` : "Add a canned response"}</h2>
        <Field
          id="canned-short_code"
          label="Short code"
          error={errors.short_code}
          hint="One word: letters, digits, - and _."
        >
          <TextInput {...describedBy("canned-short_code", errors.short_code, true)} maxLength={100} value={shortCode} />
        </Field>
        <Field id="canned-content" label="Content" error={errors.content}>
          <textarea
            {...describedBy("canned-content", errors.content)}
            rows={4}
            value={content.value}
            onInput={(e) => (content.value = e.currentTarget.value)}
          />
        </Field>
        <FormFailure message={form.failure.value} />
        <SubmitButton
          busy={form.busy.value}
          label={editing.value ? "Save canned response" : "Create canned response"}
          busyLabel="Saving…"
        />
        {editing.value && (
          <button type="button" onClick={() => edit(null)}>
            Cancel
          </button>
        )}
      </form>
    </div>
  );
}
