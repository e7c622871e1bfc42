// The reply box's mode (a reply to the customer, or a private note for the team), shared so the
// keyboard shortcuts (r, p) can choose it and put the cursor in the box.
import { signal } from "@preact/signals";

export type ReplyMode = "reply" | "note";

export const replyMode = signal<ReplyMode>("reply");

export const REPLY_INPUT_ID = "reply-text";

export function focusReply(mode: ReplyMode): void {
  replyMode.value = mode;
  document.getElementById(REPLY_INPUT_ID)?.focus();
}
