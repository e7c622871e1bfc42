// Writing to the customer, or a private note for the team (the box turns note-coloured and says
// so). Enter sends, Shift+Enter starts a new line, Escape leaves the box (so shortcuts work again).
import { useSignal } from "@preact/signals";
import { useEffect, useMemo, useRef } from "preact/hooks";
import { REPLY_INPUT_ID, replyMode, type ReplyMode } from "../../lib/reply.ts";
import { describeError, sendMessage } from "../../lib/thread.ts";
import { TypingSender } from "../../lib/typing.ts";
import { encodeMentions } from "../../lib/completion.ts";
import { directory } from "../../lib/directory.ts";
import { user } from "../../lib/session.ts";
import { setSigning, signed, signing } from "../../lib/signature.ts";
import type { Agent } from "../../lib/types.ts";
import { mentionOf } from "../../../shared/mentions.ts";
import { AttachButton, DraftFileList, useDraftFiles } from "./DraftFiles.tsx";
import { EmojiPicker } from "./EmojiPicker.tsx";
import { useCompletion } from "./useCompletion.tsx";
import { useCannedResponses, type CannedResponseItem } from "../../lib/canned.ts";
import { type Key, t } from "../../lib/i18n.ts";

const MODES: { key: ReplyMode; label: Key }[] = [
  { key: "reply", label: "reply.reply" },
  { key: "note", label: "reply.note" },
];

/** Keys that move the caret without typing: the completion at the new place is looked up again. */
const CARET_KEYS = new Set(["ArrowLeft", "ArrowRight", "Home", "End"]);

export function ReplyBox({
  accountId,
  contactName,
  typingUrl,
}: {
  accountId: number;
  contactName: string;
  typingUrl: string;
}) {
  const text = useSignal("");
  const error = useSignal<string | null>(null);
  const sending = useSignal(false);
  const draft = useDraftFiles();
  const mode = replyMode.value;
  const typing = useMemo(() => new TypingSender(typingUrl, () => replyMode.peek() === "note"), [typingUrl]);
  useEffect(() => () => typing.stopped(), [typing]);
  // "@" in a private note picks an agent; the note is sent with Chatwoot's mention links.
  const mentioned = useRef(new Map<string, string>());
  const mentions = useCompletion<Agent>({
    id: "mention",
    trigger: "@",
    text,
    items: () => (mode === "note" ? (directory.value?.agents ?? []) : null),
    name: (a) => a.available_name,
    describe: (a) => `${a.available_name} (${a.email})`,
    insert: (a) => `@${a.available_name} `,
    chosen: (a) => mentioned.current.set(a.available_name, mentionOf(a.id, a.available_name)),
  });

  const send = async () => {
    const content = text.value.trim();
    const files = draft.files.value;
    if (sending.value || (content === "" && files.length === 0)) return;
    sending.value = true;
    error.value = null;
    typing.stopped();
    if (files.length > 0) draft.progress.value = 0;
    try {
      await sendMessage(
        mode === "note"
          ? encodeMentions(content, mentioned.current)
          : signed(content, user.value?.message_signature, signing.value),
        mode === "note",
        files,
        (p) => (draft.progress.value = p),
      );
      text.value = "";
      draft.clear();
      mentioned.current.clear();
    } catch (e) {
      // The text and the files stay for another try.
      draft.progress.value = null;
      error.value = describeError(e, t("reply.send_failed"));
    } finally {
      sending.value = false;
    }
  };

  const refresh = (box: HTMLTextAreaElement) => {
    mentions.refresh(box);
    responses.refresh(box);
  };

  // An emoji goes where the caret was, and the caret after it.
  const insertAtCaret = (piece: string) => {
    const box = document.getElementById(REPLY_INPUT_ID) as HTMLTextAreaElement | null;
    const at = box?.selectionStart ?? text.value.length;
    const end = box?.selectionEnd ?? at;
    text.value = text.value.slice(0, at) + piece + text.value.slice(end);
    if (box) {
      box.value = text.value;
      box.focus();
      box.setSelectionRange(at + piece.length, at + piece.length);
    }
  };

  // "/" at the start of a line picks a canned response: its content replaces the short code.
  const canned = useCannedResponses(accountId);
  const responses = useCompletion<CannedResponseItem>({
    id: "canned",
    trigger: "/",
    lineStart: true,
    text,
    items: () => canned.value,
    name: (c) => c.short_code,
    describe: (c) => `/${c.short_code}: ${c.content.length > 60 ? `${c.content.slice(0, 60)}…` : c.content}`,
    insert: (c) => c.content,
  });

  const onKeyDown = (e: KeyboardEvent) => {
    if (mentions.onKeyDown(e) || responses.onKeyDown(e)) return;
    if (e.key === "Enter" && !e.shiftKey && !e.isComposing) {
      e.preventDefault();
      void send();
    } else if (e.key === "Escape") {
      (e.currentTarget as HTMLElement).blur();
    }
  };

  const label = mode === "note" ? t("reply.note_label") : t("reply.reply_label", { name: contactName });
  return (
    <form class={`reply-box ${mode}`} onSubmit={(e) => (e.preventDefault(), void send())} {...draft.dropProps}>
      <div class="reply-modes" role="group" aria-label={t("reply.mode")}>
        {MODES.map((m) => (
          <button
            key={m.key}
            type="button"
            class="tab-button"
            aria-pressed={mode === m.key}
            onClick={() => (replyMode.value = m.key)}
          >
            {t(m.label)}
          </button>
        ))}
      </div>
      <label for={REPLY_INPUT_ID} class="visually-hidden">
        {label}
      </label>
      <textarea
        id={REPLY_INPUT_ID}
        rows={3}
        placeholder={mode === "note" ? t("reply.note_placeholder") : t("reply.reply_placeholder")}
        value={text.value}
        onInput={(e) => ((text.value = e.currentTarget.value), typing.typed(), refresh(e.currentTarget))}
        onClick={(e) => refresh(e.currentTarget)}
        onKeyUp={(e) => CARET_KEYS.has(e.key) && refresh(e.currentTarget)}
        {...(responses.list ? responses.boxProps : mentions.boxProps)}
        onBlur={() => typing.stopped()}
        onPaste={draft.onPaste}
        onKeyDown={onKeyDown}
        aria-describedby={error.value ? "reply-error" : undefined}
      />
      {mentions.list}
      {responses.list}
      <DraftFileList draft={draft} />
      {error.value && (
        <p id="reply-error" class="field-error" role="alert">
          {error.value}
        </p>
      )}
      <div class="reply-actions">
        <EmojiPicker onPick={insertAtCaret} />
        <AttachButton draft={draft} />
        {mode === "reply" && user.value?.message_signature && (
          <button
            type="button"
            class="tab-button"
            aria-pressed={signing.value}
            title={t("reply.sign_hint")}
            onClick={() => setSigning(!signing.value)}
          >
            {t("reply.sign")}
          </button>
        )}
        <button
          type="submit"
          class="primary"
          aria-disabled={
            sending.value || (text.value.trim() === "" && draft.files.value.length === 0) ? "true" : undefined
          }
        >
          {sending.value ? t("reply.sending") : mode === "note" ? t("reply.add_note") : t("reply.send")}
        </button>
      </div>
    </form>
  );
}
