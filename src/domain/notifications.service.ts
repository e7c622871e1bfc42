// Agents' notifications: made after the commit of the event that concerns them (a durable bus
// listener, src/events/listeners/notifications.listener.ts, which then tells the user's open
// sockets); read, marked and deleted through Chatwoot's notifications API by their own user only.
// Who gets what: notification-builder.ts. The table is the record: a socket that missed a
// notification.created (it was closed) reads the list and unread count when it comes back.
import type { ConversationRefsRepo } from "../db/conversation-refs.repo.ts";
import { nested, type Reads, readSoon } from "../db/reads.ts";
import type { WriteTx } from "../db/tx.ts";
import type { NotificationMailRepo } from "../db/notification-mail.repo.ts";
import type { NotificationFlags, NotificationRow, NotificationsRepo } from "../db/notifications.repo.ts";
import type { PushRepo } from "../db/push.repo.ts";
import type { AccountMember, RealtimeRepo } from "../db/realtime.repo.ts";
import type { UsersRepo } from "../db/users.repo.ts";
import type { StoredEvent } from "../shared/event-types.ts";
import { unixSeconds, type Clock } from "../lib/clock.ts";
import { whenReady } from "../lib/when-ready.ts";
import type { AccountPrincipal } from "./auth.service.ts";
import { NotFoundError, ValidationError } from "./errors.ts";
import {
  conversationOf,
  NOTIFICATION_TYPES,
  planNotifications,
  type AccountFacts,
  type Planned,
} from "./notification-builder.ts";
import { notificationOf, type NotificationData } from "./presenters/notification.presenter.ts";
import { userPushData } from "./presenters/user.presenter.ts";

export const NOTIFICATIONS_PER_PAGE = 15;

/** A notification just made: its push data is read after the commit, for users with an open socket only. */
export interface NotificationCreated {
  accountId: number;
  userId: number;
  notificationId: number;
}
const DEFAULT_FLAGS = [
  "conversation_creation",
  "conversation_assignment",
  "conversation_mention",
  "assigned_conversation_new_message",
];

/** A notification is mailed this long after it was made, and only if the agent has not read it by then. */
export const NOTIFICATION_MAIL_DELAY_SECONDS = 60;

interface NotificationsDeps {
  notifications: NotificationsRepo;
  notificationMail: NotificationMailRepo;
  /** Whether the server can send mail (PARLEY_SMTP_URL): the email flags are kept either way. */
  mailConfigured: boolean;
  push: PushRepo;
  /** Whether a push relay is configured (PARLEY_PUSH_RELAY_URL): the push flags are kept either way. */
  pushConfigured: boolean;
  realtime: RealtimeRepo;
  conversationRefs: ConversationRefsRepo;
  users: UsersRepo;
  writeTx: WriteTx;
  clock: Clock;
}

export class NotificationsService {
  constructor(private readonly d: NotificationsDeps) {}

  /**
   * The listener's work for one event: the notifications it makes, in one transaction. Returns who
   * got which, so that once the transaction has committed the users' sockets can hear of it.
   */
  async handle(e: StoredEvent): Promise<NotificationCreated[]> {
    // Read on PostgreSQL's read pool (the event has committed), and only what this event's plan asks.
    const planned = await readSoon(planNotifications(e, this.facts(e.accountId)));
    if (planned.length === 0 || e.conversationId === null) return [];
    const conversation = conversationOf(e);
    const primary = { id: conversation.id, meta: conversation.meta, inbox_id: conversation.inbox_id };
    const at = unixSeconds(this.d.clock);
    return this.d.writeTx.steps(() => this.makeSteps(e, planned, primary, at));
  }

  private *makeSteps(
    e: StoredEvent,
    planned: Planned[],
    primary: NotificationData["primary_actor"],
    at: number,
  ): Reads<NotificationCreated[]> {
    const created: NotificationCreated[] = [];
    for (const p of planned) {
      const data: NotificationData = {
        push_message_title: p.title,
        primary_actor: primary,
        secondary_actor: p.secondary,
      };
      const notificationId = yield* this.d.notifications.insertSteps({
        accountId: e.accountId,
        userId: p.userId,
        type: p.type,
        conversationId: e.conversationId!,
        data: JSON.stringify(data),
        at,
      });
      // The user's choices are read once, and only when there is a way to send them.
      const chosen =
        this.d.mailConfigured || this.d.pushConfigured
          ? chosenOf(yield* this.d.notifications.readSettings(e.accountId, p.userId))
          : null;
      if (this.d.mailConfigured && chosen?.email.includes(p.type)) {
        const mail = { notification_id: notificationId, account_id: e.accountId, user_id: p.userId };
        yield* this.d.notificationMail.insertSteps(mail, at + NOTIFICATION_MAIL_DELAY_SECONDS, at);
      }
      // A push to each of the user's phones, at once (Chatwoot's).
      if (this.d.pushConfigured && chosen?.push.includes(p.type))
        yield* this.d.push.queueSteps(notificationId, p.userId, at);
      created.push({ accountId: e.accountId, userId: p.userId, notificationId });
    }
    return created;
  }

