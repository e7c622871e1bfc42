// Everything the presenters need about a conversation, loaded in a fixed number of queries
// whatever the page size (no N+1): lists batch-load contacts, inboxes, assignees, teams, labels,
// last messages and their senders for all the page's conversations at once. Written as Reads
// (src/db/reads.ts): the list endpoints await them, write paths and event payloads run them in place.
import type { ContactInboxRow } from "../db/contact-inboxes.repo.ts";
import type { ContactRow } from "../db/contacts.repo.ts";
import type { InboxRef, MemberRef, TeamRef } from "../db/conversation-refs.repo.ts";
import type { ConversationRow } from "../db/conversations.repo.ts";
import { ACTIVITY, type MessageRow, UNREAD_LIMIT } from "../db/messages.repo.ts";
import { all, known, nested, type Reads, readNow } from "../db/reads.ts";
import type { FileLinks } from "../files/links.ts";
import type { AccountRef } from "./presenters/contact.presenter.ts";

/** An agent bot as a message sender. */
export interface BotRef {
  id: number;
  name: string;
  avatar_url: string | null;
}

/** Senders of the messages being shown, by type. */
export interface SenderBook {
  users: Map<number, MemberRef>;
  contacts: Map<number, ContactRow>;
  /** Agent bots (absent when none of the messages is a bot's). */
  bots?: Map<number, BotRef>;
}

/** The bots among these messages' senders. */
export function* readBotsOf(
  repo: { readById(id: number): Reads<BotRef | null> },
  messages: readonly (MessageRow | null)[],
): Reads<Map<number, BotRef> | undefined> {
  const ids = new Set(
    messages.flatMap((m) => (m?.sender_type === "AgentBot" && m.sender_id !== null ? [m.sender_id] : [])),
  );
  if (ids.size === 0) return undefined;
  const out = new Map<number, BotRef>();
  for (const id of ids) {
    const b = yield* nested(repo.readById(id));
    if (b) out.set(id, { id: b.id, name: b.name, avatar_url: b.avatar_url });
  }
  return out;
}

export interface ConversationView {
  row: ConversationRow;
  account: AccountRef;
  contact: ContactRow;
  contactInbox: ContactInboxRow;
  inbox: InboxRef;
  assignee: MemberRef | null;
  team: TeamRef | null;
  /** Whether the viewing user is a member of the team (Chatwoot's team `is_member`). */
  teamIsMember: boolean;
  labels: string[];
  /** Incoming messages the agent has not seen, up to UNREAD_LIMIT (10, as Chatwoot counts them). */
  unreadCount: number;
  /** Newest public incoming/outgoing message: push data's `messages`. */
  lastChat: MessageRow | null;
  /** Newest message of any kind: the API object's `messages`. */
  lastAny: MessageRow | null;
  /** Newest non-activity message: the API object's `last_non_activity_message`. */
  lastNonActivity: MessageRow | null;
  senders: SenderBook;
  /** Signs the attachment links of the messages shown. */
  links: FileLinks;
}

export function emptySenders(): SenderBook {
  return { users: new Map(), contacts: new Map() };
}

/** User and contact ids of these messages' senders. */
export function senderIds(messages: readonly (MessageRow | null)[]): { users: number[]; contacts: number[] } {
  const users: number[] = [];
  const contacts: number[] = [];
  for (const m of messages) {
    if (!m || m.sender_id === null) continue;
    if (m.sender_type === "User") users.push(m.sender_id);
    else if (m.sender_type === "Contact") contacts.push(m.sender_id);
  }
  return { users, contacts };
}

export interface ViewRepos {
  contacts: import("../db/contacts.repo.ts").ContactsRepo;
  contactInboxes: import("../db/contact-inboxes.repo.ts").ContactInboxesRepo;
  conversationRefs: import("../db/conversation-refs.repo.ts").ConversationRefsRepo;
  messages: import("../db/messages.repo.ts").MessagesRepo;
  labels: import("../db/labels.repo.ts").LabelsRepo;
  agentBots: import("../db/agent-bots.repo.ts").AgentBotsRepo;
}

