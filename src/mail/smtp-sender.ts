// Sends queued email replies (src/events/listeners/email-outbox.listener.ts) through each inbox's
// SMTP server. Woken after the commit that queued a reply, and every few seconds by the job loop
// for retries and for whatever a crash left. Each attempt is recorded before it is made (with the
// time to retry if it never reports back), so a reply is sent again only after a crash, and then
// with the same Message-ID. Temporary failures retry with backoff; a 5xx answer, a refused login or
// ten failed attempts mark the message failed with the server's words (external_error).
import type { Lease } from "../lib/lease.ts";
import type { MailConfig } from "../config-mail.ts";
import type { EmailOutboxRepo, EmailOutboxRow } from "../db/email-outbox.repo.ts";
import { type Reads, readSoon } from "../db/reads.ts";
import type { WriteTx } from "../db/tx.ts";
import { unixSeconds, type Clock } from "../lib/clock.ts";
import type { Logger } from "../lib/logger.ts";
import { OutboxSender } from "../lib/pump.ts";
import type { SecretBox } from "../lib/secret-box.ts";
import type { EmailChannelRow } from "../db/email-channels.repo.ts";
import { composeReply, type ReplyData } from "./compose-reply.ts";
import { afterFailedSend } from "./mail-errors.ts";
import { resolveMailHost } from "./mail-host.ts";

/** A crash mid-send: the attempt is retried after this long (a send that hangs is cut off well before). */
const IN_FLIGHT_SECONDS = 300;
const CONCURRENCY = 4;

/** What the sender needs to know about a queued reply; null when it can no longer be sent (and why). */
export type ReplyLookup = (
  row: EmailOutboxRow,
) => Promise<{ data: ReplyData; channel: EmailChannelRow } | { gone: string }>;

export interface SmtpSenderDeps {
  /** Only the lease's holder sends (several processes: src/lib/lease.ts). */
  lease?: Lease;
  emailOutbox: EmailOutboxRepo;
  lookup: ReplyLookup;
  /** Marks the message failed with the reason: steps of the sender's body, which records the failure. */
  markFailedSteps: (row: EmailOutboxRow, reason: string) => Reads<void>;
  secretBox: SecretBox;
  writeTx: WriteTx;
  clock: Clock;
  logger: Logger;
  config: MailConfig;
}

export class SmtpSender extends OutboxSender<EmailOutboxRow> {
  constructor(private readonly d: SmtpSenderDeps) {
    super({
      name: "email send",
      due: (limit) => readSoon(d.emailOutbox.readDue(unixSeconds(d.clock), limit)),
      keyField: "message_id",
      concurrency: CONCURRENCY,
      lease: d.lease,
      logger: d.logger,
    });
  }

  protected async send(row: EmailOutboxRow): Promise<void> {
    const now = unixSeconds(this.d.clock);
    const claimed = await this.d.writeTx.steps(() =>
      this.d.emailOutbox.recordAttemptSteps(row.message_id, now, now + IN_FLIGHT_SECONDS),
    );
    if (!claimed) return;
    const found = await this.d.lookup(row);
    if ("gone" in found) return this.fail(row, found.gone);
    const { data, channel } = found;
    const server = `SMTP server ${channel.smtp_address}:${channel.smtp_port}`;
    try {
      const transport = await smtpTransport(channel, this.d.secretBox, this.d.config.allowPrivateHosts);
      try {
        await transport.sendMail(composeReply(data));
      } finally {
        transport.close();
      }
      await this.d.writeTx.steps(() => this.d.emailOutbox.sentSteps(row.message_id, unixSeconds(this.d.clock)));
    } catch (error) {
      const attempts = row.attempts + 1;
      const { reason, retryAt } = afterFailedSend(error, server, attempts, unixSeconds(this.d.clock));
      if (retryAt === null) return this.fail(row, reason);
      this.d.logger.warn("email send failed; will retry", { message_id: row.message_id, attempts, error: reason });
      await this.d.writeTx.steps(() => this.d.emailOutbox.retryAtSteps(row.message_id, retryAt, reason));
    }
  }

  private async fail(row: EmailOutboxRow, reason: string): Promise<void> {
    this.d.logger.warn("email reply failed", { message_id: row.message_id, error: reason });
    const { emailOutbox, markFailedSteps } = this.d;
    await this.d.writeTx.steps(function* () {
      yield* emailOutbox.failedSteps(row.message_id, reason);
      yield* markFailedSteps(row, reason);
    });
  }
}

/** A transport with the inbox's SMTP settings (the password opened only here). */
export async function smtpTransport(row: EmailChannelRow, box: SecretBox, allowPrivate: boolean) {
  const host = row.smtp_address ?? "";
  const address = await resolveMailHost(host, allowPrivate);
  const password = row.smtp_password ? box.open(row.smtp_password) : null;
  // Loaded on first use, as imapflow is (src/mail/imap-poller.ts).
  const nodemailer = (await import("nodemailer")).default;
  return nodemailer.createTransport({
    host: address,
    port: row.smtp_port,
    secure: row.smtp_enable_ssl_tls === 1,
    ignoreTLS: row.smtp_enable_ssl_tls !== 1 && row.smtp_enable_starttls_auto !== 1,
    name: row.smtp_domain ?? undefined,
    ...(row.smtp_login
      ? { auth: { user: row.smtp_login, pass: password ?? "" }, authMethod: row.smtp_authentication.toUpperCase() }
      : {}),
    tls: { servername: host, rejectUnauthorized: row.smtp_openssl_verify_mode === "peer" },
    connectionTimeout: 15_000,
    greetingTimeout: 15_000,
    socketTimeout: 60_000,
  });
}
