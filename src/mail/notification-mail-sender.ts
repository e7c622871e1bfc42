// Mails agents the notifications they chose by email (notification_settings' email_* flags), through
// the installation's SMTP server. A mail goes a minute after its notification was made, and not at
// all if the agent has read the notification (opened the conversation) by then or it was replaced
// by a newer one: Chatwoot mails at once unless read, which mails an agent who is looking at the
// screen. Each attempt is claimed before it is made; failures retry with the email replies' backoff.
import type { Lease } from "../lib/lease.ts";
import type { AccountMailConfig } from "../config-mail.ts";
import type { AccountsRepo } from "../db/accounts.repo.ts";
import type { ConversationRefsRepo } from "../db/conversation-refs.repo.ts";
import type { ConversationsRepo } from "../db/conversations.repo.ts";
import type { NotificationMailRepo, NotificationMailRow } from "../db/notification-mail.repo.ts";
import type { NotificationsRepo } from "../db/notifications.repo.ts";
import { type Reads, readSoon } from "../db/reads.ts";
import type { WriteTx } from "../db/tx.ts";
import type { UsersRepo } from "../db/users.repo.ts";
import { unixSeconds, type Clock } from "../lib/clock.ts";
import type { Logger } from "../lib/logger.ts";
import { OutboxSender } from "../lib/pump.ts";
import { localeFor } from "../shared/locale.ts";
import { mentionsAsText } from "../shared/mentions.ts";
import { notificationMail } from "./account-mail-texts.ts";
import { accountTransport } from "./account-transport.ts";
import { afterFailedSend } from "./mail-errors.ts";

const IN_FLIGHT_SECONDS = 300;
const CONCURRENCY = 2;
/** Enough of a message to answer from the mail's preview; the link leads to the rest. */
const MESSAGE_CHARS = 2000;

export interface NotificationMailDeps {
  /** Only the lease's holder sends (several processes: src/lib/lease.ts). */
  lease?: Lease;
  notificationMail: NotificationMailRepo;
  notifications: NotificationsRepo;
  users: UsersRepo;
  accounts: AccountsRepo;
  conversations: ConversationsRepo;
  conversationRefs: ConversationRefsRepo;
  writeTx: WriteTx;
  clock: Clock;
  logger: Logger;
  config: AccountMailConfig | null;
  publicUrl: () => string;
}

export class NotificationMailSender extends OutboxSender<NotificationMailRow> {
  constructor(private readonly d: NotificationMailDeps) {
    super({
      name: "notification mail",
      due: (limit) => (d.config ? readSoon(d.notificationMail.readDue(unixSeconds(d.clock), limit)) : []),
      keyField: "notification_id",
      concurrency: CONCURRENCY,
      lease: d.lease,
      logger: d.logger,
    });
  }

  protected async send(row: NotificationMailRow): Promise<void> {
    const now = unixSeconds(this.d.clock);
    const id = row.notification_id;
    const { notificationMail } = this.d;
    if (!(await this.d.writeTx.steps(() => notificationMail.recordAttemptSteps(id, now, now + IN_FLIGHT_SECONDS))))
      return;
    const mail = await readSoon(this.readMail(row));
    if (!mail) {
      await this.d.writeTx.steps(() => notificationMail.finishSteps(id, "skipped", now));
      return;
    }
    const config = this.d.config!;
    try {
      const transport = await accountTransport(config);
      try {
        await transport.sendMail({ from: config.from, ...mail });
      } finally {
        transport.close();
      }
      await this.d.writeTx.steps(() => notificationMail.finishSteps(id, "sent", unixSeconds(this.d.clock)));
    } catch (error) {
      const attempts = row.attempts + 1;
      const server = `SMTP server ${config.host}:${config.port}`;
      const { reason, retryAt } = afterFailedSend(error, server, attempts, unixSeconds(this.d.clock));
      this.d.logger.warn("notification mail failed", { notification_id: id, attempts, error: reason });
      const at = unixSeconds(this.d.clock);
      await this.d.writeTx.steps(function* () {
        if (retryAt === null) yield* notificationMail.finishSteps(id, "failed", at, reason);
        else yield* notificationMail.retryAtSteps(id, retryAt, reason);
      });
    }
  }

  /** The mail as things are now; null when there is nothing to tell (read, replaced, gone, or they left). */
  private *readMail(row: NotificationMailRow): Reads<ReturnType<typeof notificationMail> | null> {
    const n = yield* this.d.notifications.readById(row.account_id, row.user_id, row.notification_id);
    if (!n || n.read_at !== null) return null;
    const user = yield* this.d.users.readById(row.user_id);
    const account = yield* this.d.accounts.readById(row.account_id);
    const conversation = yield* this.d.conversations.readById(n.conversation_id);
    // Someone who has left the account since hears nothing more of its conversations.
    if (!user || !account || !conversation || !(yield* this.d.users.readMembership(account.id, user.id))) return null;
    const inbox = (yield* this.d.conversationRefs.readInboxes([conversation.inbox_id])).get(conversation.inbox_id);
    const data = JSON.parse(n.data) as { secondary_actor?: { content?: unknown } | null };
    const content = data.secondary_actor?.content;
    const message = typeof content === "string" ? mentionsAsText(content).trim().slice(0, MESSAGE_CHARS) : "";
    return notificationMail(localeFor(account.locale), {
      to: { name: user.name, address: user.email },
      type: n.notification_type,
      account: account.name,
      inbox: inbox?.name ?? "",
      displayId: conversation.display_id,
      message,
      link: `${this.d.publicUrl()}/app/accounts/${account.id}/conversations/${conversation.display_id}`,
    });
  }
}
