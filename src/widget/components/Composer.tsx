// The message box: Enter sends, Shift+Enter breaks the line; typing tells the agents.
import { useRef, useState } from "preact/hooks";
import type { Strings } from "../lib/i18n.ts";
import type { ChatSession } from "../lib/session.ts";

export function Composer({ t, session, disabled }: { t: Strings; session: ChatSession; disabled: boolean }) {
  const [text, setText] = useState("");
  const picker = useRef<HTMLInputElement>(null);
  const send = async () => {
    const content = text.trim();
    if (!content || disabled) return;
    setText("");
    await session.send(content).catch(() => setText(content));
  };
  return (
    <form
      class="composer"
      onSubmit={(e) => {
        e.preventDefault();
        void send();
      }}
    >
      <label class="sr" for="composer-text">
        {t.message}
      </label>
      <textarea
        id="composer-text"
        rows={1}
        placeholder={t.placeholder}
        value={text}
        onInput={(e) => {
          setText(e.currentTarget.value);
          session.typing();
        }}
        onKeyDown={(e) => {
          if (e.key === "Enter" && !e.shiftKey) {
            e.preventDefault();
            void send();
          }
        }}
      />
      <input
        ref={picker}
        type="file"
        class="sr"
        tabIndex={-1}
        aria-hidden="true"
        onChange={(e) => {
          for (const f of Array.from(e.currentTarget.files ?? [])) void session.sendFile(f);
          e.currentTarget.value = "";
        }}
      />
      <button
        type="button"
        class="attach"
        disabled={disabled}
        aria-label={t.attach}
        title={t.attach}
        onClick={() => picker.current?.click()}
      >
        📎
      </button>
      <button type="submit" class="send" disabled={disabled || !text.trim()} aria-label={t.send}>
        ➤
      </button>
    </form>
  );
}
