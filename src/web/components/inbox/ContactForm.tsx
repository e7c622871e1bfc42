// Creating a contact, or editing one's name, email, phone and custom attributes. The server checks
// them; its 422 answer names each field, and each message is shown under its field. Custom
// attributes are merged by PATCH; the ones removed here go with a second call
// (destroy_custom_attributes).
import { useSignal } from "@preact/signals";
import { attributeChanges, attributeRows } from "../../lib/custom-attributes.ts";
import { useEffect, useRef } from "preact/hooks";
import { api } from "../../lib/api.ts";
import { reloadThread } from "../../lib/thread.ts";
import type { Contact } from "../../lib/types.ts";
import { useSubmit } from "../../lib/use-submit.ts";
import { Field, describedBy } from "../Field.tsx";
import { FormFailure } from "../FormFailure.tsx";
import { TextInput } from "../TextInput.tsx";
import { SubmitButton } from "../SubmitButton.tsx";
import { CustomAttributeRows } from "./CustomAttributeRows.tsx";
import { t } from "../../lib/i18n.ts";

const FIELDS = [
  { key: "name", label: "contact_form.name", type: "text", autocomplete: "name" },
  { key: "email", label: "contact_form.email", type: "email", autocomplete: "email" },
  { key: "phone_number", label: "contact_form.phone", type: "text", autocomplete: "tel" },
] as const;

interface Props {
  accountId: number;
  /** null: a new contact. */
  contact: Contact | null;
  onSaved(c: Contact): void;
  onCancel(): void;
}

export function ContactForm({ accountId, contact, onSaved, onCancel }: Props) {
  const values = {
    name: useSignal(contact?.name ?? ""),
    email: useSignal(contact?.email ?? ""),
    phone_number: useSignal(contact?.phone_number ?? ""),
  };
  const custom = useSignal(attributeRows(contact?.custom_attributes ?? {}));
  const rowErrors = useSignal<Record<number, string>>({});
  const form = useSubmit(
    { ...Object.fromEntries(FIELDS.map((f) => [f.key, t(f.label)])), custom_attributes: t("attributes.title") },
    "contact-",
    t("contact_form.saving"),
  );
  const first = useRef<HTMLInputElement>(null);
  useEffect(() => first.current?.focus(), []);

  const submit = (e: SubmitEvent) => {
    e.preventDefault();
    const changes = attributeChanges(contact?.custom_attributes ?? {}, custom.value);
    rowErrors.value = changes.errors;
    const firstBad = Object.keys(changes.errors)[0];
    if (firstBad !== undefined) return document.getElementById(`custom-attribute-${firstBad}-key`)?.focus();
    const body = {
      name: values.name.value.trim(),
      email: values.email.value.trim() || null,
      phone_number: values.phone_number.value.trim() || null,
      ...(Object.keys(changes.set).length > 0 ? { custom_attributes: changes.set } : {}),
    };
    const contacts = `/api/v1/accounts/${accountId}/contacts`;
    if (!contact) {
      return void form.run(async () =>
        onSaved((await api<{ payload: { contact: Contact } }>("POST", contacts, body)).payload.contact),
      );
    }
    const url = `${contacts}/${contact.id}`;
    void form.run(async () => {
      let r = await api<{ payload: Contact }>("PATCH", url, body);
      if (changes.remove.length > 0)
        r = await api<{ payload: Contact }>("POST", `${url}/destroy_custom_attributes`, {
          custom_attributes: changes.remove,
        });
      onSaved(r.payload);
      void reloadThread().catch(() => undefined); // the conversation's header shows the new name
    });
  };

  return (
    <form
      class="contact-form"
      onSubmit={submit}
      noValidate
      aria-label={contact ? t("contact_form.edit") : t("contact_form.new")}
    >
      {FIELDS.map((f, i) => {
        const id = `contact-${f.key}`;
        const error = form.errors.value[f.key];
        return (
          <Field key={f.key} id={id} label={t(f.label)} error={error}>
            <TextInput
              {...describedBy(id, error)}
              ref={i === 0 ? first : undefined}
              type={f.type}
              autocomplete={f.autocomplete}
              maxLength={255}
              value={values[f.key]}
            />
          </Field>
        );
      })}
      <CustomAttributeRows rows={custom} errors={rowErrors.value} />
      {form.errors.value.custom_attributes && <p class="field-error">{form.errors.value.custom_attributes}</p>}
      <FormFailure message={form.failure.value} />
      <div class="form-actions">
        <SubmitButton
          busy={form.busy.value}
          label={contact ? t("contact_form.save") : t("contact_form.create")}
          busyLabel={t("common.saving")}
        />
        <button type="button" onClick={onCancel}>
          {t("common.cancel")}
        </button>
      </div>
    </form>
  );
}
