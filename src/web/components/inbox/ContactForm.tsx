// Editing a contact's name, email and phone. The server checks them; its 422 answer names each
// field, and each message is shown under its field.
import { useSignal } from "@preact/signals";
import { useEffect, useRef } from "preact/hooks";
import { api } from "../../lib/api.ts";
import { reloadThread } from "../../lib/thread.ts";
import type { Contact } from "../../lib/types.ts";
import { useSubmit } from "../../lib/use-submit.ts";
import { Field, describedBy } from "../Field.tsx";
import { FormFailure } from "../FormFailure.tsx";
import { TextInput } from "../TextInput.tsx";
import { SubmitButton } from "../SubmitButton.tsx";

const FIELDS = [
  { key: "name", label: "Name", type: "text", autocomplete: "name" },
  { key: "email", label: "Email", type: "email", autocomplete: "email" },
  { key: "phone_number", label: "Phone number", type: "text", autocomplete: "tel" },
] as const;

interface Props {
  accountId: number;
  contact: Contact;
  onSaved(c: Contact): void;
  onCancel(): void;
}

export function ContactForm({ accountId, contact, onSaved, onCancel }: Props) {
  const values = { name: useSignal(contact.name ?? ""), email: useSignal(contact.email ?? ""), phone_number: useSignal(contact.phone_number ?? "") };
  const form = useSubmit(Object.fromEntries(FIELDS.map((f) => [f.key, f.label])), "contact-", "Saving the contact");
  const first = useRef<HTMLInputElement>(null);
  useEffect(() => first.current?.focus(), []);

  const submit = (e: SubmitEvent) => {
    e.preventDefault();
    const body = { name: values.name.value.trim(), email: values.email.value.trim() || null, phone_number: values.phone_number.value.trim() || null };
    void form.run(async () => {
      const r = await api<{ payload: Contact }>("PATCH", `/api/v1/accounts/${accountId}/contacts/${contact.id}`, body);
      onSaved(r.payload);
      void reloadThread().catch(() => undefined); // the conversation's header shows the new name
    });
  };

  return (
    <form class="contact-form" onSubmit={submit} noValidate aria-label="Edit contact">
      {FIELDS.map((f, i) => {
        const id = `contact-${f.key}`;
        const error = form.errors.value[f.key];
        return (
          <Field key={f.key} id={id} label={f.label} error={error}>
            <TextInput {...describedBy(id, error)} ref={i === 0 ? first : undefined} type={f.type} autocomplete={f.autocomplete} maxLength={255} value={values[f.key]} />
          </Field>
        );
      })}
      <FormFailure message={form.failure.value} />
      <div class="form-actions">
        <SubmitButton busy={form.busy.value} label="Save contact" busyLabel="Saving…" />
        <button type="button" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </form>
  );
}
