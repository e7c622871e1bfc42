// A label's form, to add one or change one: title (Chatwoot lower-cases it and allows letters,
// digits, - and _; renaming retitles it on every conversation and contact), description, colour,
// and whether it is shown in the sidebar.
import { useSignal } from "@preact/signals";
import { api } from "../../lib/api.ts";
import { useSubmit } from "../../lib/use-submit.ts";
import { CheckField } from "../CheckField.tsx";
import { Field, describedBy } from "../Field.tsx";
import { FormFailure } from "../FormFailure.tsx";
import { TextInput } from "../TextInput.tsx";
import { SubmitButton } from "../SubmitButton.tsx";
import { t } from "../../lib/i18n.ts";

export interface Label {
  id: number;
  title: string;
  description: string | null;
  color: string;
  show_on_sidebar: boolean | null;
}

interface Props {
  accountId: number;
  /** The label to change; none: a new one. */
  label?: Label;
  onSaved(l: Label): Promise<void>;
}

export function LabelForm({ accountId, label, onSaved }: Props) {
  const title = useSignal(label?.title ?? "");
  const description = useSignal(label?.description ?? "");
  const color = useSignal(label?.color ?? "#1f93ff");
  const sidebar = useSignal(label?.show_on_sidebar ?? false);
  const form = useSubmit(
    {
      title: t("labelset.field_title"),
      description: t("labelset.col.description"),
      color: t("labelset.colour"),
      show_on_sidebar: t("labelset.sidebar"),
    },
    "label-",
    label ? t("labelset.saving_what") : t("labelset.creating_what"),
  );
  const submit = (e: SubmitEvent) => {
    e.preventDefault();
    void form.run(async () => {
      const body = {
        title: title.value.trim(),
        description: description.value.trim() || null,
        color: color.value,
        show_on_sidebar: sidebar.value,
      };
      const base = `/api/v1/accounts/${accountId}/labels`;
      const saved = await (label ? api<Label>("PATCH", `${base}/${label.id}`, body) : api<Label>("POST", base, body));
      if (!label) {
        title.value = "";
        description.value = "";
      } else title.value = saved.title;
      await onSaved(saved);
    });
  };
  const errors = form.errors.value;
  const heading = label ? t("labelset.edit_title", { title: label.title }) : t("labelset.add_title");
  return (
    <form class="settings-card" onSubmit={submit} noValidate aria-labelledby="label-form-title">
      <h2 id="label-form-title">{heading}</h2>
      <Field id="label-title" label={t("labelset.field_title")} error={errors.title} hint={t("labelset.title_hint")}>
        <TextInput {...describedBy("label-title", errors.title, true)} maxLength={255} value={title} />
      </Field>
      <Field id="label-description" label={t("teams.description_optional")} error={errors.description}>
        <TextInput {...describedBy("label-description", errors.description)} maxLength={255} value={description} />
      </Field>
      <Field id="label-color" label={t("labelset.colour")} error={errors.color}>
        <input
          {...describedBy("label-color", errors.color)}
          type="color"
          class="color-input"
          value={color.value}
          onInput={(e) => (color.value = e.currentTarget.value)}
        />
      </Field>
      <CheckField
        id="label-show_on_sidebar"
        label={t("labelset.show_sidebar")}
        value={sidebar}
        error={errors.show_on_sidebar}
      />
      <FormFailure message={form.failure.value} />
      <SubmitButton
        busy={form.busy.value}
        label={label ? t("labelset.save") : t("labelset.create")}
        busyLabel={label ? t("common.saving") : t("teams.creating")}
      />
    </form>
  );
}
