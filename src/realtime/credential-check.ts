// Sockets whose user credential no longer opens the door: a pubsub_token rotated by a new password
// or a sign-out everywhere, an API token revoked by a reset, a session ended — even when changed from
// the CLI in another process. The hub runs it with every ping and closes what it returns.
import type { Connection } from "./connection.ts";
import type { CableIdentity } from "./identify.ts";

/** One lookup per distinct credential, however many subscriptions share it. */
export function connectionsWithRevokedCredentials(
  connections: Iterable<Connection>,
  identity: Pick<CableIdentity, "stillHeld">,
): Connection[] {
  const held = new Map<string, boolean>();
  const revoked: Connection[] = [];
  for (const conn of connections) {
    for (const sub of conn.subs.values()) {
      const c = sub.credential;
      if (c === null || sub.viewer.kind !== "user") continue;
      const key = `${c.kind}:${sub.viewer.userId}:${c.secret}`;
      if (!held.has(key)) held.set(key, identity.stillHeld(c, sub.viewer.userId));
      if (held.get(key)) continue;
      revoked.push(conn);
      break;
    }
  }
  return revoked;
}
