// One account's stream over /cable: connects, subscribes, and stays connected. It keeps the seq of
// the last event it passed on; after any drop it reconnects (backing off, see backoffMs) and
// subscribes with `since` that seq, so the server replays what was missed before live events go on.
import {
  backoffMs,
  identifier,
  parseFrame,
  PROTOCOL,
  SILENCE_MS,
  subscribeCommand,
  type CableEvent,
  type ServerFrame,
} from "../../shared/cable.ts";

export interface CableHandlers {
  onEvent(e: CableEvent): void;
  /** Subscribed without a replay (the first time, or nothing seen yet): read the current state over HTTP. */
  onGap(): void;
  /** True once subscribed, false when the connection is lost. */
  onStatus(up: boolean): void;
}

type Timer = ReturnType<typeof setTimeout>;

export const cableUrl = () => `${location.protocol === "https:" ? "wss:" : "ws:"}//${location.host}/cable`;

export class AccountCable {
  private ws: WebSocket | null = null;
  private lastSeq: number | null = null;
  /** The `since` of the subscription in flight. */
  private asked: number | null = null;
  private attempt = 0;
  private retry: Timer | null = null;
  private watchdog: Timer | null = null;
  private stopped = false;

  constructor(
    private readonly accountId: number,
    private readonly h: CableHandlers,
    private readonly url: string = cableUrl(),
  ) {
    window.addEventListener("online", this.now);
    document.addEventListener("visibilitychange", this.now);
    this.connect();
  }

  stop(): void {
    this.stopped = true;
    window.removeEventListener("online", this.now);
    document.removeEventListener("visibilitychange", this.now);
    if (this.retry) clearTimeout(this.retry);
    const ws = this.ws;
    this.drop();
    ws?.close(1000, "done");
  }

  /** The network came back or the tab was shown again: no need to wait out the backoff. */
  private readonly now = () => {
    if (this.stopped || this.ws || document.visibilityState !== "visible") return;
    if (this.retry) clearTimeout(this.retry);
    this.attempt = 0;
    this.connect();
  };

  private connect(): void {
    this.retry = null;
    const ws = new WebSocket(this.url, PROTOCOL);
    this.ws = ws;
    this.alive();
    ws.onmessage = (m) => {
      if (ws === this.ws) this.frame(ws, parseFrame(m.data));
    };
    // An error is always followed by close.
    ws.onclose = () => {
      if (ws === this.ws) this.lost();
    };
  }

  private frame(ws: WebSocket, f: ServerFrame): void {
    this.alive();
    if (f.type === "welcome") {
      this.asked = this.lastSeq;
      ws.send(subscribeCommand(identifier(this.accountId, this.asked)));
    } else if (f.type === "confirm") {
      this.attempt = 0;
      this.h.onStatus(true);
      if (this.asked === null) this.h.onGap();
    } else if (f.type === "reject") {
      // The session ended or the membership went: try again later (a request over HTTP meanwhile
      // answers 401 and signs the page out).
      ws.close();
      this.lost();
    } else if (f.type === "event") {
      const { message } = f;
      if (message.event === "resync" && typeof message.data.latest_seq === "number")
        this.lastSeq = message.data.latest_seq;
      else if (message.seq !== null) this.lastSeq = message.seq;
      this.h.onEvent(message);
    }
  }

  /** Any frame (pings come every 3 s) proves the connection alive; silence means it is not. */
  private alive(): void {
    if (this.watchdog) clearTimeout(this.watchdog);
    const ws = this.ws;
    this.watchdog = setTimeout(() => {
      if (ws !== this.ws) return;
      ws?.close();
      this.lost();
    }, SILENCE_MS);
  }

  private drop(): void {
    if (this.watchdog) clearTimeout(this.watchdog);
    this.watchdog = null;
    this.ws = null;
  }

  private lost(): void {
    this.drop();
    this.h.onStatus(false);
    if (this.stopped) return;
    this.retry = setTimeout(() => this.connect(), backoffMs(this.attempt++));
  }
}
