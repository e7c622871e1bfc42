// The visitor's live stream over /cable: the contact's subscription (its pubsub_token), agents'
// replies, typing and status changes. After a drop it reconnects with backoff and says so, and
// the page reads the thread again over HTTP (no replay bookkeeping: the thread is short).
import { CHANNEL, PROTOCOL } from "../../shared/cable-frames.ts";
import { backoffMs, parseFrame, subscribeCommand, type CableEvent } from "../../shared/cable.ts";

export function connectCable(
  pubsubToken: string,
  accountId: number,
  onEvent: (e: CableEvent) => void,
  onSubscribed: () => void,
): () => void {
  const url = `${location.protocol === "https:" ? "wss:" : "ws:"}//${location.host}/cable`;
  const identifier = JSON.stringify({ channel: CHANNEL, pubsub_token: pubsubToken, account_id: accountId });
  let ws: WebSocket | null = null;
  let attempt = 0;
  let stopped = false;
  let retry: ReturnType<typeof setTimeout> | null = null;
  const open = () => {
    const socket = new WebSocket(url, PROTOCOL);
    ws = socket;
    socket.onmessage = (m) => {
      const f = parseFrame(m.data);
      if (f.type === "welcome") socket.send(subscribeCommand(identifier));
      else if (f.type === "confirm") {
        attempt = 0;
        onSubscribed();
      } else if (f.type === "event") onEvent(f.message);
    };
    socket.onclose = () => {
      if (stopped || socket !== ws) return;
      retry = setTimeout(open, backoffMs(attempt++));
    };
  };
  open();
  return () => {
    stopped = true;
    if (retry) clearTimeout(retry);
    ws?.close(1000, "done");
  };
}
