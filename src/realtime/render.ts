// Turns an outbox event into what the realtime stream sends: Chatwoot's event name and push data.
// The outbox keeps webhook-shaped payloads; realtime differs only for messages (push data is the
// account API message record: integer message_type, Unix created_at, status, echo_id, sender push
// data) and typing (sender push data). So conversation and contact events go out as recorded, and
// message events are re-rendered from the message row — as it is now, so a replayed message shows
// its current content and status — with the conversation summary as recorded at the event. An
// event whose message no longer exists (its conversation was deleted) is not sent. Each event is
// rendered once, however many sockets receive it; a small cache serves replays of recent events.
import type { AgentBotsRepo } from "../db/agent-bots.repo.ts";
import type { FileLinks } from "../files/links.ts";
import type { ContactsRepo } from "../db/contacts.repo.ts";
import type { ConversationRefsRepo, MemberRef } from "../db/conversation-refs.repo.ts";
import type { MessagesRepo } from "../db/messages.repo.ts";
import { nested, type Reads, readNow } from "../db/reads.ts";
import type { SenderBook } from "../domain/conversation-view.ts";
import { contactPushData } from "../domain/presenters/contact.presenter.ts";
import { messagePushData, type MessageScope } from "../domain/presenters/message.presenter.ts";
import { userPushData } from "../domain/presenters/user.presenter.ts";
import type { StoredEvent } from "../shared/event-types.ts";
import { REALTIME_NAMES, TYPING_KINDS } from "./visibility.ts";

export interface Rendered {
  seq: number;
  event: string;
  data: Record<string, unknown>;
  /** Unix seconds. */
  created_at: number;
  /** The ActionCable `message` object as JSON, built on first use. */
  json?: string;
}

export function renderedJson(r: Rendered): string {
  return (r.json ??= JSON.stringify({ event: r.event, data: r.data, seq: r.seq }));
}

export interface RenderDeps {
  messages: MessagesRepo;
  conversationRefs: ConversationRefsRepo;
  contacts: ContactsRepo;
  agentBots: AgentBotsRepo;
  links: FileLinks;
  /** Whether the agent has a socket open (availability_status of senders). */
  isOnline: (accountId: number, userId: number) => boolean;
}

const CACHE_SIZE = 512;
const SKIP = null;
type Obj = Record<string, unknown>;
const obj = (v: unknown): Obj => (v && typeof v === "object" ? (v as Obj) : {});

export class EventRenderer {
  private readonly cache = new Map<number, Rendered | null>();

  constructor(private readonly d: RenderDeps) {}

  /** The event as sent, or null when it is not sent at all. */
  render(e: StoredEvent): Rendered | null {
    const cached = this.cache.get(e.id);
    return cached !== undefined ? cached : readNow(this.readRender(e));
  }

  /** render as steps: in place for the live stream and a socket's replay, awaited for the HTTP catch-up. */
  *readRender(e: StoredEvent): Reads<Rendered | null> {
    if (this.cache.has(e.id)) return this.cache.get(e.id)!;
    const event = REALTIME_NAMES[e.kind];
    const data = event === undefined ? SKIP : yield* nested(this.readData(e));
    // Every payload names its account, as Chatwoot's ActionCableListener adds it to every broadcast:
    // Chatwoot's dashboard and mobile app drop an event whose data.account_id is not the account shown.
    const out =
      data === SKIP
        ? null
        : {
            seq: e.id,
            event: event!,
            data: { ...data, account_id: e.accountId },
            created_at: Math.floor(e.createdAtMs / 1000),
          };
    this.cache.set(e.id, out);
    if (this.cache.size > CACHE_SIZE) this.cache.delete(this.cache.keys().next().value!);
    return out;
  }

  private *readData(e: StoredEvent): Reads<Obj | null> {
    if (e.kind === "message_created" || e.kind === "message_updated") return yield* nested(this.readMessage(e));
    if (TYPING_KINDS.has(e.kind)) return yield* nested(this.readTyping(e));
    return e.payload;
  }

  private *readMessage(e: StoredEvent): Reads<Obj | null> {
    const id = e.payload.id;
    const m = typeof id === "number" ? yield* nested(this.d.messages.readInAccount(e.accountId, id)) : null;
    if (!m) return SKIP;
    const conversation = obj(e.payload.conversation);
    const meta = obj(conversation.meta);
    const scope: MessageScope = {
      displayId: conversation.id as number,
      summary: {
        assignee_id: (obj(meta.assignee).id as number | undefined) ?? null,
        unread_count: (conversation.unread_count as number | undefined) ?? 0,
        last_activity_at: (conversation.last_activity_at as number | undefined) ?? m.created_at,
        contact_inbox: { source_id: String(obj(conversation.contact_inbox).source_id ?? "") },
      },
      senders: yield* nested(this.readSenders(e.accountId, m.sender_type, m.sender_id)),
      links: this.d.links,
    };
    const data = messagePushData(m, scope);
    // Push data shows an agent sender's presence (the API record does not know it).
    const user = m.sender_id === null ? undefined : scope.senders.users.get(m.sender_id);
    return user
      ? { ...data, sender: userPushData(user.user, user.membership, this.d.isOnline(e.accountId, user.user.id)) }
      : data;
  }

  private *readSenders(accountId: number, type: string | null, id: number | null): Reads<SenderBook> {
    const book: SenderBook = { users: new Map(), contacts: new Map() };
    if (id === null) return book;
    if (type === "User") {
      const member = yield* nested(this.readMember(accountId, id));
      if (member) book.users.set(id, member);
    } else if (type === "Contact") book.contacts = yield* nested(this.d.contacts.readByIds([id]));
    else if (type === "AgentBot") {
      const b = yield* nested(this.d.agentBots.readById(id));
      if (b) book.bots = new Map([[id, { id, name: b.name, avatar_url: b.avatar_url }]]);
    }
    return book;
  }

  private *readMember(accountId: number, id: number): Reads<MemberRef | null> {
    return (yield* nested(this.d.conversationRefs.readMembers(accountId, [id]))).get(id) ?? null;
  }

  /** Chatwoot: {conversation: push data, user: the typist's push data, is_private}. */
  private *readTyping(e: StoredEvent): Reads<Obj> {
    let user: unknown = e.payload.user ?? null;
    if (e.actor.type === "user" && e.actor.id !== null) {
      const member = yield* nested(this.readMember(e.accountId, e.actor.id));
      if (member) user = userPushData(member.user, member.membership, this.d.isOnline(e.accountId, e.actor.id));
    } else if (e.actor.type === "contact" && e.actor.id !== null) {
      const contact = (yield* nested(this.d.contacts.readByIds([e.actor.id]))).get(e.actor.id);
      if (contact) user = contactPushData(contact);
    }
    return { conversation: e.payload.conversation ?? null, user, is_private: e.payload.is_private === true };
  }
}
