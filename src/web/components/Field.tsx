// A labelled form control with its error message tied to it (aria-describedby / aria-invalid).
import type { ComponentChildren } from "preact";

interface Props {
  id: string;
  label: string;
  error?: string | undefined;
  hint?: string;
  children: ComponentChildren;
}

export function Field({ id, label, error, hint, children }: Props) {
  return (
    <div class={error ? "field invalid" : "field"}>
      <label for={id}>{label}</label>
      {hint && (
        <p class="hint" id={`${id}-hint`}>
          {hint}
        </p>
      )}
      {children}
      {error && (
        <p class="field-error" id={`${id}-error`}>
          {error}
        </p>
      )}
    </div>
  );
}

/** The attributes a control inside <Field> needs to point at its hint and error. */
export function describedBy(id: string, error: string | undefined, hint = false) {
  const ids = [hint ? `${id}-hint` : "", error ? `${id}-error` : ""].filter(Boolean).join(" ");
  return { id, "aria-invalid": error ? ("true" as const) : undefined, "aria-describedby": ids || undefined };
}
