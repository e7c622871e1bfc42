// Nobody is online: the visitor may leave an email address to get the reply there.
import { useState } from "preact/hooks";
import type { Strings } from "../lib/i18n.ts";
import type { ChatSession } from "../lib/session.ts";

export function EmailPrompt({ t, session }: { t: Strings; session: ChatSession }) {
  const [email, setEmail] = useState("");
  return (
    <form
      class="email-prompt"
      onSubmit={(e) => {
        e.preventDefault();
        if (email.trim()) void session.saveEmail(email.trim()).catch(() => {});
      }}
    >
      <label for="notify-email">{t.notify_me}</label>
      <div class="row">
        <input id="notify-email" type="email" value={email} onInput={(e) => setEmail(e.currentTarget.value)} />
        <button type="submit">{t.save}</button>
      </div>
    </form>
  );
}
