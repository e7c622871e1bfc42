// Live updates: what the screens are told when conversations and messages change elsewhere.
//
// The screens only see the `Live` interface. This first implementation polls the account API
// (page 1 of the list with its counts; the open conversation, then its messages `after` the last
// one shown) every few seconds, and only while the tab is visible. The realtime socket (/cable,
// issue 10) can replace it in this file alone: on an account event, refetch the list's first page
// (debounced) and hand messages of the open conversation straight to `onMessages`.
import { signal, type ReadonlySignal } from "@preact/signals";
import { api } from "./api.ts";
import type { Conversation, ConversationPage, Message, MessagePage } from "./types.ts";

export type Stop = () => void;

export interface ConversationWatch {
  /** The id of the newest message shown; only later ones are fetched. */
  lastMessageId(): number;
  onConversation(c: Conversation): void;
  onMessages(messages: Message[]): void;
}

export interface Live {
  /**
   * Calls onPage with page 1 of the list for query() (and its counts) whenever the list may have
   * changed; a null query() means "not now".
   */
  watchList(accountId: number, query: () => string | null, onPage: (page: ConversationPage, query: string) => void): Stop;
  /** Tells about changes of one conversation and its new messages. */
  watchConversation(accountId: number, conversationId: number, watch: ConversationWatch): Stop;
  /** Something changed here (the user acted, a filter changed): look again now, not at the next tick. */
  refresh(): void;
  /** "offline" while updates fail (the server cannot be reached). */
  readonly status: ReadonlySignal<"live" | "offline">;
}

type Tick = () => Promise<void>;

/** How often the poller looks: a few seconds keeps agents current at a small cost (two indexed reads a tick). */
const POLL_MS = 4000;

export function pollingLive(intervalMs = POLL_MS): Live {
  const status = signal<"live" | "offline">("live");
  const ticks = new Set<Tick>();
  const running = new WeakSet<Tick>();
  let timer: ReturnType<typeof setTimeout> | null = null;

  const runOne = async (tick: Tick) => {
    if (running.has(tick)) return; // the previous look has not answered yet
    running.add(tick);
    try {
      await tick();
      status.value = "live";
    } catch {
      status.value = "offline";
    } finally {
      running.delete(tick);
    }
  };

  const schedule = () => {
    if (timer) clearTimeout(timer);
    timer = null;
    if (ticks.size === 0 || document.visibilityState !== "visible") return;
    timer = setTimeout(() => {
      for (const tick of ticks) void runOne(tick);
      schedule();
    }, intervalMs);
  };

  const runNow = () => {
    if (document.visibilityState !== "visible") return;
    for (const tick of ticks) void runOne(tick);
    schedule();
  };

  document.addEventListener("visibilitychange", runNow);

  const add = (tick: Tick): Stop => {
    ticks.add(tick);
    schedule();
    return () => {
      ticks.delete(tick);
      if (ticks.size === 0) schedule();
    };
  };

  return {
    status,
    refresh: runNow,
    watchList(accountId, query, onPage) {
      return add(async () => {
        const q = query();
        if (q === null) return;
        const page = await api<ConversationPage>("GET", `/api/v1/accounts/${accountId}/conversations?${q}`);
        onPage(page, q);
      });
    },
    watchConversation(accountId, conversationId, watch) {
      const base = `/api/v1/accounts/${accountId}/conversations/${conversationId}`;
      return add(async () => {
        const c = await api<Conversation>("GET", base);
        watch.onConversation(c);
        const newest = c.messages[0]?.id ?? 0;
        const last = watch.lastMessageId();
        if (newest <= last) return;
        const page = await api<MessagePage>("GET", `${base}/messages?after=${last}`);
        watch.onMessages(page.payload);
      });
    },
  };
}

export const live: Live = pollingLive();
