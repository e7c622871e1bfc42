// Inboxes: administrators create, change and delete them; agents see the inboxes they are members of.
// Creates and updates record inbox_created / inbox_updated (with changed_attributes) in the outbox.
import type { EmailChannelsRepo, EmailSettings } from "../db/email-channels.repo.ts";
import type { InboxesRepo, InboxRow } from "../db/inboxes.repo.ts";
import { chain, nested, type Reads, readSoon } from "../db/reads.ts";
import type { WriteTx } from "../db/tx.ts";
import type { EventOutbox } from "../events/outbox.ts";
import type { Actor } from "../shared/event-types.ts";
import { unixSeconds, type Clock } from "../lib/clock.ts";
import type { AccountPrincipal } from "./auth.service.ts";
import { requireAdministrator } from "./auth.service.ts";
import { ForbiddenError, NotFoundError } from "./errors.ts";
import { inboxFields, type InboxInput } from "./inbox-input.ts";
import type { SecretBox } from "../lib/secret-box.ts";
import { emailSettings, mentionsEmailSettings } from "./email-settings-input.ts";
import { emailChannelOf, type EmailChannelView } from "./presenters/email-channel.presenter.ts";
import { changedAttributes, inboxPushData } from "./presenters/inbox.presenter.ts";

export interface InboxesDeps {
  inboxes: InboxesRepo;
  emailChannels: EmailChannelsRepo;
  /** Seals the mailbox passwords of email inboxes. */
  secretBox: SecretBox;
  writeTx: WriteTx;
  clock: Clock;
  outbox: EventOutbox;
}

/** An inbox with what administrators see of an email inbox's mail settings (null otherwise). */
export interface ShownInbox {
  row: InboxRow;
  email: EmailChannelView | null;
}

export const userActor = (p: AccountPrincipal): Actor => ({ type: "user", id: p.user.id });

export class InboxesService {
  constructor(private readonly d: InboxesDeps) {}

  /**
   * Administrators see every inbox of the account; agents only those they are members of. Read-only:
   * awaited on PostgreSQL (src/db/reads.ts readSoon), in place on SQLite.
   */
  list(p: AccountPrincipal): ShownInbox[] | Promise<ShownInbox[]> {
    const visible = this.d.inboxes.readVisible(p.account.id, p.role === "administrator" ? null : p.user.id);
    return readSoon(chain(visible, (rows) => this.readAllShown(p, rows)));
  }

  /** get() with its mail settings, for a read-only route: awaited on PostgreSQL, in place on SQLite. */
  show(p: AccountPrincipal, id: number | null): ShownInbox | Promise<ShownInbox> {
    return readSoon(chain(this.readVisibleOne(p, id), (row) => this.readShown(p, row)));
  }

  /** An inbox of this account (404 otherwise), without checking who may see it; in place, for get(). */
  find(accountId: number, id: number | null): InboxRow {
    return found(id, id === null ? null : this.d.inboxes.byId(accountId, id));
  }

  /** find() as a step of a Reads or of a write's awaited body: the same 404. */
  *readFound(accountId: number, id: number | null): Reads<InboxRow> {
    return found(id, id === null ? null : yield* nested(this.d.inboxes.readById(accountId, id)));
  }

  /** An inbox the caller may see: administrators any, agents only their member inboxes (403). */
  get(p: AccountPrincipal, id: number | null): InboxRow {
    const inbox = this.find(p.account.id, id);
    if (p.role !== "administrator" && !this.d.inboxes.members.has(inbox.id, p.user.id)) throw notMember();
    return inbox;
  }

  /** get() as a step of a read-only route's Reads: the same 404, then the same 403. */
  *readVisibleOne(p: AccountPrincipal, id: number | null): Reads<InboxRow> {
    const inbox = yield* nested(this.readFound(p.account.id, id));
    if (p.role !== "administrator" && !(yield* nested(this.d.inboxes.members.readHas(inbox.id, p.user.id))))
      throw notMember();
    return inbox;
  }

  /**
   * A row the caller has just written, as they see it (an email inbox's mail settings for
   * administrators). Awaited on PostgreSQL's read pool: an awaited body's promise settles after its
   * commit, so the pool sees what it wrote.
   */
  shown(p: AccountPrincipal, row: InboxRow): ShownInbox | Promise<ShownInbox> {
    return readSoon(this.readShown(p, row));
  }

