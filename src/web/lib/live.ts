// Live updates: what the screens are told when conversations and messages change elsewhere.
//
// The screens only see the `Live` interface. Updates come from the realtime socket (/cable, one
// per account being watched; see cable-socket.ts): a conversation or message event refetches page 1
// of the list (coalesced: at most one request per ~150 ms), message events of the open conversation
// go into its thread as they are, and a change of the open conversation refetches it. After a drop
// the socket reconnects with `since`, so the server replays what was missed; a "resync" (too far
// behind) or a first subscription reads everything again over HTTP.
//
// While the socket is down a slow poll (every 30 s) keeps the screens roughly current: a reverse
// proxy that does not pass WebSocket upgrades would otherwise leave agents with no updates at all.
import { signal, type ReadonlySignal } from "@preact/signals";
import { api } from "./api.ts";
import { interestOf, type CableEvent } from "../../shared/cable.ts";
import { AccountCable, type CableHandlers } from "./cable-socket.ts";
import type { Conversation, ConversationPage, Message, MessagePage } from "./types.ts";
import { typingEvent } from "./typing.ts";

export type Stop = () => void;

export interface ConversationWatch {
  /** The id of the newest message shown; only later ones are fetched. */
  lastMessageId(): number;
  onConversation(c: Conversation): void;
  onMessages(messages: Message[]): void;
}

export interface NotificationWatch {
  onCreated(data: Record<string, unknown>): void;
  reload(): void;
}

export interface Live {
  /**
   * Calls onPage with page 1 of the list for query() (and its counts) whenever the list may have
   * changed; a null query() means "not now".
   */
  watchList(
    accountId: number,
    query: () => string | null,
    onPage: (page: ConversationPage, query: string) => void,
  ): Stop;
  /** Tells about changes of one conversation and its new messages. */
  watchConversation(accountId: number, conversationId: number, watch: ConversationWatch): Stop;
  /**
   * Tells the user's notification.created events; `reload` when some may have been missed (the
   * socket was down: notifications are not replayed, the list is the record).
   */
  watchNotifications(accountId: number, watch: NotificationWatch): Stop;
  /** Something changed here (the user acted, a filter changed): look again now, not at the next tick. */
  refresh(): void;
  /** "offline" while the socket is down (updates then come only from the slow poll). */
  readonly status: ReadonlySignal<"live" | "offline">;
}

/** Coalesces the refetches one burst of events asks for (a reply is a message and a conversation update). */
export const COALESCE_MS = 150;
export const FALLBACK_POLL_MS = 30_000;

/** A refetch that runs at most once at a time; asked again while running, it runs once more after. */
class Fetcher {
  private timer: ReturnType<typeof setTimeout> | null = null;
  private running = false;
  private again = false;
  /** Asked while the tab was hidden: runs when it is shown. */
  private stale = false;
  constructor(
    readonly accountId: number,
    private readonly fetch: () => Promise<void>,
  ) {}

  soon(): void {
    if (document.visibilityState !== "visible") return void (this.stale = true);
    this.timer ??= setTimeout(() => {
      this.timer = null;
      void this.now();
    }, COALESCE_MS);
  }

  async now(): Promise<void> {
    if (this.running) return void (this.again = true);
    this.running = true;
    try {
      await this.fetch();
    } catch {
      // Shown as "offline" by the socket; the next event or poll tries again.
    } finally {
      this.running = false;
      if (this.again) {
        this.again = false;
        void this.now();
      }
    }
  }

  shown(): void {
    if (!this.stale || document.visibilityState !== "visible") return;
    this.stale = false;
    this.soon();
  }

  stop(): void {
    if (this.timer) clearTimeout(this.timer);
  }
}

interface ConversationFetchers {
  conversationId: number;
  watch: ConversationWatch;
  record: Fetcher;
  /** The record and the messages after the last one shown (after a gap). */
  all: Fetcher;
}

