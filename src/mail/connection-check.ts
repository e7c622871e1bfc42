// "Test connection" on an email inbox: logs in to the IMAP server and opens the folder, and asks
// the SMTP server to accept the login, then says for each side what worked or what failed, in words.
import type { MailConfig } from "../config-mail.ts";
import type { EmailChannelsRepo } from "../db/email-channels.repo.ts";
import { nested, readLater } from "../db/reads.ts";
import type { AccountPrincipal } from "../domain/auth.service.ts";
import { requireAdministrator } from "../domain/auth.service.ts";
import { ValidationError } from "../domain/errors.ts";
import type { InboxesService } from "../domain/inboxes.service.ts";
import type { SecretBox } from "../lib/secret-box.ts";
import { connectImap } from "./imap-poller.ts";
import { describeMailError } from "./mail-errors.ts";
import { smtpTransport } from "./smtp-sender.ts";

export interface CheckResult {
  ok: boolean;
  message: string;
}

export interface ConnectionCheckDeps {
  inboxes: InboxesService;
  emailChannels: EmailChannelsRepo;
  secretBox: SecretBox;
  config: MailConfig;
}

export class ConnectionCheck {
  constructor(private readonly d: ConnectionCheckDeps) {}

  async run(
    p: AccountPrincipal,
    inboxId: number | null,
  ): Promise<{ imap: CheckResult | null; smtp: CheckResult | null }> {
    requireAdministrator(p);
    const { inboxes, emailChannels } = this.d;
    // Read on the read pool on PostgreSQL: the check writes nothing, and its servers take seconds anyway.
    const row = await readLater(
      (function* () {
        const inbox = yield* nested(inboxes.readVisibleOne(p, inboxId));
        if (inbox.channel_type !== "email")
          throw ValidationError.of("inbox_id", "only email inboxes have mail servers to test", "unsupported");
        return yield* nested(emailChannels.readByInbox(inbox.id));
      })(),
    );
    if (!row || (!row.imap_address && !row.smtp_address))
      throw ValidationError.of("channel", "set up an IMAP or SMTP server first", "required");
    const allow = this.d.config.allowPrivateHosts;
    const imap = row.imap_address
      ? await attempt(`IMAP server ${row.imap_address}:${row.imap_port}`, async () => {
          const client = await connectImap(row, this.d.secretBox, allow);
          try {
            const box = await client.mailboxOpen(row.imap_folder, { readOnly: true });
            return `logged in; ${row.imap_folder} holds ${box.exists} mail${box.exists === 1 ? "" : "s"}`;
          } finally {
            await client.logout().catch(() => client.close());
          }
        })
      : null;
    const smtp = row.smtp_address
      ? await attempt(`SMTP server ${row.smtp_address}:${row.smtp_port}`, async () => {
          const transport = await smtpTransport(row, this.d.secretBox, allow);
          try {
            await transport.verify();
            return "connected and logged in";
          } finally {
            transport.close();
          }
        })
      : null;
    return { imap, smtp };
  }
}

async function attempt(server: string, fn: () => Promise<string>): Promise<CheckResult> {
  try {
    return { ok: true, message: `${server}: ${await fn()}` };
  } catch (error) {
    return { ok: false, message: describeMailError(error, server) };
  }
}