  /**
   * Chatwoot's notification.created: the notification, the user's unread count and count — as they
   * are now (null when it was deleted meanwhile). Two counts over the user's notifications: asked
   * only for users who are listening, never for nobody.
   */
  pushData(c: NotificationCreated): Record<string, unknown> | null | Promise<Record<string, unknown> | null> {
    const { notifications } = this.d;
    const self = this;
    return readSoon(
      (function* (): Reads<Record<string, unknown> | null> {
        const row = yield* notifications.readById(c.accountId, c.userId, c.notificationId);
        if (!row) return null;
        return {
          notification: yield* self.readPresent(row),
          unread_count: yield* notifications.readUnreadCount(c.accountId, c.userId),
          count: yield* notifications.readCount(c.accountId, c.userId),
        };
      })(),
    );
  }

  /** Read only when an event could notify someone: most events (a message to nobody's conversation) never ask. */
  private facts(accountId: number): AccountFacts {
    const { realtime, conversationRefs } = this.d;
    let loaded: Map<number, AccountMember> | null = null;
    const inboxMembers = new Map<number, Set<number>>();
    function* of(inboxId: number): Reads<Set<number>> {
      let ids = inboxMembers.get(inboxId);
      if (!ids) inboxMembers.set(inboxId, (ids = yield* realtime.readInboxMemberIds(inboxId)));
      return ids;
    }
    return {
      inboxMembers: of,
      *maySee(userId, inboxId) {
        loaded ??= yield* realtime.readAccountMembers(accountId);
        const m = loaded.get(userId);
        return m !== undefined && (m.role === "administrator" || (yield* of(inboxId)).has(userId));
      },
      *inboxName(inboxId) {
        return (yield* conversationRefs.readInboxes([inboxId])).get(inboxId)?.name ?? `inbox ${inboxId}`;
      },
    };
  }

  private *readPresent(row: NotificationRow): Reads<ReturnType<typeof notificationOf>> {
    const user = yield* this.d.users.readById(row.user_id);
    return notificationOf(row, user ? userPushData(user, null) : { id: row.user_id });
  }

  /**
   * `sortOrder`: Chatwoot's sort_order, desc (newest activity first, the default) or asc. Read-only:
   * awaited on PostgreSQL (src/db/reads.ts readSoon), in place on SQLite.
   */
  list(p: AccountPrincipal, rawPage: unknown, sortOrder: unknown = undefined) {
    const page = typeof rawPage === "string" && /^[1-9]\d{0,6}$/.test(rawPage) ? Number(rawPage) : 1;
    if (sortOrder !== undefined && sortOrder !== "asc" && sortOrder !== "desc")
      throw ValidationError.of("sort_order", "must be asc or desc", "invalid");
    const { notifications } = this.d;
    const [account, user] = [p.account.id, p.user.id];
    const offset = (page - 1) * NOTIFICATIONS_PER_PAGE;
    const recipient = userPushData(p.user, p.membership);
    return readSoon(
      (function* () {
        const rows = yield* nested(
          notifications.readPage(account, user, NOTIFICATIONS_PER_PAGE, offset, sortOrder === "asc"),
        );
        const unread = yield* nested(notifications.readUnreadCount(account, user));
        const count = yield* nested(notifications.readCount(account, user));
        const meta = { unread_count: unread, count, current_page: page };
        return { data: { meta, payload: rows.map((r) => notificationOf(r, recipient)) } };
      })(),
    );
  }

  unreadCount(p: AccountPrincipal): number | Promise<number> {
    return readSoon(this.d.notifications.readUnreadCount(p.account.id, p.user.id));
  }

  /** The user's own notification, or its 404: a step of the body that changes it. */
  private *readOwn(p: AccountPrincipal, id: number): Reads<NotificationRow> {
    const row = yield* this.d.notifications.readById(p.account.id, p.user.id, id);
    if (!row) throw new NotFoundError("Notification", "id", `no notification ${id} of yours in this account`);
    return row;
  }

