// Reads new mail from every email inbox with IMAP on, and hands each mail to the intake, which
// files it in one transaction with the checkpoint (the last UID filed under the folder's
// UIDVALIDITY). Run by the job loop; one poll at a time, inboxes one after another, each mail one
// after another, so a crash loses at most the mail being filed, which the next poll reads again.
// A mail that cannot be read (malformed, too large) is noted on the inbox and passed over; a
// mailbox that refuses us is noted and retried at the next poll; neither stops the other inboxes.
import { type Lease, SOLE_LEASE } from "../lib/lease.ts";
import type { ImapFlow, ImapFlowOptions } from "imapflow";
import type { MailConfig } from "../config-mail.ts";
import type { AccountsRepo } from "../db/accounts.repo.ts";
import type { EmailChannelRow, EmailChannelsRepo } from "../db/email-channels.repo.ts";
import { readSoon } from "../db/reads.ts";
import type { WriteTx } from "../db/tx.ts";
import type { EmailIntakeService } from "../domain/email-intake.service.ts";
import type { IncomingMail } from "../domain/incoming-mail.ts";
import { unixSeconds, type Clock } from "../lib/clock.ts";
import { errorFields, type Logger } from "../lib/logger.ts";
import type { SecretBox } from "../lib/secret-box.ts";
import { describeMailError } from "./mail-errors.ts";
import { resolveMailHost } from "./mail-host.ts";

/** Mails filed per inbox per poll: a large backlog is read over several polls, not in one long one. */
const BATCH = 200;
/** Polls in a row that may fail to file one mail before it is passed over with a note. */
export const MAX_FILING_ATTEMPTS = 5;

export interface ImapPollerDeps {
  /** Only the lease's holder reads mailboxes (several processes: src/lib/lease.ts). */
  lease?: Lease;
  emailChannels: EmailChannelsRepo;
  accounts: AccountsRepo;
  intake: EmailIntakeService;
  secretBox: SecretBox;
  writeTx: WriteTx;
  clock: Clock;
  logger: Logger;
  config: MailConfig;
}

export interface PollReport {
  inboxId: number;
  filed: number;
  skipped: number;
  /** Mails passed over with a note on the inbox (too large, unreadable). */
  noted: number;
  error: string | null;
}

export class ImapPoller {
  private running: Promise<PollReport[]> | null = null;
  private readonly lastPoll = new Map<number, number>();
  /** Inboxes whose server said new mail arrived (IMAP IDLE): read at the next turn, not the next interval. */
  private readonly wanted = new Set<number>();
  private readonly watchers = new Set<(report: PollReport) => void>();
  /** Failed filing attempts per mail (inbox:uidvalidity:uid), kept while the process runs. */
  private readonly failures = new Map<string, number>();

  constructor(private readonly d: ImapPollerDeps) {}

  /** The job: polls the inboxes whose interval has passed (force: all of them, for tests and "sync now"). */
  poll(force = false): Promise<PollReport[]> {
    if (this.running) return this.running;
    if (!(this.d.lease ?? SOLE_LEASE).held) return Promise.resolve([]);
    this.running = this.pollDue(force).finally(() => {
      this.running = null;
      if (this.wanted.size > 0) void this.poll();
    });
    return this.running;
  }

  /** New mail in this inbox (IDLE said so): read it now, or right after the poll under way. */
  request(inboxId: number): void {
    this.wanted.add(inboxId);
    if (!this.running) void this.poll();
  }

  /** Calls `fn` with every finished inbox poll until the returned function is called. */
  watch(fn: (report: PollReport) => void): () => void {
    this.watchers.add(fn);
    return () => this.watchers.delete(fn);
  }

  private async pollDue(force: boolean): Promise<PollReport[]> {
    const now = this.d.clock.nowMs();
    const reports: PollReport[] = [];
    for (const row of await readSoon(this.d.emailChannels.readPollable())) {
      const last = this.lastPoll.get(row.inbox_id);
      const due = last === undefined || now - last >= this.d.config.pollSeconds * 1000;
      if (!force && !due && !this.wanted.has(row.inbox_id)) continue;
      this.wanted.delete(row.inbox_id);
      this.lastPoll.set(row.inbox_id, now);
      const report = await this.pollInbox(row);
      for (const fn of this.watchers) fn(report);
      reports.push(report);
    }
    return reports;
  }

  /** One mailbox: connect, read what is past the checkpoint, file it, note the outcome. */
  async pollInbox(row: EmailChannelRow): Promise<PollReport> {
    const report: PollReport = { inboxId: row.inbox_id, filed: 0, skipped: 0, noted: 0, error: null };
    const server = `IMAP server ${row.imap_address}:${row.imap_port}`;
    let client: ImapFlow | null = null;
    try {
      client = await connectImap(row, this.d.secretBox, this.d.config.allowPrivateHosts);
      const lock = await client.getMailboxLock(row.imap_folder);
      try {
        await this.readNew(client, row, report);
      } finally {
        lock.release();
      }
      await this.d.writeTx.steps(() =>
        this.d.emailChannels.syncedSteps(row.inbox_id, unixSeconds(this.d.clock), report.noted > 0),
      );
    } catch (error) {
      report.error = describeMailError(error, server);
      this.d.logger.warn("email inbox poll failed", { inbox_id: row.inbox_id, error: report.error });
      const reason = report.error;
      await this.d.writeTx.steps(() =>
        this.d.emailChannels.failedSteps(row.inbox_id, reason, unixSeconds(this.d.clock)),
      );
    } finally {
      await client?.logout().catch(() => client?.close());
    }
    return report;
  }

