// A client that stops reading must not hold up the server or anyone else: once its unsent buffer
// passes the bound, the server closes it (1013) and carries on. The slow client is a raw TCP
// WebSocket that is paused after subscribing, so the kernel buffers fill and then Bun's.
import { afterEach, describe, expect, test } from "bun:test";
import net from "node:net";
import { CableClient } from "../helpers/cable.ts";
import { until } from "../helpers/until.ts";
import { send } from "../helpers/conversation-fixtures.ts";
import { room, type Room } from "../helpers/realtime-fixtures.ts";

let r: Room | null = null;
afterEach(async () => {
  await r?.served.stop();
  r = null;
});

/** A masked client text frame (RFC 6455 §5.3). */
function clientFrame(text: string): Buffer {
  const payload = Buffer.from(text);
  const mask = Buffer.from(crypto.getRandomValues(new Uint8Array(4)));
  const header =
    payload.length < 126
      ? Buffer.from([0x81, 0x80 | payload.length])
      : Buffer.from([0x81, 0x80 | 126, payload.length >> 8, payload.length & 255]);
  return Buffer.concat([header, mask, payload.map((b, i) => b ^ mask[i % 4]!)]);
}

/** Opcodes (and a close frame's code) of the server frames in `data`. */
function serverFrames(data: Buffer): { opcode: number; closeCode?: number; ping?: boolean }[] {
  const out: { opcode: number; closeCode?: number; ping?: boolean }[] = [];
  let at = data.indexOf("\r\n\r\n") + 4; // after the handshake answer
  while (at + 2 <= data.length) {
    const opcode = data[at]! & 0x0f;
    let len = data[at + 1]! & 0x7f;
    let start = at + 2;
    if (len === 126) [len, start] = [data.readUInt16BE(at + 2), at + 4];
    else if (len === 127) [len, start] = [Number(data.readBigUInt64BE(at + 2)), at + 10];
    if (start + len > data.length) break;
    // ActionCable pings come every 3 s, so how many arrive depends on how long the run took.
    const ping =
      opcode === 1 &&
      data
        .subarray(start, Math.min(start + 16, start + len))
        .toString()
        .startsWith('{"type":"ping"');
    out.push(opcode === 8 ? { opcode, closeCode: data.readUInt16BE(start) } : { opcode, ping });
    at = start + len;
  }
  return out;
}

/** A raw WebSocket client on node:net that can stop reading (pause) — Bun's WebSocket always reads. */
async function rawClient(port: number, path: string, identifier: Record<string, unknown>) {
  const socket = net.connect(port, "127.0.0.1");
  await new Promise((resolve) => socket.once("connect", resolve));
  const received: Buffer[] = [];
  socket.on("data", (chunk: Buffer) => received.push(chunk));
  socket.write(
    `GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n`,
  );
  socket.write(
    clientFrame(
      JSON.stringify({ command: "subscribe", identifier: JSON.stringify({ channel: "RoomChannel", ...identifier }) }),
    ),
  );
  const more: (() => void)[] = [];
  socket.on("data", () => {
    for (const wake of more.splice(0)) wake();
  });
  return {
    socket,
    frames: () => serverFrames(Buffer.concat(received)),
    /** Waits for data until `check()` holds (each chunk that arrives is a reason to look again). */
    async until(check: () => boolean, timeoutMs = 10_000) {
      const deadline = Date.now() + timeoutMs;
      while (!check()) {
        const left = deadline - Date.now();
        if (left <= 0) throw new Error(`raw client: still not so after ${timeoutMs} ms`);
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, left);
          more.push(() => {
            clearTimeout(timer);
            resolve();
          });
        });
      }
    },
    /** The server's frames so far, as text. */
    text: () => Buffer.concat(received).toString("latin1"),
  };
}

describe("backpressure", () => {
  test("a client that never reads is dropped with 1013; the server and a reading client go on", async () => {
    r = await room();
    r.h.deps.realtime.limits.maxBufferedBytes = 64 * 1024;
    const fast = await CableClient.connect(r.served.url(`/cable?api_access_token=${r.a.adminToken}`));
    await fast.subscribe({ account_id: r.a.accountId });

    const raw = await rawClient(r.served.port, `/cable?api_access_token=${r.a.adminToken}`, {
      account_id: r.a.accountId,
    });
    const slow = raw.socket;
    await raw.until(() => raw.text().includes('"type":"confirm_subscription"'));
    expect(r.h.deps.realtime.stats()).toEqual({ connections: 2, subscriptions: 2 });
    slow.pause(); // stops reading: the kernel's buffers fill, then the server's

    const start = r.h.lastEventId();
    const big = "x".repeat(149_000);
    const streamed = () =>
      r!.h.events(start).filter((e) => e.kind === "message_created" || e.kind === "conversation_updated").length;
    for (let i = 0; i < 60; i++) {
      // Each write answers, and its events reach the fast socket, while the slow one reads nothing:
      // nobody waits on the slow socket (a fan-out that blocked would hold these awaits forever).
      expect((await send(r, r.carlaA, { content: `${i} ${big}` })).status).toBe(200);
      if (r.h.deps.realtime.stats().connections === 2) await fast.eventCount(streamed(), 10_000);
    }
    const expected = streamed();
    await fast.eventCount(expected, 10_000);
    expect(fast.closeEvent).toBeNull();
    expect(r.h.deps.realtime.stats()).toEqual({ connections: 1, subscriptions: 1 });

    slow.resume();
    await new Promise((resolve) => slow.once("close", resolve));
    const frames = raw.frames();
    expect(frames.at(-1)).toEqual({ opcode: 8, closeCode: 1013 });
    // It got a prefix of the stream before it was dropped, far from all of it.
    expect(frames.filter((f) => f.opcode === 1).length).toBeLessThan(expected);
  }, 20_000);

  test("a replay to a client that stops reading waits for it instead of dropping it", async () => {
    r = await room();
    r.h.deps.realtime.limits.maxBufferedBytes = 64 * 1024;
    const since = r.h.lastEventId();
    const big = "y".repeat(149_000);
    for (let i = 0; i < 40; i++) await send(r, r.carlaA, { content: `${i} ${big}` });
    const expected = r.h
      .events(since)
      .filter((e) => e.kind === "message_created" || e.kind === "conversation_updated").length;
    // 6 MB of backlog through a 64 KiB bound: the kernel's buffers fill, then the replay waits for drain.
    const raw = await rawClient(r.served.port, `/cable?api_access_token=${r.a.adminToken}`, {
      account_id: r.a.accountId,
      since,
    });
    raw.socket.pause();
    // The replay fills the kernel's buffers and then half of its own bound, and waits: not dropped.
    await until(() => r!.h.deps.realtime.waitingForDrain() === 1, 10_000);
    expect(r.h.deps.realtime.stats()).toEqual({ connections: 1, subscriptions: 1 });
    raw.socket.resume();
    // welcome + confirm + every event, and the socket still open.
    const content = () => raw.frames().filter((f) => !f.ping);
    await raw.until(() => content().length >= expected + 2);
    expect(content().length).toBe(expected + 2);
    expect(raw.frames().every((f) => f.opcode === 1)).toBe(true);
    expect(r.h.deps.realtime.stats()).toEqual({ connections: 1, subscriptions: 1 });
    raw.socket.destroy();
  }, 20_000);
});