  /** Marks one read (PATCH) or unread again (POST …/unread). */
  async setRead(p: AccountPrincipal, id: number, read: boolean): Promise<ReturnType<typeof notificationOf>> {
    const { notifications, clock } = this.d;
    const self = this;
    const row = await this.d.writeTx.steps(function* () {
      const current = yield* self.readOwn(p, id);
      yield* notifications.setReadSteps(current.id, read ? unixSeconds(clock) : null);
      return yield* self.readOwn(p, id);
    });
    return notificationOf(row, userPushData(p.user, p.membership));
  }

  /** Every unread one read, or only those of one conversation (primary_actor_type Conversation + its id). */
  async readAll(p: AccountPrincipal, actorType: unknown, actorId: unknown): Promise<void> {
    let conversationId: number | null = null;
    if (actorType !== undefined && actorType !== null && actorType !== "") {
      if (actorType !== "Conversation")
        throw ValidationError.of("primary_actor_type", "must be Conversation", "invalid");
      const id = Number(actorId);
      if (!Number.isSafeInteger(id) || id < 1)
        throw ValidationError.of("primary_actor_id", "must be a conversation id", "invalid");
      conversationId = id;
    }
    await this.d.writeTx.steps(() =>
      this.d.notifications.readAllSteps(p.account.id, p.user.id, unixSeconds(this.d.clock), conversationId),
    );
  }

  async delete(p: AccountPrincipal, id: number): Promise<void> {
    const { notifications } = this.d;
    const self = this;
    await this.d.writeTx.steps(function* () {
      yield* notifications.deleteSteps((yield* self.readOwn(p, id)).id);
    });
  }

  /** Read-only: awaited on PostgreSQL (src/db/reads.ts readSoon), in place on SQLite. */
  settings(p: AccountPrincipal): SettingsView | Promise<SettingsView> {
    return whenReady(readSoon(this.d.notifications.readSettings(p.account.id, p.user.id)), (s) =>
      settingsView(p, chosenOf(s)),
    );
  }

  /** Chatwoot's body: notification_settings: {selected_email_flags: [...], selected_push_flags: [...]}. */
  async saveSettings(
    p: AccountPrincipal,
    input: { selected_email_flags?: unknown; selected_push_flags?: unknown },
  ): Promise<SettingsView> {
    const current = settingsView(
      p,
      chosenOf(await readSoon(this.d.notifications.readSettings(p.account.id, p.user.id))),
    );
    const read = (field: string, raw: unknown, kind: string, fallback: string[]): string[] => {
      if (raw === undefined) return fallback.map((f) => f.slice(kind.length + 1));
      const list = Array.isArray(raw) ? raw : null;
      const bad =
        list === null
          ? [String(raw)]
          : list.filter((f) => typeof f !== "string" || !NOTIFICATION_TYPES.some((t) => f === `${kind}_${t}`));
      if (bad.length)
        throw ValidationError.of(
          field,
          `has unknown flags: ${bad.join(", ")}; choose from ${NOTIFICATION_TYPES.map((t) => `${kind}_${t}`).join(", ")}`,
          "invalid",
        );
      return (list as string[]).map((f) => f.slice(kind.length + 1));
    };
    const email = read("selected_email_flags", input.selected_email_flags, "email", current.selected_email_flags);
    const push = read("selected_push_flags", input.selected_push_flags, "push", current.selected_push_flags);
    await this.d.writeTx.steps(() =>
      this.d.notifications.saveSettingsSteps(p.account.id, p.user.id, JSON.stringify(email), JSON.stringify(push)),
    );
    return settingsView(p, { email, push });
  }
}

type Chosen = { email: string[]; push: string[] };

function chosenOf(s: NotificationFlags | null): Chosen {
  if (!s) return { email: DEFAULT_FLAGS, push: DEFAULT_FLAGS };
  return { email: JSON.parse(s.email_flags) as string[], push: JSON.parse(s.push_flags) as string[] };
}

/** Chatwoot's notification_settings record: every flag, and the ones the user chose. */
function settingsView(p: AccountPrincipal, chosen: Chosen) {
  const flags = (kind: string) => NOTIFICATION_TYPES.map((t) => `${kind}_${t}`);
  return {
    id: p.user.id,
    user_id: p.user.id,
    account_id: p.account.id,
    all_email_flags: flags("email"),
    selected_email_flags: chosen.email.map((t) => `email_${t}`),
    all_push_flags: flags("push"),
    selected_push_flags: chosen.push.map((t) => `push_${t}`),
  };
}

type SettingsView = ReturnType<typeof settingsView>;