export function socketLive(
  connect: (accountId: number, h: CableHandlers) => { stop(): void } = (id, h) => new AccountCable(id, h),
): Live {
  const status = signal<"live" | "offline">("live");
  const lists = new Set<Fetcher>();
  const conversations = new Set<ConversationFetchers>();
  const notificationWatches = new Set<{ accountId: number; watch: NotificationWatch }>();
  const cables = new Map<number, { stop(): void; up: boolean }>();
  let poll: ReturnType<typeof setInterval> | null = null;
  // A hidden tab does not refetch for every event; it catches up once when shown.
  document.addEventListener("visibilitychange", () => {
    for (const l of lists) l.shown();
    for (const c of conversations) c.record.shown();
  });

  const everything = (accountId?: number) => {
    for (const l of lists) if (accountId === undefined || l.accountId === accountId) void l.now();
    for (const c of conversations) if (accountId === undefined || c.all.accountId === accountId) void c.all.now();
  };

  const updateStatus = () => {
    const down = [...cables.values()].some((c) => !c.up);
    status.value = down ? "offline" : "live";
    if (down) poll ??= setInterval(() => document.visibilityState === "visible" && everything(), FALLBACK_POLL_MS);
    else if (poll) {
      clearInterval(poll);
      poll = null;
    }
  };

  const onEvent = (accountId: number, e: CableEvent) => {
    if (e.event === "conversation.typing_on" || e.event === "conversation.typing_off")
      return typingEvent(e.event, e.data);
    if (e.event === "notification.created") {
      for (const n of notificationWatches) if (n.accountId === accountId) n.watch.onCreated(e.data);
      return;
    }
    const interest = interestOf(e);
    if (interest.everything) return everything(accountId);
    if (interest.list) for (const l of lists) if (l.accountId === accountId) l.soon();
    for (const c of conversations) {
      if (
        c.record.accountId !== accountId ||
        (interest.conversation !== "any" && interest.conversation !== c.conversationId)
      )
        continue;
      if (interest.messages.length > 0) c.watch.onMessages(interest.messages as unknown as Message[]);
      else c.record.soon();
    }
  };

  /** Opens the account's socket for its first watcher and closes it after its last. */
  const use = (accountId: number): Stop => {
    if (!cables.has(accountId)) {
      const entry = { up: true, stop: () => {} };
      cables.set(accountId, entry);
      const cable = connect(accountId, {
        onEvent: (e) => onEvent(accountId, e),
        onGap: () => everything(accountId),
        onStatus: (up) => {
          if (up && !entry.up) for (const n of notificationWatches) if (n.accountId === accountId) n.watch.reload();
          entry.up = up;
          updateStatus();
        },
      });
      entry.stop = () => cable.stop();
    }
    return () => {
      const stillUsed =
        [...lists].some((l) => l.accountId === accountId) ||
        [...conversations].some((c) => c.record.accountId === accountId) ||
        [...notificationWatches].some((n) => n.accountId === accountId);
      if (stillUsed) return;
      cables.get(accountId)?.stop();
      cables.delete(accountId);
      updateStatus();
    };
  };

  return {
    status,
    watchNotifications(accountId, watch) {
      const entry = { accountId, watch };
      notificationWatches.add(entry);
      const release = use(accountId);
      return () => {
        notificationWatches.delete(entry);
        release();
      };
    },
    refresh() {
      // The thread already shows what the user did here; the list may have to move it.
      for (const l of lists) l.soon();
    },
    watchList(accountId, query, onPage) {
      const fetcher = new Fetcher(accountId, async () => {
        const q = query();
        if (q === null) return;
        onPage(await api<ConversationPage>("GET", `/api/v1/accounts/${accountId}/conversations?${q}`), q);
      });
      lists.add(fetcher);
      const release = use(accountId);
      return () => {
        fetcher.stop();
        lists.delete(fetcher);
        release();
      };
    },
    watchConversation(accountId, conversationId, watch) {
      const base = `/api/v1/accounts/${accountId}/conversations/${conversationId}`;
      const fetchRecord = async () => watch.onConversation(await api<Conversation>("GET", base));
      const c: ConversationFetchers = {
        conversationId,
        watch,
        record: new Fetcher(accountId, fetchRecord),
        all: new Fetcher(accountId, async () => {
          await fetchRecord();
          // Nothing shown yet (the thread is still loading): the latest page, as the thread loads it;
          // `after=0` would be the conversation's oldest messages.
          const last = watch.lastMessageId();
          watch.onMessages(
            (await api<MessagePage>("GET", last === 0 ? `${base}/messages` : `${base}/messages?after=${last}`)).payload,
          );
        }),
      };
      conversations.add(c);
      const release = use(accountId);
      return () => {
        c.record.stop();
        c.all.stop();
        conversations.delete(c);
        release();
      };
    },
  };
}

export const live: Live = socketLive();
