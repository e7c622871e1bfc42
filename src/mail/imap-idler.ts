// IMAP IDLE: one connection per email inbox, left open on its folder, so the server tells Parley
// the moment mail arrives and the poller reads it then, not at the next interval. imapflow idles
// by itself once a folder is open (and falls back to NOOP polling on a server without IDLE). The
// poller stays the only code that files mail; this only says when. Connections are reconciled with
// the settings every few seconds by the job loop: new inboxes get one, changed settings reconnect,
// a dropped connection is opened again.
import { type Lease, SOLE_LEASE } from "../lib/lease.ts";
import type { ImapFlow } from "imapflow";
import type { MailConfig } from "../config-mail.ts";
import type { EmailChannelRow, EmailChannelsRepo } from "../db/email-channels.repo.ts";
import { readSoon } from "../db/reads.ts";
import type { Logger } from "../lib/logger.ts";
import type { SecretBox } from "../lib/secret-box.ts";
import { connectImap, type ImapPoller } from "./imap-poller.ts";
import { describeMailError } from "./mail-errors.ts";

export interface ImapIdlerDeps {
  /** Only the lease's holder watches mailboxes (several processes: src/lib/lease.ts). */
  lease?: Lease;
  emailChannels: EmailChannelsRepo;
  poller: ImapPoller;
  secretBox: SecretBox;
  config: MailConfig;
  logger: Logger;
}

interface Watch {
  key: string;
  client: ImapFlow | null;
  opening: Promise<void> | null;
}

/** What a connection depends on: when any of it changes, the connection is made again. */
function keyOf(row: EmailChannelRow): string {
  return JSON.stringify([
    row.imap_address,
    row.imap_port,
    row.imap_login,
    row.imap_password,
    row.imap_enable_ssl,
    row.imap_folder,
  ]);
}

export class ImapIdler {
  private readonly watches = new Map<number, Watch>();
  private stopped = false;

  constructor(private readonly d: ImapIdlerDeps) {}

  /** Opens, replaces and closes connections to match the email inboxes; resolves when the new ones are open. */
  async sync(): Promise<void> {
    if (this.stopped) return;
    const rows = (this.d.lease ?? SOLE_LEASE).held ? await readSoon(this.d.emailChannels.readPollable()) : [];
    if (this.stopped) return;
    const live = new Set(rows.map((r) => r.inbox_id));
    for (const [id, w] of this.watches) if (!live.has(id)) this.close(id, w);
    const opening: Promise<void>[] = [];
    for (const row of rows) {
      const w = this.watches.get(row.inbox_id);
      if (w && w.key === keyOf(row) && (w.client?.usable || w.opening)) continue;
      if (w) this.close(row.inbox_id, w);
      const watch: Watch = { key: keyOf(row), client: null, opening: null };
      watch.opening = this.open(row, watch).finally(() => {
        watch.opening = null;
      });
      this.watches.set(row.inbox_id, watch);
      opening.push(watch.opening);
    }
    await Promise.all(opening);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    for (const [id, w] of this.watches) this.close(id, w);
  }

  private async open(row: EmailChannelRow, watch: Watch): Promise<void> {
    try {
      // IDLE at once (imapflow waits 15 s by default), renewed every 4 minutes, with a socket
      // timeout above the server's keep-alive interval (Dovecot: 2 minutes).
      const client = await connectImap(row, this.d.secretBox, this.d.config.allowPrivateHosts, {
        autoIdleDelay: 50,
        maxIdleTime: 4 * 60_000,
        socketTimeout: 5 * 60_000,
      });
      if (this.stopped || this.watches.get(row.inbox_id) !== watch) return void client.close();
      watch.client = client;
      client.on("exists", () => this.d.poller.request(row.inbox_id));
      await client.mailboxOpen(row.imap_folder, { readOnly: true });
      // Mail that came while no connection was open.
      this.d.poller.request(row.inbox_id);
    } catch (error) {
      // The poller notes the failure on the inbox at its next run; here it is only logged.
      const server = `IMAP server ${row.imap_address}:${row.imap_port}`;
      this.d.logger.debug("email idle connection failed", {
        inbox_id: row.inbox_id,
        error: describeMailError(error, server),
      });
    }
  }

  private close(id: number, w: Watch): void {
    this.watches.delete(id);
    w.client?.close();
  }
}