export interface ViewOptions {
  account: AccountRef;
  /** The user looking (for team `is_member`); null for events. */
  viewerId: number | null;
  /** The API object needs the newest message of any kind and the newest non-activity one; events need neither. */
  api: boolean;
  /** Rows the caller already holds (single-conversation views on the message write path). */
  known?: { contact?: ContactRow; inbox?: InboxRef; lastChat?: MessageRow };
  /**
   * The rows were selected just now, in this request, and nothing was written since: their
   * trigger-kept columns (labels, unread count, newest message id; migration 022) are current and
   * replace three lookups per conversation. A row held across a write (an event's view) would show
   * what it was before the write, so only list pages say so.
   */
  fresh?: boolean;
  /**
   * Only what a message page's meta and its messages use (the message list): the contact, its
   * inbox, the assignee, labels and unread count; no team and no newest messages, which the page
   * shows no trace of.
   */
  brief?: boolean;
}

export class ConversationViews {
  constructor(
    private readonly r: ViewRepos,
    private readonly links: FileLinks,
  ) {}

  /** Adds the senders of these messages (a message page) to the view's sender book. */
  *readWithSenders(view: ConversationView, messages: readonly MessageRow[]): Reads<ConversationView> {
    const ids = senderIds(messages);
    const users = ids.users.filter((id) => !view.senders.users.has(id));
    const contacts = ids.contacts.filter((id) => !view.senders.contacts.has(id));
    if (users.length === 0 && contacts.length === 0 && !messages.some((m) => m.sender_type === "AgentBot")) return view;
    const bots = yield* nested(readBotsOf(this.r.agentBots, messages));
    const book: SenderBook = {
      users: new Map([
        ...view.senders.users,
        ...(yield* nested(this.r.conversationRefs.readMembers(view.account.id, users))),
      ]),
      contacts: new Map([...view.senders.contacts, ...(yield* nested(this.r.contacts.readByIds(contacts)))]),
      ...(bots || view.senders.bots ? { bots: new Map([...(view.senders.bots ?? []), ...(bots ?? [])]) } : {}),
    };
    return { ...view, senders: book };
  }

  one(row: ConversationRow, opts: ViewOptions): ConversationView {
    return this.many([row], opts)[0]!;
  }

  *readOne(row: ConversationRow, opts: ViewOptions): Reads<ConversationView> {
    return (yield* nested(this.readMany([row], opts)))[0]!;
  }

  /** The newest message of each conversation, by the id its row keeps (fresh rows only). */
  private *readLastById(rows: readonly ConversationRow[]): Reads<Map<number, MessageRow>> {
    const byId = yield* nested(
      this.r.messages.readByIds(rows.flatMap((r) => (r.last_message_id === null ? [] : [r.last_message_id]))),
    );
    const out = new Map<number, MessageRow>();
    for (const r of rows) {
      const m = r.last_message_id === null ? undefined : byId.get(r.last_message_id);
      if (m) out.set(r.id, m);
    }
    return out;
  }

  /**
   * The newest message of a kind per conversation. The newest message of any kind, when known, is
   * usually a public chat message and then also the newest of each kind; a conversation without
   * messages has none of any kind. Only the others are read (a page of 25 made 75 reads).
   */
  private *readNewest(
    ids: readonly number[],
    lastAny: Map<number, MessageRow> | null,
    kind: "chat" | "non_activity",
  ): Reads<Map<number, MessageRow>> {
    if (!lastAny) return yield* nested(this.r.messages.readLastOf(ids, kind));
    const fits = (m: MessageRow) => m.message_type !== ACTIVITY && (kind === "non_activity" || m.private === 0);
    const found = new Map<number, MessageRow>();
    const unknown: number[] = [];
    for (const id of ids) {
      const m = lastAny.get(id);
      if (m && fits(m)) found.set(id, m);
      else if (m) unknown.push(id);
    }
    if (unknown.length === 0) return found;
    for (const [id, m] of yield* nested(this.r.messages.readLastOf(unknown, kind))) found.set(id, m);
    return found;
  }

