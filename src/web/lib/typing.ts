// Typing, both ways. Who is typing in the open conversation (the contact, another agent) comes over
// the socket as conversation.typing_on/off; a typing_on that is never followed by its off (the
// typist's page closed) lapses after a while. What this agent types is told to the server (and so to
// the contact's widget and the other agents): on at the first key, off after a pause, on sending
// and on leaving the box — at most one request per change, not one per key.
import { signal } from "@preact/signals";
import { api } from "./api.ts";
import { t } from "./i18n.ts";

/** How long someone counts as typing after their last typing_on without an off. */
export const TYPING_LAPSE_MS = 30_000;
/** How long this agent's pause may be before the others are told they stopped. */
export const TYPING_PAUSE_MS = 3_000;

interface Typist {
  key: string;
  name: string;
  timer: ReturnType<typeof setTimeout>;
}

/** The names typing in the open conversation now. */
export const typists = signal<string[]>([]);
const current = new Map<string, Typist>();
let watched: number | null = null;

function publish(): void {
  typists.value = [...current.values()].map((t) => t.name);
}

/** A new conversation is open: nobody types in it yet. */
export function watchTyping(conversationId: number | null): void {
  watched = conversationId;
  for (const t of current.values()) clearTimeout(t.timer);
  current.clear();
  publish();
}

/** conversation.typing_on / typing_off from the socket. */
export function typingEvent(event: string, data: Record<string, unknown>): void {
  const conversation = data.conversation as { id?: unknown } | null;
  const user = data.user as { id?: unknown; name?: unknown; type?: unknown } | null;
  if (!conversation || conversation.id !== watched || !user) return;
  const key = `${user.type ?? "user"}:${user.id}`;
  const known = current.get(key);
  if (known) clearTimeout(known.timer);
  if (event === "conversation.typing_off") current.delete(key);
  else {
    const timer = setTimeout(() => (current.delete(key), publish()), TYPING_LAPSE_MS);
    current.set(key, {
      key,
      name: typeof user.name === "string" && user.name ? user.name : t("typing.someone"),
      timer,
    });
  }
  publish();
}

/** One reply box's side: tells the server when this agent starts and stops typing. */
export class TypingSender {
  private on = false;
  private pause: ReturnType<typeof setTimeout> | null = null;

  constructor(
    private readonly url: string,
    private readonly isPrivate: () => boolean,
  ) {}

  /** A key in the box. */
  typed(): void {
    if (this.pause) clearTimeout(this.pause);
    this.pause = setTimeout(() => this.stopped(), TYPING_PAUSE_MS);
    if (!this.on) this.tell(true);
  }

  /** Sent, left the box, or the box went away. */
  stopped(): void {
    if (this.pause) clearTimeout(this.pause);
    this.pause = null;
    if (this.on) this.tell(false);
  }

  private tell(on: boolean): void {
    this.on = on;
    // Typing is a courtesy: a failed request is not worth telling the agent about.
    void api("POST", this.url, { typing_status: on ? "on" : "off", is_private: this.isPrivate() }).catch(
      () => undefined,
    );
  }
}
