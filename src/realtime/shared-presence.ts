// Who is online in the other processes serving the same PostgreSQL database (each process knows
// only its own sockets: src/realtime/presence.ts). Processes tell each other over NOTIFY: who comes
// online or goes offline here, the whole state to a process that asks for it (a process asks once
// at start, and when it hears from a process it did not know), and every HEARTBEAT_MS that they are
// alive. A process not heard from for EXPIRY_MS (killed, cut off) is forgotten, and with it whoever
// was online through it. Messages are small lines: "<process> <op> …", state split below NOTIFY's
// 8,000-byte limit.
import type { Clock } from "../lib/clock.ts";

export const HEARTBEAT_MS = 5000;
export const EXPIRY_MS = 3 * HEARTBEAT_MS;
/** Bytes of ids per state line, well under NOTIFY's payload limit. */
const CHUNK = 6000;

type Kind = "user" | "contact";
const CODE: Record<Kind, string> = { user: "u", contact: "c" };
const KIND: Record<string, Kind> = { u: "user", c: "contact" };

/** A kind's online ids per account. */
type Online = Map<number, Set<number>>;

interface Remote {
  heardAt: number;
  online: Record<Kind, Online>;
}

export interface SharedPresenceDeps {
  /** This process's name among the others (random, new at each start). */
  processId: string;
  /** Sends a line to every process (this one hears it too and ignores it). */
  send(line: string): void;
  clock: Clock;
  /** Someone in the account came or went in another process. */
  changed(accountId: number): void;
  /** Who is online through this process's own sockets: the state sent to a process that asks. */
  localState(): Iterable<LocalState>;
}

/** One kind's ids online in one account. */
export interface LocalState {
  kind: Kind;
  accountId: number;
  ids: number[];
}

export class SharedPresence {
  private readonly remotes = new Map<string, Remote>();

  constructor(private readonly d: SharedPresenceDeps) {}

  /** At start: asks the others what they know. */
  start(): void {
    this.d.send(`${this.d.processId} ?`);
  }

  /** A change of this process's presence, for the others. */
  local(kind: Kind, accountId: number, id: number, online: boolean): void {
    this.d.send(`${this.d.processId} ${online ? "+" : "-"} ${CODE[kind]} ${accountId} ${id}`);
  }

  /** Every HEARTBEAT_MS: tells the others this process is alive; forgets the processes gone silent. */
  tick(): void {
    this.d.send(`${this.d.processId} ~`);
    const before = this.d.clock.nowMs() - EXPIRY_MS;
    for (const [id, remote] of this.remotes)
      if (remote.heardAt < before) {
        this.remotes.delete(id);
        for (const accountId of accountsOf(remote)) this.d.changed(accountId);
      }
  }

  /** Whether someone is online through another process. */
  isOnline(kind: Kind, accountId: number, id: number): boolean {
    for (const remote of this.remotes.values()) if (remote.online[kind].get(accountId)?.has(id)) return true;
    return false;
  }

  /** Ids online in the account through other processes. */
  *onlineIds(kind: Kind, accountId: number): Iterable<number> {
    for (const remote of this.remotes.values()) yield* remote.online[kind].get(accountId) ?? [];
  }

  /** A line from a process (any, this one included). */
  hear(line: string): void {
    const [sender, op, code, account, ids] = line.split(" ");
    if (!sender || sender === this.d.processId) return;
    if (op === "?") {
      this.reply(this.d.localState());
      return;
    }
    let remote = this.remotes.get(sender);
    if (!remote) {
      remote = { heardAt: 0, online: { user: new Map(), contact: new Map() } };
      this.remotes.set(sender, remote);
      // A process met after its start: what it said before is not known here.
      if (op !== "=") this.d.send(`${this.d.processId} ?`);
    }
    remote.heardAt = this.d.clock.nowMs();
    const kind = KIND[code ?? ""];
    const accountId = Number(account);
    const given = (ids ?? "")
      .split(",")
      .map(Number)
      .filter((id) => Number.isSafeInteger(id) && id > 0);
    if (!kind || (op !== "+" && op !== "-" && op !== "=") || !Number.isSafeInteger(accountId) || given.length === 0)
      return;
    const online = remote.online[kind];
    let set = online.get(accountId);
    if (!set) online.set(accountId, (set = new Set()));
    for (const id of given) {
      if (op === "-") set.delete(id);
      else set.add(id);
    }
    if (set.size === 0) online.delete(accountId);
    this.d.changed(accountId);
  }

  private reply(state: Iterable<LocalState>): void {
    let sent = false;
    for (const { kind, accountId, ids } of state) {
      const head = `${this.d.processId} = ${CODE[kind]} ${accountId} `;
      let chunk: number[] = [];
      let bytes = 0;
      for (const id of ids) {
        chunk.push(id);
        bytes += String(id).length + 1;
        if (bytes >= CHUNK) {
          this.d.send(head + chunk.join(","));
          sent = true;
          chunk = [];
          bytes = 0;
        }
      }
      if (chunk.length > 0) {
        this.d.send(head + chunk.join(","));
        sent = true;
      }
    }
    // Nobody online here: still let the asker know this process exists.
    if (!sent) this.d.send(`${this.d.processId} ~`);
  }
}

function accountsOf(remote: Remote): Set<number> {
  return new Set([...remote.online.user.keys(), ...remote.online.contact.keys()]);
}
