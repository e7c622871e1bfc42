// Notes on a contact (Chatwoot's contacts/:id/notes): any member who may see the contact may read
// and write them; the writer is recorded as the note's user.
import type { ContactNoteRow, ContactNotesRepo } from "../db/contact-notes.repo.ts";
import type { ConversationRefsRepo } from "../db/conversation-refs.repo.ts";
import type { WriteTx } from "../db/tx.ts";
import { unixSeconds, type Clock } from "../lib/clock.ts";
import type { Acting } from "./acting.ts";
import type { ContactsService } from "./contacts.service.ts";
import { FieldErrors, NotFoundError } from "./errors.ts";
import { agentOf } from "./presenters/user.presenter.ts";
import { requiredString } from "./validate.ts";

export interface ContactNotesDeps {
  contactNotes: ContactNotesRepo;
  conversationRefs: ConversationRefsRepo;
  contactsService: ContactsService;
  writeTx: WriteTx;
  clock: Clock;
}

const MAX_NOTE = 20_000;

export class ContactNotesService {
  constructor(private readonly d: ContactNotesDeps) {}

  list(a: Acting, contactId: number) {
    this.d.contactsService.get(a.account.id, contactId);
    return this.present(a, this.d.contactNotes.ofContact(contactId));
  }

  show(a: Acting, contactId: number, id: number) {
    return this.present(a, [this.note(a, contactId, id)])[0]!;
  }

  create(a: Acting, contactId: number, input: { content?: unknown }) {
    this.d.contactsService.get(a.account.id, contactId);
    const content = this.content(input.content);
    const id = this.d.writeTx(() =>
      this.d.contactNotes.insert(a.account.id, contactId, a.user?.id ?? null, content, unixSeconds(this.d.clock)),
    );
    return this.show(a, contactId, id);
  }

  update(a: Acting, contactId: number, id: number, input: { content?: unknown }) {
    this.note(a, contactId, id);
    const content = this.content(input.content);
    this.d.writeTx(() => this.d.contactNotes.update(id, content, unixSeconds(this.d.clock)));
    return this.show(a, contactId, id);
  }

  delete(a: Acting, contactId: number, id: number): void {
    this.note(a, contactId, id);
    this.d.writeTx(() => this.d.contactNotes.delete(id));
  }

  private note(a: Acting, contactId: number, id: number): ContactNoteRow {
    this.d.contactsService.get(a.account.id, contactId);
    const note = this.d.contactNotes.byId(contactId, id);
    if (!note) throw new NotFoundError("Note", "id", `no note ${id} on this contact`);
    return note;
  }

  private content(raw: unknown): string {
    const errors = new FieldErrors();
    const content = requiredString(errors, "content", typeof raw === "string" ? raw.trim() : raw, MAX_NOTE);
    errors.throwIfAny();
    return content!;
  }

  /** Chatwoot's note: id, content, account_id, contact_id, the writer as an agent record, times. */
  private present(a: Acting, notes: ContactNoteRow[]) {
    const members = this.d.conversationRefs.members(
      a.account.id,
      notes.flatMap((n) => (n.user_id === null ? [] : [n.user_id])),
    );
    return notes.map((n) => {
      const m = n.user_id === null ? undefined : members.get(n.user_id);
      return {
        id: n.id,
        content: n.content,
        account_id: n.account_id,
        contact_id: n.contact_id,
        user: m?.membership ? agentOf(m.user, m.membership) : null,
        created_at: n.created_at,
        updated_at: n.updated_at,
      };
    });
  }
}
