// Sends password-reset links (src/domain/password-resets.service.ts) through the installation's SMTP
// server (PARLEY_SMTP_URL). The reset's row is the outbox: each attempt is claimed before it is made,
// with the time to retry if it never reports back, so a crash mid-send sends it again later and a
// reset replaced meanwhile is not sent at all. Temporary failures retry with the email replies'
// backoff; a 5xx answer or ten failed attempts give up (the user may ask again at once).
import type { Lease } from "../lib/lease.ts";
import type { AccountMailConfig } from "../config-mail.ts";
import type { AccountRow, AccountsRepo } from "../db/accounts.repo.ts";
import type { PasswordResetRow, PasswordResetsRepo } from "../db/password-resets.repo.ts";
import { type Reads, readSoon } from "../db/reads.ts";
import type { WriteTx } from "../db/tx.ts";
import type { UsersRepo } from "../db/users.repo.ts";
import { unixSeconds, type Clock } from "../lib/clock.ts";
import type { Logger } from "../lib/logger.ts";
import { OutboxSender } from "../lib/pump.ts";
import type { SecretBox } from "../lib/secret-box.ts";
import { activeMembership } from "../domain/presenters/user.presenter.ts";
import { localeFor } from "../shared/locale.ts";
import { invitationMail, resetMail, resetPath } from "./account-mail-texts.ts";
import { accountTransport } from "./account-transport.ts";
import { afterFailedSend } from "./mail-errors.ts";

/** A crash mid-send: the attempt is retried after this long (a send that hangs is cut off well before). */
const IN_FLIGHT_SECONDS = 300;
const CONCURRENCY = 2;

export interface ResetMailDeps {
  /** Only the lease's holder sends (several processes: src/lib/lease.ts). */
  lease?: Lease;
  passwordResets: PasswordResetsRepo;
  users: UsersRepo;
  accounts: AccountsRepo;
  secretBox: SecretBox;
  writeTx: WriteTx;
  clock: Clock;
  logger: Logger;
  config: AccountMailConfig | null;
  /** Where the web app is reached (PARLEY_PUBLIC_URL, or the address the server listens on). */
  publicUrl: () => string;
}

export class ResetMailSender extends OutboxSender<PasswordResetRow> {
  constructor(private readonly d: ResetMailDeps) {
    super({
      name: "reset mail",
      // No mail server, no sending: requests are refused then (503), so nothing waits here.
      due: (limit) => (d.config ? readSoon(d.passwordResets.readDue(unixSeconds(d.clock), limit)) : []),
      keyField: "user_id",
      concurrency: CONCURRENCY,
      lease: d.lease,
      logger: d.logger,
    });
  }

  protected async send(row: PasswordResetRow): Promise<void> {
    const config = this.d.config!;
    const now = unixSeconds(this.d.clock);
    const claimed = await this.d.writeTx.steps(() =>
      this.d.passwordResets.recordAttemptSteps(row, now, now + IN_FLIGHT_SECONDS),
    );
    if (!claimed) return;
    const user = await readSoon(this.d.users.readById(row.user_id));
    const token = row.sealed_token ? this.d.secretBox.open(row.sealed_token) : null;
    // Sealed with a key this server no longer has (PARLEY_SECRET_KEY changed): the link cannot be written.
    if (!user || !token) return this.fail(row, "the reset link could not be opened with this server's key");
    const server = `SMTP server ${config.host}:${config.port}`;
    try {
      const transport = await accountTransport(config);
      try {
        const link = `${this.d.publicUrl()}${resetPath(token)}`;
        const account = await readSoon(this.readAccountOf(row));
        const locale = localeFor(account?.locale);
        await transport.sendMail(
          row.purpose === "invitation"
            ? invitationMail(locale, config.from, user, account?.name ?? "Parley", link)
            : resetMail(locale, config.from, user, link),
        );
      } finally {
        transport.close();
      }
      await this.d.writeTx.steps(() => this.d.passwordResets.sentSteps(row, unixSeconds(this.d.clock)));
    } catch (error) {
      const attempts = row.attempts + 1;
      const { reason, retryAt } = afterFailedSend(error, server, attempts, unixSeconds(this.d.clock));
      if (retryAt === null) return this.fail(row, reason);
      this.d.logger.warn("reset mail failed; will retry", { user_id: row.user_id, attempts, error: reason });
      await this.d.writeTx.steps(() => this.d.passwordResets.retryAtSteps(row, retryAt, reason));
    }
  }

  /** The account whose language the mail speaks: the inviting one, else the one the user last worked in. */
  private *readAccountOf(row: PasswordResetRow): Reads<AccountRow | null> {
    const id = row.account_id ?? activeMembership(yield* this.d.users.readAccountsOf(row.user_id))?.account_id;
    return id == null ? null : yield* this.d.accounts.readById(id);
  }

  private async fail(row: PasswordResetRow, reason: string): Promise<void> {
    this.d.logger.warn("reset mail given up", { user_id: row.user_id, error: reason });
    await this.d.writeTx.steps(() => this.d.passwordResets.failedSteps(row, reason));
  }
}