  many(rows: readonly ConversationRow[], opts: ViewOptions): ConversationView[] {
    return readNow(this.readMany(rows, opts));
  }

  *readMany(rows: readonly ConversationRow[], opts: ViewOptions): Reads<ConversationView[]> {
    if (rows.length === 0) return [];
    const ids = rows.map((r) => r.id);
    const accountId = opts.account.id;
    const given = rows.length === 1 ? opts.known : undefined;
    const refs = this.r.conversationRefs;
    const teamIds = opts.brief ? [] : rows.flatMap((r) => (r.team_id === null ? [] : [r.team_id]));
    // Three rounds of reads that need nothing of each other (awaited, each round is on the read pool
    // at once): what the rows name, then the newest messages of each kind, then who sent them.
    const [contacts, contactInboxes, inboxes, teams, myTeams, labels, unread, newestAny] = yield* all(
      given?.contact
        ? known(new Map([[given.contact.id, given.contact]]))
        : this.r.contacts.readByIds(rows.map((r) => r.contact_id)),
      this.r.contactInboxes.readByIds(rows.map((r) => r.contact_inbox_id)),
      given?.inbox ? known(new Map([[given.inbox.id, given.inbox]])) : refs.readInboxes(rows.map((r) => r.inbox_id)),
      refs.readTeams(teamIds),
      opts.viewerId === null ? known(new Set<number>()) : refs.readTeamsOfUser(opts.viewerId, teamIds),
      opts.fresh
        ? known(new Map(rows.map((r) => [r.id, JSON.parse(r.label_list) as string[]])))
        : this.r.labels.readOf("conversation", ids),
      opts.fresh
        ? known(new Map(rows.map((r) => [r.id, Math.min(r.unread_incoming, UNREAD_LIMIT)])))
        : this.r.messages.readUnreadCounts(ids),
      opts.brief
        ? known(null)
        : opts.fresh
          ? this.readLastById(rows)
          : opts.api
            ? this.r.messages.readLastOf(ids, "any")
            : known(null),
    );
    const lastAny = opts.api ? newestAny : null;
    const [lastChat, lastNonActivity] = yield* all(
      given?.lastChat
        ? known(new Map([[ids[0]!, given.lastChat]]))
        : opts.brief
          ? known(new Map<number, MessageRow>())
          : this.readNewest(ids, newestAny, "chat"),
      lastAny ? this.readNewest(ids, lastAny, "non_activity") : known(new Map<number, MessageRow>()),
    );
    const shown = [...lastChat.values(), ...(lastAny?.values() ?? []), ...lastNonActivity.values()];
    const senders = senderIds(shown);
    const missing = senders.contacts.filter((id) => !contacts.has(id));
    const [users, moreContacts, bots] = yield* all(
      refs.readMembers(accountId, [
        ...senders.users,
        ...rows.flatMap((r) => (r.assignee_id === null ? [] : [r.assignee_id])),
      ]),
      missing.length ? this.r.contacts.readByIds(missing) : known(null),
      readBotsOf(this.r.agentBots, shown),
    );
    const senderContacts = moreContacts ? new Map([...contacts, ...moreContacts]) : contacts;
    const book: SenderBook = { users, contacts: senderContacts, ...(bots ? { bots } : {}) };
    return rows.map((row) => ({
      row,
      account: opts.account,
      contact: contacts.get(row.contact_id)!,
      contactInbox: contactInboxes.get(row.contact_inbox_id)!,
      inbox: inboxes.get(row.inbox_id)!,
      assignee: row.assignee_id === null ? null : (users.get(row.assignee_id) ?? null),
      team: row.team_id === null ? null : (teams.get(row.team_id) ?? null),
      teamIsMember: row.team_id !== null && myTeams.has(row.team_id),
      labels: labels.get(row.id) ?? [],
      unreadCount: unread.get(row.id) ?? 0,
      lastChat: lastChat.get(row.id) ?? null,
      lastAny: lastAny?.get(row.id) ?? null,
      lastNonActivity: lastNonActivity.get(row.id) ?? null,
      senders: book,
      links: this.links,
    }));
  }
}
