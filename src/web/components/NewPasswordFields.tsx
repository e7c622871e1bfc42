// A new password typed twice, for the reset link's page and the profile's password form.
import type { Signal } from "@preact/signals";
import { t } from "../lib/i18n.ts";
import { Field, describedBy } from "./Field.tsx";
import { TextInput } from "./TextInput.tsx";

interface Props {
  /** The first field's id; the second's is this + "_confirmation" (the server's field names). */
  id: string;
  password: Signal<string>;
  again: Signal<string>;
  errors: { password?: string | undefined; again?: string | undefined };
}

export function NewPasswordFields({ id, password, again, errors }: Props) {
  const second = `${id}_confirmation`;
  return (
    <>
      <Field id={id} label={t("reset.new_password")} hint={t("reset.hint")} error={errors.password}>
        <TextInput
          {...describedBy(id, errors.password, true)}
          type="password"
          autocomplete="new-password"
          required
          value={password}
        />
      </Field>
      <Field id={second} label={t("reset.confirm")} error={errors.again}>
        <TextInput
          {...describedBy(second, errors.again)}
          type="password"
          autocomplete="new-password"
          required
          value={again}
        />
      </Field>
    </>
  );
}
