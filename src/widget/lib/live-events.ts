// What each event on the visitor's live stream does to the chat: a reply or an edit lands in the
// thread (a message of another conversation reloads it), the agent's typing shows, a status change
// is taken, and a new agent reply is counted as unread or marked seen. Apart from session.ts, which
// owns the state and the calls to the server; this only reacts to what the stream brings.
import type { CableEvent } from "../../shared/cable.ts";
import type { Message } from "./api.ts";
import { tell } from "./bridge.ts";
import type { ChatState } from "./session.ts";

/** Message types from the agent's side (outgoing, template): unread replies the host page hears of. */
export const AGENT_SIDE = new Set([1, 3]);

/** What of the session (ChatSession) the stream's events read and change. */
export interface LiveChat {
  readonly state: ChatState;
  set(patch: Partial<ChatState>): void;
  reload(): Promise<void>;
  upsert(m: Message): void;
  markSeen(): Promise<void>;
}

export function onEvent(chat: LiveChat, e: CableEvent): void {
  const d = e.data as Record<string, any>;
  if (e.event === "message.created" || e.event === "message.updated") {
    if (d.private) return;
    const current = chat.state.conversation?.id;
    if (current !== undefined && d.conversation_id !== current) return void chat.reload();
    const m = d as unknown as Message;
    const isNew = !chat.state.messages.some((x) => x.id === m.id);
    if (current === undefined) return void chat.reload();
    chat.upsert(m);
    if (e.event === "message.created" && isNew && AGENT_SIDE.has(m.message_type)) agentMessage(chat, m);
  } else if (e.event === "conversation.typing_on" || e.event === "conversation.typing_off") {
    const on = e.event === "conversation.typing_on" && d.conversation?.id === chat.state.conversation?.id;
    chat.set({ agentTyping: on ? String(d.user?.available_name ?? d.user?.name ?? "") : null });
  } else if (e.event === "conversation.status_changed" || e.event === "conversation.updated") {
    if (d.id === chat.state.conversation?.id)
      chat.set({ conversation: { ...chat.state.conversation, status: String(d.status) } });
  }
}

function agentMessage(chat: LiveChat, m: Message): void {
  chat.set({ agentTyping: null });
  tell("message", {
    id: m.id,
    content: m.content,
    message_type: m.message_type,
    content_type: m.content_type,
    created_at: m.created_at,
    conversation_id: m.conversation_id,
  });
  if (chat.state.open) void chat.markSeen();
  else {
    chat.set({ unread: chat.state.unread + 1 });
    tell("unread", { count: chat.state.unread });
  }
}
