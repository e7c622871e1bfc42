// Sockets whose user credential no longer opens the door: a pubsub_token rotated by a new password
// or a sign-out everywhere, an API token revoked by a reset, a session ended — even when changed from
// the CLI in another process. The hub runs it with every ping and closes what it returns.
import type { Connection } from "./connection.ts";
import type { CableIdentity } from "./identify.ts";

/**
 * One lookup per distinct credential, however many subscriptions share it. On PostgreSQL the
 * lookups are awaited on the read pool, all at once; on SQLite they answer in place.
 */
export function connectionsWithRevokedCredentials(
  connections: Iterable<Connection>,
  identity: Pick<CableIdentity, "stillHeld">,
): Connection[] | Promise<Connection[]> {
  const held = new Map<string, boolean | Promise<boolean>>();
  const keysOf = new Map<Connection, string[]>();
  for (const conn of connections) {
    const keys: string[] = [];
    for (const sub of conn.subs.values()) {
      const c = sub.credential;
      if (c === null || sub.viewer.kind !== "user") continue;
      const key = `${c.kind}:${sub.viewer.userId}:${c.secret}`;
      if (!held.has(key)) held.set(key, identity.stillHeld(c, sub.viewer.userId));
      keys.push(key);
    }
    if (keys.length) keysOf.set(conn, keys);
  }
  const revoked = (answers: Map<string, boolean>) =>
    [...keysOf].filter(([, keys]) => keys.some((k) => !answers.get(k))).map(([conn]) => conn);
  const checks = [...held.values()];
  if (!checks.some((v) => v instanceof Promise)) return revoked(held as Map<string, boolean>);
  const keys = [...held.keys()];
  return Promise.all(checks).then((answers) => revoked(new Map(keys.map((k, i) => [k, answers[i]!]))));
}