  private async readNew(client: ImapFlow, row: EmailChannelRow, report: PollReport): Promise<void> {
    const mailbox = client.mailbox;
    if (!mailbox) throw new Error(`folder ${row.imap_folder} could not be opened`);
    const uidValidity = Number(mailbox.uidValidity);
    let lastUid = row.last_uid;
    if (row.uid_validity !== null && row.uid_validity !== uidValidity) {
      // The folder was recreated: its UIDs start over. Message-IDs already filed stay filed once.
      this.d.logger.warn("email folder UIDVALIDITY changed; reading it again", { inbox_id: row.inbox_id });
      lastUid = 0;
    }
    const account = await readSoon(this.d.accounts.readById(row.account_id));
    if (!account || mailbox.exists === 0) return;
    // "N:*" also matches the newest mail when N is past it: keep only UIDs after the checkpoint.
    const found: { uid: number; size: number }[] = [];
    for await (const m of client.fetch(`${lastUid + 1}:*`, { uid: true, size: true }, { uid: true }))
      if (m.uid > lastUid) found.push({ uid: m.uid, size: m.size ?? 0 });
    found.sort((a, b) => a.uid - b.uid);
    for (const { uid, size } of found.slice(0, BATCH)) {
      const at = { inboxId: row.inbox_id, account: { id: account.id, name: account.name }, uidValidity, uid };
      if (size > this.d.config.maxMessageBytes) {
        report.noted++;
        await this.note(
          row,
          `mail UID ${uid} skipped: ${size} bytes is over the limit of ${this.d.config.maxMessageBytes}`,
        );
        await this.d.intake.skip(at);
        report.skipped++;
        continue;
      }
      const fetched = await client.fetchOne(String(uid), { source: true }, { uid: true });
      const source = fetched === false ? undefined : fetched.source;
      let mail: IncomingMail;
      try {
        if (!source) throw new Error("the server sent no content");
        mail = await (await mailParser()).parseMail(source);
      } catch (error) {
        // A mail that cannot be read never will be: noted, and passed over.
        this.d.logger.error("email could not be read", { inbox_id: row.inbox_id, uid, ...errorFields(error) });
        report.noted++;
        await this.note(
          row,
          `mail UID ${uid} could not be read: ${error instanceof Error ? error.message : String(error)}`,
        );
        await this.d.intake.skip(at);
        report.skipped++;
        continue;
      }
      const key = `${row.inbox_id}:${uidValidity}:${uid}`;
      try {
        const result = await this.d.intake.file(at, mail);
        this.failures.delete(key);
        if (result.result === "filed") report.filed++;
        else report.skipped++;
      } catch (error) {
        // Filing failed (the conversation's flood guard, a busy database…): the checkpoint stays, and
        // the next poll tries this mail again; a mail that fails every time is passed over at last.
        const failures = (this.failures.get(key) ?? 0) + 1;
        const reason = error instanceof Error ? error.message : String(error);
        this.d.logger.error("email could not be filed", {
          inbox_id: row.inbox_id,
          uid,
          failures,
          ...errorFields(error),
        });
        if (failures < MAX_FILING_ATTEMPTS) {
          this.failures.set(key, failures);
          throw new Error(`mail UID ${uid} could not be filed (will try again): ${reason}`);
        }
        this.failures.delete(key);
        report.noted++;
        await this.note(row, `mail UID ${uid} passed over after ${failures} failed attempts: ${reason}`);
        await this.d.intake.skip(at);
        report.skipped++;
      }
    }
  }

  private async note(row: EmailChannelRow, message: string): Promise<void> {
    this.d.logger.warn("email skipped", { inbox_id: row.inbox_id, reason: message });
    await this.d.writeTx.steps(() =>
      this.d.emailChannels.failedSteps(row.inbox_id, message, unixSeconds(this.d.clock)),
    );
  }
}

/**
 * imapflow, mailparser and nodemailer with their dependencies are ~20 MB of a server's memory once
 * loaded: they are loaded on first use, so a Parley without email inboxes never pays for them.
 */
const mailParser = () => import("./parse-mail.ts");

/** A logged-in IMAP connection with the inbox's settings (the password opened only here). */
export async function connectImap(
  row: EmailChannelRow,
  box: SecretBox,
  allowPrivate: boolean,
  extra: Partial<ImapFlowOptions> = {},
): Promise<ImapFlow> {
  const host = row.imap_address ?? "";
  const address = await resolveMailHost(host, allowPrivate);
  const { ImapFlow } = await import("imapflow");
  const client = new ImapFlow({
    host: address,
    port: row.imap_port,
    secure: row.imap_enable_ssl === 1,
    ...(address !== host ? { servername: host } : {}),
    auth: { user: row.imap_login ?? "", pass: row.imap_password ? (box.open(row.imap_password) ?? "") : "" },
    logger: false,
    connectionTimeout: 15_000,
    greetingTimeout: 15_000,
    socketTimeout: 60_000,
    ...extra,
  });
  // A dropped connection emits "error"; without a listener it would be thrown at the process.
  client.on("error", () => {});
  await client.connect();
  return client;
}
