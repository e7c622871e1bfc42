// ActionCable's JSON framing (actioncable-v1-json), so Chatwoot-style clients work unchanged:
//   server → client  {"type":"welcome"} · {"type":"ping","message":<unix>} ·
//                    {"type":"confirm_subscription"|"reject_subscription","identifier":…} ·
//                    {"type":"disconnect","reason":…,"reconnect":…} · {"identifier":…,"message":{…}}
//   client → server  {"command":"subscribe"|"unsubscribe"|"message","identifier":"<JSON text>","data":"<JSON text>"}
export const PROTOCOL = "actioncable-v1-json";
/** The one channel subscriptions name (Chatwoot's). No imports here: the web app imports these two too. */
export const CHANNEL = "RoomChannel";

export const welcomeFrame = () => '{"type":"welcome"}';
export const pingFrame = (unixSeconds: number) => `{"type":"ping","message":${unixSeconds}}`;
export const confirmFrame = (identifier: string) => JSON.stringify({ type: "confirm_subscription", identifier });
export const rejectFrame = (identifier: string) => JSON.stringify({ type: "reject_subscription", identifier });
export const disconnectFrame = (reason: string, reconnect: boolean) =>
  JSON.stringify({ type: "disconnect", reason, reconnect });

/** A message on a subscription; `messageJson` is already JSON (rendered once for every socket). */
export function messageFrame(identifierJson: string, messageJson: string): string {
  return `{"identifier":${identifierJson},"message":${messageJson}}`;
}

export interface Command {
  command: "subscribe" | "unsubscribe" | "message";
  identifier: string;
  data?: string;
}

/** A client frame, or null when it is not one ActionCable would accept (such frames are ignored). */
export function parseCommand(raw: unknown): Command | null {
  let v: unknown = raw;
  if (typeof raw === "string") {
    try {
      v = JSON.parse(raw);
    } catch {
      return null;
    }
  }
  if (!v || typeof v !== "object") return null;
  const c = v as Record<string, unknown>;
  if (c.command !== "subscribe" && c.command !== "unsubscribe" && c.command !== "message") return null;
  if (typeof c.identifier !== "string") return null;
  return { command: c.command, identifier: c.identifier, ...(typeof c.data === "string" ? { data: c.data } : {}) };
}

/** The identifier's fields (it is JSON text inside the frame); null when it is not a JSON object. */
export function parseIdentifier(identifier: string): Record<string, unknown> | null {
  try {
    const v = JSON.parse(identifier) as unknown;
    return v && typeof v === "object" && !Array.isArray(v) ? (v as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}
