// The open conversation: its record and the messages loaded so far (the latest 20 first, older
// ones 20 at a time with `before`, newer ones from the live feed). Opening it marks it seen.
import { signal } from "@preact/signals";
import { ApiError, api } from "./api.ts";
import { conversationChanged } from "./conversation-list.ts";
import { firstPage, mergeMessages } from "./list-merge.ts";
import { live } from "./live.ts";
import { upload, uploadForm } from "./upload.ts";
import type { Conversation, Message, MessagePage } from "./types.ts";
import { t } from "./i18n.ts";

/** The server's page of messages without `after` (Chatwoot's latest 20, and 20 `before`). */
const MESSAGE_PAGE = 20;

export interface ThreadState {
  accountId: number;
  conversationId: number;
  conversation: Conversation | null;
  messages: Message[];
  hasOlder: boolean;
  loadingOlder: boolean;
  error: string | null;
  /** Counts the messages sent from here: the thread scrolls to its end for each. */
  sent: number;
}

export const thread = signal<ThreadState | null>(null);

const base = (s: { accountId: number; conversationId: number }) =>
  `/api/v1/accounts/${s.accountId}/conversations/${s.conversationId}`;
const isCurrent = (s: ThreadState) =>
  thread.value?.accountId === s.accountId && thread.value.conversationId === s.conversationId;

export function describeError(e: unknown, fallback: string): string {
  if (!(e instanceof ApiError)) return fallback;
  // Too large: the limit is in the item ("The file x.mp4 is larger than 41943040 bytes").
  if (e.status === 413 && e.errors[0]) return t("thread.not_sent", { reason: e.errors[0].message });
  return e.description;
}

export async function openThread(accountId: number, conversationId: number): Promise<void> {
  const s: ThreadState = {
    accountId,
    conversationId,
    conversation: null,
    messages: [],
    hasOlder: false,
    loadingOlder: false,
    error: null,
    sent: 0,
  };
  thread.value = s;
  try {
    const [conversation, page] = await Promise.all([
      api<Conversation>("GET", base(s)),
      api<MessagePage>("GET", `${base(s)}/messages`),
    ]);
    if (!isCurrent(s)) return;
    // Live messages may have come in while the page loaded: keep those the page does not hide.
    thread.value = {
      ...thread.value!,
      conversation,
      messages: firstPage(thread.value!.messages, page.payload, MESSAGE_PAGE),
      hasOlder: page.payload.length >= MESSAGE_PAGE,
    };
    void markSeen();
  } catch (e) {
    if (isCurrent(s)) thread.value = { ...thread.value!, error: describeError(e, t("thread.load_failed")) };
  }
}

export function closeThread(): void {
  thread.value = null;
}

export async function loadOlder(): Promise<void> {
  const s = thread.value;
  if (!s || s.loadingOlder || !s.hasOlder || s.messages.length === 0) return;
  thread.value = { ...s, loadingOlder: true };
  try {
    const page = await api<MessagePage>("GET", `${base(s)}/messages?before=${s.messages[0]!.id}`);
    if (!isCurrent(s)) return;
    const t = thread.value!;
    thread.value = {
      ...t,
      messages: mergeMessages(t.messages, page.payload),
      hasOlder: page.payload.length >= MESSAGE_PAGE,
      loadingOlder: false,
    };
  } catch (e) {
    if (isCurrent(s))
      thread.value = {
        ...thread.value!,
        loadingOlder: false,
        error: describeError(e, t("thread.older_failed")),
      };
  }
}

export function setConversation(c: Conversation): void {
  const s = thread.value;
  // The poller hands over the same record every few seconds: only a change re-renders.
  if (s?.conversation && s.conversation.id === c.id && JSON.stringify(s.conversation) === JSON.stringify(c)) return;
  if (s && s.conversationId === c.id) thread.value = { ...s, conversation: c };
  conversationChanged(c);
}

export function addMessages(messages: Message[]): void {
  const s = thread.value;
  if (!s) return;
  // An update of a message older than those loaded is not shown out of place: "older" loads it as it is.
  const oldest = s.hasOlder ? (s.messages[0]?.id ?? 0) : 0;
  const fresh = messages.filter((m) => m.conversation_id === s.conversationId && m.id >= oldest);
  if (fresh.length === 0) return;
  thread.value = { ...s, messages: mergeMessages(s.messages, fresh) };
  if (
    fresh.some((m) => m.message_type === 0 && m.id > (s.messages.at(-1)?.id ?? 0)) &&
    document.visibilityState === "visible"
  )
    void markSeen();
}

export function lastMessageId(): number {
  return thread.value?.messages.at(-1)?.id ?? 0;
}

/** The agent has read it: unread counts drop to zero (Chatwoot's update_last_seen). */
async function markSeen(): Promise<void> {
  const s = thread.value;
  if (!s) return;
  try {
    const c = await api<Conversation>("POST", `${base(s)}/update_last_seen`);
    if (isCurrent(s)) setConversation(c);
  } catch {
    // Not worth an error on screen: the next opening marks it again.
  }
}

/** After a change made here: the conversation's new state and any activity lines it added, now. */
export async function reloadThread(): Promise<void> {
  const s = thread.value;
  if (!s) return;
  const [c, page] = await Promise.all([
    api<Conversation>("GET", base(s)),
    api<MessagePage>("GET", `${base(s)}/messages?after=${lastMessageId()}`),
  ]);
  if (!isCurrent(s)) return;
  setConversation(c);
  addMessages(page.payload);
  live.refresh();
}

export async function sendMessage(
  content: string,
  isPrivate: boolean,
  files: readonly File[] = [],
  progress: (f: number) => void = () => {},
): Promise<void> {
  const s = thread.value;
  if (!s) return;
  const fields = { content, private: String(isPrivate), message_type: "outgoing" };
  const m =
    files.length > 0
      ? await upload<Message>(`${base(s)}/messages`, uploadForm(fields, files), progress)
      : await api<Message>("POST", `${base(s)}/messages`, { content, private: isPrivate, message_type: "outgoing" });
  if (isCurrent(s)) {
    addMessages([m]);
    thread.value = { ...thread.value!, sent: thread.value!.sent + 1 };
  }
  live.refresh();
}

/**
 * The agent will come back to it: its last incoming message counts as unread again (Chatwoot's
 * POST …/unread). The caller leaves the conversation, since looking at it marks it seen.
 */
export async function markUnread(): Promise<void> {
  const s = thread.value;
  if (!s) return;
  conversationChanged(await api<Conversation>("POST", `${base(s)}/unread`));
  live.refresh();
}

/** POST to one of the conversation's actions, then show its effect. */
export async function conversationAction(path: string, body: unknown): Promise<void> {
  const s = thread.value;
  if (!s) return;
  await api("POST", `${base(s)}/${path}`, body);
  await reloadThread();
}
