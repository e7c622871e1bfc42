// A new label: title (Chatwoot lower-cases it and allows letters, digits, - and _), description and
// colour. (show_on_sidebar is left to the server's default: Parley's label filter lists every label.)
import { useSignal } from "@preact/signals";
import { api } from "../../lib/api.ts";
import { useSubmit } from "../../lib/use-submit.ts";
import { Field, describedBy } from "../Field.tsx";
import { FormFailure } from "../FormFailure.tsx";
import { TextInput } from "../TextInput.tsx";
import { SubmitButton } from "../SubmitButton.tsx";

export interface Label {
  id: number;
  title: string;
  description: string | null;
  color: string;
  show_on_sidebar: boolean | null;
}

export function LabelForm({ accountId, onCreated }: { accountId: number; onCreated(l: Label): Promise<void> }) {
  const title = useSignal("");
  const description = useSignal("");
  const color = useSignal("#1f93ff");
  const form = useSubmit({ title: "Title", description: "Description", color: "Colour" }, "label-", "Creating the label");
  const submit = (e: SubmitEvent) => {
    e.preventDefault();
    void form.run(async () => {
      const body = { title: title.value.trim(), description: description.value.trim() || null, color: color.value };
      const label = await api<Label>("POST", `/api/v1/accounts/${accountId}/labels`, body);
      title.value = "";
      description.value = "";
      await onCreated(label);
    });
  };
  const errors = form.errors.value;
  return (
    <form class="settings-card" onSubmit={submit} noValidate aria-labelledby="new-label-title">
      <h2 id="new-label-title">Add a label</h2>
      <Field id="label-title" label="Title" error={errors["title"]} hint="Letters, digits, - and _; stored in lower case.">
        <TextInput {...describedBy("label-title", errors["title"], true)} maxLength={255} value={title} />
      </Field>
      <Field id="label-description" label="Description (optional)" error={errors["description"]}>
        <TextInput {...describedBy("label-description", errors["description"])} maxLength={255} value={description} />
      </Field>
      <Field id="label-color" label="Colour" error={errors["color"]}>
        <input {...describedBy("label-color", errors["color"])} type="color" class="color-input" value={color.value} onInput={(e) => (color.value = e.currentTarget.value)} />
      </Field>
      <FormFailure message={form.failure.value} />
      <SubmitButton busy={form.busy.value} label="Create label" busyLabel="Creating…" />
    </form>
  );
}
