// Realtime tests over real sockets: the harness's app listening on 127.0.0.1 (a free port), and an
// ActionCable-speaking client on Bun's WebSocket that records every frame it receives.
import type { Harness } from "./harness.ts";

export interface Served {
  port: number;
  url(path?: string): string;
  stop(): Promise<void>;
}

export function listen(h: Harness): Served {
  h.app.listen({ port: 0, hostname: "127.0.0.1" });
  const port = h.app.server!.port!;
  return {
    port,
    url: (path = "/cable") => `ws://127.0.0.1:${port}${path}`,
    async stop() {
      h.deps.realtime.shutdown();
      await h.app.stop(true);
    },
  };
}

export type Frame = Record<string, any>;

export interface ConnectOptions {
  headers?: Record<string, string>;
  protocols?: string[];
}

export class CableClient {
  /** Every frame but pings, in arrival order. */
  readonly frames: Frame[] = [];
  pings = 0;
  closeEvent: { code: number; reason: string } | null = null;
  private readonly waiters: (() => void)[] = [];
  /** Identifiers the server confirmed, oldest first (sync() asks for the first again). */
  private readonly confirmed: string[] = [];

  private constructor(readonly ws: WebSocket) {
    ws.onmessage = (m) => {
      const frame = JSON.parse(String(m.data)) as Frame;
      if (frame.type === "ping") this.pings++;
      else this.frames.push(frame);
      this.notify();
    };
    ws.onclose = (e) => {
      this.closeEvent = { code: e.code, reason: e.reason };
      this.notify();
    };
  }

  static async connect(url: string, opts: ConnectOptions = {}): Promise<CableClient> {
    const ws = new WebSocket(url, { headers: opts.headers, protocols: opts.protocols } as unknown as string[]);
    const client = new CableClient(ws);
    await new Promise<void>((resolve, reject) => {
      ws.onopen = () => resolve();
      ws.onerror = () => reject(new Error(`could not connect to ${url}`));
    });
    return client;
  }

  /** Subscribes to RoomChannel with these identifier fields; resolves with the confirm or reject frame. */
  async subscribe(fields: Record<string, unknown>): Promise<{ identifier: string; reply: Frame }> {
    const identifier = JSON.stringify({ channel: "RoomChannel", ...fields });
    this.ws.send(JSON.stringify({ command: "subscribe", identifier }));
    const reply = await this.until(
      (f) => (f.type === "confirm_subscription" || f.type === "reject_subscription") && f.identifier === identifier,
    );
    if (reply.type === "confirm_subscription") this.confirmed.push(identifier);
    return { identifier, reply };
  }

  /**
   * A round trip on the socket: a subscription the server already holds, asked for again, is
   * answered with another confirm, written after every frame the server had sent before it. Once
   * it is here nothing sent earlier is still on the way. Takes a confirmed subscription.
   */
  async sync(): Promise<void> {
    const identifier = this.confirmed[0];
    if (!identifier) throw new Error("sync() needs a subscription the server confirmed");
    const from = this.frames.length;
    this.ws.send(JSON.stringify({ command: "subscribe", identifier }));
    const answered = (f: Frame) => f.type === "confirm_subscription" && f.identifier === identifier;
    await this.until((f) => answered(f) && this.frames.lastIndexOf(f) >= from);
  }

  unsubscribe(identifier: string): void {
    const at = this.confirmed.indexOf(identifier);
    if (at >= 0) this.confirmed.splice(at, 1);
    this.ws.send(JSON.stringify({ command: "unsubscribe", identifier }));
  }

  perform(identifier: string, data: Record<string, unknown>): void {
    this.ws.send(JSON.stringify({ command: "message", identifier, data: JSON.stringify(data) }));
  }

  /** The `message` objects received on subscriptions (events, resync, presence). */
  messages(name?: string): Frame[] {
    return this.frames
      .filter((f) => f.message && (name === undefined || f.message.event === name))
      .map((f) => f.message);
  }

  /** Stream events only (those with a seq): what replay and ordering are about. */
  events(): Frame[] {
    return this.messages().filter((m) => typeof m.seq === "number");
  }

  /** Waits for a frame matching `pred` (already received or still to come). */
  async until(pred: (f: Frame) => boolean, timeoutMs = 3000): Promise<Frame> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = this.frames.find(pred);
      if (found) return found;
      if (Date.now() > deadline)
        throw new Error(
          `no matching frame within ${timeoutMs} ms; got ${JSON.stringify(this.frames.map((f) => f.type ?? f.message?.event))}`,
        );
      await this.wait(deadline - Date.now());
    }
  }

  /** Waits until `n` stream events have arrived. */
  async eventCount(n: number, timeoutMs = 3000): Promise<Frame[]> {
    const deadline = Date.now() + timeoutMs;
    while (this.events().length < n) {
      if (Date.now() > deadline)
        throw new Error(
          `expected ${n} events, got ${this.events().length}: ${JSON.stringify(this.events().map((e) => e.event))}`,
        );
      await this.wait(deadline - Date.now());
    }
    return this.events();
  }

  async closed(timeoutMs = 3000): Promise<{ code: number; reason: string }> {
    const deadline = Date.now() + timeoutMs;
    while (!this.closeEvent) {
      if (Date.now() > deadline) throw new Error("socket did not close");
      await this.wait(deadline - Date.now());
    }
    return this.closeEvent;
  }

  close(): void {
    this.ws.close();
  }

  private wait(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(resolve, Math.max(1, ms));
      this.waiters.push(() => {
        clearTimeout(timer);
        resolve();
      });
    });
  }

  private notify(): void {
    for (const w of this.waiters.splice(0)) w();
  }
}
