// GET /cable: the ActionCable-compatible WebSocket (Elysia ws on Bun's WebSocket). The route only
// adapts sockets to the realtime hub; framing, auth, fan-out, replay and backpressure live there.
import type { ServerWebSocket } from "bun";
import { Elysia } from "elysia";
import type { Deps } from "../deps.ts";
import { PROTOCOL } from "../shared/cable-frames.ts";
import type { CableSocket, Connection } from "../realtime/hub.ts";
import { errorFields } from "../lib/logger.ts";
import { sessionTokenOf } from "./browser.ts";

/** Bun's socket settings for every WebSocket of the app (Elysia applies one set per server). */
export const WEBSOCKET_OPTIONS = {
  // Commands are tiny; a client sending megabytes is not a cable client.
  maxPayloadLength: 64 * 1024,
  // Protocol-level pings find dead peers; the app's own pings (every 3 s) keep ActionCable clients happy.
  idleTimeout: 60,
};

type WsData = { query: Record<string, string | undefined>; headers: Record<string, string | undefined> };

export function cableRoutes(d: Deps) {
  const hub = d.realtime;
  const connections = new WeakMap<object, Connection>();
  // Any failure in the hub closes that one socket and is logged; it never reaches other clients.
  const guard = (data: object, close: (code: number, reason: string) => void, fn: (conn: Connection) => void) => {
    const conn = connections.get(data);
    if (!conn) return;
    try {
      fn(conn);
    } catch (error) {
      d.logger.error("cable handler failed", errorFields(error));
      close(1011, "internal error");
      hub.closed(conn);
    }
  };
  return new Elysia().ws("/cable", {
    // OpenAPI has no WebSocket operations (Elysia would emit an invalid "ws" method); docs/realtime.md documents it.
    detail: { hide: true },
    upgrade: ({ headers, set }) => {
      // Browsers fail the handshake when they offer subprotocols and none is chosen.
      const offered = headers["sec-websocket-protocol"]?.split(",").map((p) => p.trim()) ?? [];
      if (offered.includes(PROTOCOL)) set.headers["sec-websocket-protocol"] = PROTOCOL;
    },
    open(ws) {
      // Elysia's type of the socket leaves out getBufferedAmount; at runtime it is Bun's ServerWebSocket.
      const raw = ws.raw as unknown as ServerWebSocket<unknown>;
      const { query, headers } = ws.data as unknown as WsData;
      const socket: CableSocket = {
        send: (data) => raw.send(data),
        bufferedAmount: () => raw.getBufferedAmount(),
        close: (code, reason) => raw.close(code, reason),
        cork: (fn) => void raw.cork(fn),
      };
      try {
        const conn = hub.open(socket, {
          apiToken: query.api_access_token ?? headers.api_access_token ?? null,
          sessionToken: sessionTokenOf(headers),
          origin: headers.origin ?? null,
          host: headers.host ?? null,
        });
        if (conn) connections.set(ws.data, conn);
      } catch (error) {
        d.logger.error("cable open failed", errorFields(error));
        raw.close(1011, "internal error");
      }
    },
    message(ws, message) {
      guard(
        ws.data,
        (c, r) => ws.raw.close(c, r),
        (conn) => hub.command(conn, message),
      );
    },
    drain(ws) {
      guard(
        ws.data,
        (c, r) => ws.raw.close(c, r),
        (conn) => hub.drained(conn),
      );
    },
    close(ws) {
      const conn = connections.get(ws.data);
      if (conn) hub.closed(conn);
    },
  });
}
