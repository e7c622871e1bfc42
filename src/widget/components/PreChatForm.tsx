// The pre-chat form: the inbox's enabled fields (name, email, phone, custom attributes; each
// required or optional) and the first message. Standard fields go to the contact, the others to
// the contact's or the conversation's custom attributes.
import { useState } from "preact/hooks";
import type { ChannelConfig, PreChatField } from "../lib/api.ts";
import { fill, type Strings } from "../lib/i18n.ts";
import type { ChatSession } from "../lib/session.ts";

const STANDARD: Record<string, "name" | "email" | "phone_number"> = {
  fullName: "name",
  emailAddress: "email",
  phoneNumber: "phone_number",
};
const INPUT_TYPES: Record<string, string> = {
  email: "email",
  number: "number",
  phone: "tel",
  date: "date",
  link: "url",
  text: "text",
};

export const preChatFields = (config: ChannelConfig) =>
  (config.pre_chat_form_options?.pre_chat_fields ?? []).filter((f) => f.enabled);

function Input({ field, value, onInput }: { field: PreChatField; value: string; onInput: (v: string) => void }) {
  const id = `f-${field.name}`;
  const common = { id, name: field.name, required: field.required, "aria-required": field.required };
  if (field.type === "list")
    return (
      <select {...common} value={value} onChange={(e) => onInput(e.currentTarget.value)}>
        <option value="" />
        {(field.values ?? []).map((v) => (
          <option key={v} value={v}>
            {v}
          </option>
        ))}
      </select>
    );
  if (field.type === "checkbox")
    return (
      <input
        {...common}
        type="checkbox"
        checked={value === "true"}
        onChange={(e) => onInput(e.currentTarget.checked ? "true" : "")}
      />
    );
  return (
    <input
      {...common}
      type={(INPUT_TYPES[field.type] ?? "text") as "text"}
      value={value}
      placeholder={field.placeholder ?? ""}
      onInput={(e) => onInput(e.currentTarget.value)}
    />
  );
}

export function PreChatForm({
  config,
  fields,
  t,
  session,
}: {
  config: ChannelConfig;
  fields: PreChatField[];
  t: Strings;
  session: ChatSession;
}) {
  const [values, setValues] = useState<Record<string, string>>({});
  const [message, setMessage] = useState("");
  const [problem, setProblem] = useState<string | null>(null);
  const submit = async (e: Event) => {
    e.preventDefault();
    const missing = fields.find((f) => f.required && !(values[f.name] ?? "").trim());
    if (missing) return setProblem(fill(t.required, { field: missing.label }));
    if (values.emailAddress && !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(values.emailAddress))
      return setProblem(t.invalid_email);
    if (!message.trim()) return setProblem(fill(t.required, { field: t.message }));
    const contact: Record<string, string> = {};
    const contactAttributes: Record<string, unknown> = {};
    const conversationAttributes: Record<string, unknown> = {};
    for (const f of fields) {
      const v = (values[f.name] ?? "").trim();
      if (!v) continue;
      const standard = STANDARD[f.name];
      if (f.field_type === "standard" && standard) contact[standard] = v;
      else if (f.field_type === "conversation_attribute")
        conversationAttributes[f.name] = f.type === "checkbox" ? true : v;
      else contactAttributes[f.name] = f.type === "checkbox" ? true : v;
    }
    setProblem(null);
    await session.send(message.trim(), { contact, contactAttributes, conversationAttributes }).catch(() => {});
  };
  return (
    <form class="prechat" onSubmit={submit} noValidate>
      {config.pre_chat_form_options.pre_chat_message && <p>{config.pre_chat_form_options.pre_chat_message}</p>}
      {fields.map((f) => (
        <div class={`field ${f.type === "checkbox" ? "check" : ""}`} key={f.name}>
          <label for={`f-${f.name}`}>
            {f.label}
            {f.required && <span aria-hidden="true"> *</span>}
          </label>
          <Input field={f} value={values[f.name] ?? ""} onInput={(v) => setValues({ ...values, [f.name]: v })} />
        </div>
      ))}
      <div class="field">
        <label for="f-message">{t.message}</label>
        <textarea id="f-message" rows={3} value={message} required onInput={(e) => setMessage(e.currentTarget.value)} />
      </div>
      {problem && (
        <p class="error" role="alert">
          {problem}
        </p>
      )}
      <button type="submit" class="primary" disabled={session.state.sending}>
        {t.start}
      </button>
    </form>
  );
}
