// Typing indicators (Chatwoot's TypingStatusManager): an agent or a contact starts or stops typing
// in a conversation. Nothing is stored but the event: conversation_typing_on/off goes to the outbox
// like any other, because webhooks subscribe to it; realtime streams it to the conversation's
// agents and (unless it is a private note being typed) to its contact.
import type { ContactsRepo } from "../db/contacts.repo.ts";
import type { ConversationRow } from "../db/conversations.repo.ts";
import type { Reads } from "../db/reads.ts";
import type { WriteTx } from "../db/tx.ts";
import type { Acting } from "./acting.ts";
import type { ConversationEvents } from "./conversation-events.ts";
import { ValidationError } from "./errors.ts";
import { contactWebhookData } from "./presenters/contact.presenter.ts";
import { conversationPushData } from "./presenters/conversation.presenter.ts";

export interface TypingDeps {
  events: ConversationEvents;
  contacts: ContactsRepo;
  writeTx: WriteTx;
}

export class TypingService {
  constructor(private readonly d: TypingDeps) {}

  /** `typing_status` "on" or "off" (422 otherwise); `is_private` marks a note being typed (agents only). */
  async toggle(a: Acting, row: ConversationRow, typingStatus: unknown, isPrivate: unknown): Promise<void> {
    if (typingStatus !== "on" && typingStatus !== "off")
      throw ValidationError.of("typing_status", "must be on or off", "invalid");
    const hidden = a.actor.type !== "contact" && (isPrivate === true || isPrivate === "true");
    const kind = typingStatus === "on" ? "conversation_typing_on" : "conversation_typing_off";
    await this.d.writeTx.steps(() => this.toggleSteps(a, row, kind, hidden));
  }

  private *toggleSteps(
    a: Acting,
    row: ConversationRow,
    kind: "conversation_typing_on" | "conversation_typing_off",
    hidden: boolean,
  ): Reads<void> {
    const payload = {
      user: yield* this.readTypist(a, row),
      conversation: conversationPushData(yield* this.d.events.readView(a, row)),
      is_private: hidden,
    };
    yield* this.d.events.recordSteps(a, kind, row, payload, hidden);
  }

  /** The typist as webhooks show them: a user's {id, name, email, type}, a contact's webhook data. */
  private *readTypist(a: Acting, row: ConversationRow): Reads<Record<string, unknown> | null> {
    if (a.user) return { id: a.user.id, name: a.user.name, email: a.user.email, type: "user" };
    if (a.actor.type === "contact" && a.actor.id !== null) {
      const contact = yield* this.d.contacts.readById(row.account_id, a.actor.id);
      return contact ? contactWebhookData(contact, a.account) : null;
    }
    return null;
  }
}
