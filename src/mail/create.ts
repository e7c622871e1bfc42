// The email inboxes' moving parts, built around the repositories and services: the IMAP poller,
// the SMTP sender with its outbox hook, and the connection check behind "test connection".
import type { Lease } from "../lib/lease.ts";
import type { Config } from "../config.ts";
import type { createRepos } from "../deps/repos.ts";
import type { createServices } from "../deps/services.ts";
import type { WriteTx } from "../db/tx.ts";
import type { EventOutbox } from "../events/outbox.ts";
import { emailOutboxFanOut } from "../events/listeners/email-outbox.listener.ts";
import type { FileStore } from "../files/store.ts";
import type { Clock } from "../lib/clock.ts";
import type { Logger } from "../lib/logger.ts";
import type { SecretBox } from "../lib/secret-box.ts";
import { ConnectionCheck } from "./connection-check.ts";
import { ImapIdler } from "./imap-idler.ts";
import { ImapPoller } from "./imap-poller.ts";
import { replyLookup } from "./reply-lookup.ts";
import { NotificationMailSender } from "./notification-mail-sender.ts";
import { ResetMailSender } from "./reset-mail-sender.ts";
import { SmtpSender } from "./smtp-sender.ts";
import { TranscriptMailer } from "./transcript.ts";

export interface MailParts {
  poller: ImapPoller;
  sender: SmtpSender;
  check: ConnectionCheck;
  idler: ImapIdler;
  transcript: TranscriptMailer;
  resetSender: ResetMailSender;
  notificationSender: NotificationMailSender;
}

export interface MailDeps {
  config: Config;
  repos: ReturnType<typeof createRepos>;
  services: ReturnType<typeof createServices>;
  outbox: EventOutbox;
  store: FileStore;
  /** Where the web app is reached, for links in mail. */
  publicUrl: () => string;
  secretBox: SecretBox;
  writeTx: WriteTx;
  clock: Clock;
  logger: Logger;
  /** Only the lease's holder sends and reads mail (several processes: src/lib/lease.ts). */
  lease?: Lease;
}

export function createMail(d: MailDeps): MailParts {
  const { repos, services } = d;
  const base = {
    secretBox: d.secretBox,
    writeTx: d.writeTx,
    clock: d.clock,
    logger: d.logger,
    config: d.config.mail,
    lease: d.lease,
  };
  const sender = new SmtpSender({
    ...base,
    emailOutbox: repos.emailOutbox,
    lookup: replyLookup({ ...repos, store: d.store }),
    *markFailedSteps(row, reason) {
      const account = yield* repos.accounts.readById(row.account_id);
      if (account) yield* services.messageUpdates.markCallbackFailedSteps(account, row.message_id, reason);
    },
  });
  d.outbox.onRecord(emailOutboxFanOut({ ...repos, clock: d.clock, wake: () => sender.wake() }));
  const poller = new ImapPoller({ ...base, ...repos, intake: services.emailIntake });
  const check = new ConnectionCheck({ ...base, inboxes: services.inboxes, emailChannels: repos.emailChannels });
  const idler = new ImapIdler({ ...base, emailChannels: repos.emailChannels, poller });
  const transcript = new TranscriptMailer({ ...base, ...repos, publicMessages: services.publicMessages });
  const resetSender = new ResetMailSender({
    ...base,
    ...repos,
    config: d.config.mail.accountMail,
    publicUrl: d.publicUrl,
  });
  const notificationSender = new NotificationMailSender({
    ...base,
    ...repos,
    config: d.config.mail.accountMail,
    publicUrl: d.publicUrl,
  });
  return { poller, sender, check, idler, transcript, resetSender, notificationSender };
}
