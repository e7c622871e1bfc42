// A text input bound to a signal: typing writes the signal, changing the signal updates the input.
// (Preact 11 passes `ref` to function components as a prop, so a ref given here reaches the input.)
import type { Signal } from "@preact/signals";
import type { Ref } from "preact";

interface Props {
  id: string;
  value: Signal<string>;
  type?: "text" | "email" | "password";
  autocomplete?: string;
  required?: boolean;
  maxLength?: number;
  ref?: Ref<HTMLInputElement>;
  "aria-invalid"?: "true";
  "aria-describedby"?: string;
}

export function TextInput({ value, type = "text", ...rest }: Props) {
  // Preact's types choose an input's allowed attributes by one literal `type`; all three allow ours.
  return (
    <input {...rest} type={type as "text"} value={value.value} onInput={(e) => (value.value = e.currentTarget.value)} />
  );
}