  /** The inbox as the caller sees it: an email inbox's mail settings are administrators' business. */
  private *readShown(p: AccountPrincipal, row: InboxRow): Reads<ShownInbox> {
    if (p.role !== "administrator" || row.channel_type !== "email") return { row, email: null };
    return { row, email: emailChannelOf(yield* nested(this.d.emailChannels.readByInbox(row.id))) };
  }

  private *readAllShown(p: AccountPrincipal, rows: InboxRow[]): Reads<ShownInbox[]> {
    const out: ShownInbox[] = [];
    for (const row of rows) out.push(yield* nested(this.readShown(p, row)));
    return out;
  }

  create(p: AccountPrincipal, input: InboxInput): Promise<InboxRow> {
    const { inboxes, emailChannels, outbox, secretBox, clock } = this.d;
    return this.d.writeTx.steps(function* () {
      requireAdministrator(p);
      const fields = inboxFields(input, null);
      const email = fields.channel_type === "email" ? emailSettings(channelOf(input), null, secretBox) : null;
      const id = yield* inboxes.insertSteps(p.account.id, fields, unixSeconds(clock));
      if (email) yield* emailChannels.saveSteps(p.account.id, id, email);
      const inbox = (yield* inboxes.readById(p.account.id, id))!;
      yield* outbox.recordSteps({
        kind: "inbox_created",
        accountId: p.account.id,
        actor: userActor(p),
        inboxId: id,
        payload: inboxPushData(inbox),
      });
      return inbox;
    });
  }

  /** Applies the changes; an update that changes nothing writes nothing and records no event. */
  async update(p: AccountPrincipal, id: number | null, input: InboxInput): Promise<InboxRow> {
    requireAdministrator(p);
    const { inboxes, emailChannels, outbox, clock } = this.d;
    const self = this;
    return this.d.writeTx.steps(function* () {
      const before = yield* self.readFound(p.account.id, id);
      const fields = inboxFields(input, before);
      const now = unixSeconds(clock);
      const email = yield* self.readEmailChange(before, channelOf(input));
      if (email) yield* emailChannels.saveSteps(p.account.id, before.id, email);
      if (changedAttributes(before, { ...before, ...fields, updated_at: now }).length === 0) return before;
      yield* inboxes.updateSteps(p.account.id, before.id, fields, now);
      const after = (yield* inboxes.readById(p.account.id, before.id))!;
      yield* outbox.recordSteps({
        kind: "inbox_updated",
        accountId: p.account.id,
        actor: userActor(p),
        inboxId: after.id,
        payload: { ...inboxPushData(after), changed_attributes: changedAttributes(before, after) },
      });
      return after;
    });
  }

  /** New mail settings when the body changes them, else null (nothing to write). */
  private *readEmailChange(inbox: InboxRow, channel: Record<string, unknown>): Reads<EmailSettings | null> {
    if (inbox.channel_type !== "email" || !mentionsEmailSettings(channel)) return null;
    const current = yield* this.d.emailChannels.readByInbox(inbox.id);
    const next = emailSettings(channel, current, this.d.secretBox);
    const same =
      current !== null && (Object.keys(next) as (keyof EmailSettings)[]).every((k) => next[k] === current[k]);
    return same ? null : next;
  }

  /**
   * Deletes the inbox and its memberships at once (Chatwoot answers first and deletes later; with
   * one SQLite file there is nothing to wait for). Records the internal inbox_deleted event.
   */
  async delete(p: AccountPrincipal, id: number | null): Promise<void> {
    requireAdministrator(p);
    const { inboxes, outbox } = this.d;
    const self = this;
    await this.d.writeTx.steps(function* () {
      const inbox = yield* self.readFound(p.account.id, id);
      yield* inboxes.deleteSteps(p.account.id, inbox.id);
      yield* outbox.recordSteps({
        kind: "inbox_deleted",
        accountId: p.account.id,
        actor: userActor(p),
        inboxId: inbox.id,
        payload: inboxPushData(inbox),
      });
    });
  }
}

function found(id: number | null, inbox: InboxRow | null): InboxRow {
  if (inbox) return inbox;
  throw new NotFoundError(
    "Inbox",
    "id",
    id === null ? "no such inbox in this account" : `no inbox ${id} in this account`,
  );
}

const notMember = () => new ForbiddenError("You are not a member of this inbox");

function channelOf(input: InboxInput): Record<string, unknown> {
  const c = input.channel;
  return typeof c === "object" && c !== null && !Array.isArray(c) ? (c as Record<string, unknown>) : {};
}
