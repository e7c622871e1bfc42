// Notes on a contact (Chatwoot's contacts/:id/notes): any member who may see the contact may read
// and write them; the writer is recorded as the note's user.
import type { ContactNoteRow, ContactNotesRepo } from "../db/contact-notes.repo.ts";
import type { ConversationRefsRepo, MemberRef } from "../db/conversation-refs.repo.ts";
import { chain, nested, type Reads, readSoon } from "../db/reads.ts";
import type { WriteTx } from "../db/tx.ts";
import { unixSeconds, type Clock } from "../lib/clock.ts";
import type { Acting } from "./acting.ts";
import type { ContactReads } from "./contact-reads.ts";
import { FieldErrors, NotFoundError } from "./errors.ts";
import { agentOf } from "./presenters/user.presenter.ts";
import { requiredString } from "./validate.ts";

export interface ContactNotesDeps {
  contactNotes: ContactNotesRepo;
  conversationRefs: ConversationRefsRepo;
  contactReads: ContactReads;
  writeTx: WriteTx;
  clock: Clock;
}

const MAX_NOTE = 20_000;

export class ContactNotesService {
  constructor(private readonly d: ContactNotesDeps) {}

  /** Read-only: awaited on PostgreSQL (src/db/reads.ts readSoon), in place on SQLite. */
  list(a: Acting, contactId: number): Note[] | Promise<Note[]> {
    const { contactNotes } = this.d;
    const notes = chain(this.d.contactReads.readExisting(a.account.id, contactId), () =>
      contactNotes.readOfContact(contactId),
    );
    return readSoon(chain(notes, (rows) => this.readPresent(a, rows)));
  }

  /** One note for a read-only route, as list(). */
  showSoon(a: Acting, contactId: number, id: number): Note | Promise<Note> {
    return readSoon(chain(this.readNote(a, contactId, id), (note) => this.readPresentOne(a, note)));
  }

  async create(a: Acting, contactId: number, input: { content?: unknown }): Promise<Note> {
    const { contactNotes, clock } = this.d;
    const self = this;
    return await this.d.writeTx.steps(function* () {
      yield* self.d.contactReads.readExisting(a.account.id, contactId);
      const content = self.content(input.content);
      const userId = a.user?.id ?? null;
      const id = yield* contactNotes.insertSteps(a.account.id, contactId, userId, content, unixSeconds(clock));
      return yield* self.readPresentOne(a, yield* self.readNote(a, contactId, id));
    });
  }

  async update(a: Acting, contactId: number, id: number, input: { content?: unknown }): Promise<Note> {
    const { contactNotes, clock } = this.d;
    const self = this;
    return await this.d.writeTx.steps(function* () {
      yield* self.readNote(a, contactId, id);
      yield* contactNotes.updateSteps(id, self.content(input.content), unixSeconds(clock));
      return yield* self.readPresentOne(a, yield* self.readNote(a, contactId, id));
    });
  }

  async delete(a: Acting, contactId: number, id: number): Promise<void> {
    const { contactNotes } = this.d;
    const self = this;
    await this.d.writeTx.steps(function* () {
      yield* contactNotes.deleteSteps((yield* self.readNote(a, contactId, id)).id);
    });
  }

  /** The note, after the contact's 404 and then its own: the same in a write's body as in a read. */
  private *readNote(a: Acting, contactId: number, id: number): Reads<ContactNoteRow> {
    yield* nested(this.d.contactReads.readExisting(a.account.id, contactId));
    return noteFound(id, yield* nested(this.d.contactNotes.readById(contactId, id)));
  }

  private content(raw: unknown): string {
    const errors = new FieldErrors();
    const content = requiredString(errors, "content", typeof raw === "string" ? raw.trim() : raw, MAX_NOTE);
    errors.throwIfAny();
    return content!;
  }

  private *readPresent(a: Acting, notes: ContactNoteRow[]): Reads<Note[]> {
    return notesOf(notes, yield* nested(this.d.conversationRefs.readMembers(a.account.id, writers(notes))));
  }

  private *readPresentOne(a: Acting, note: ContactNoteRow): Reads<Note> {
    return (yield* nested(this.readPresent(a, [note])))[0]!;
  }
}

function noteFound(id: number, note: ContactNoteRow | null): ContactNoteRow {
  if (!note) throw new NotFoundError("Note", "id", `no note ${id} on this contact`);
  return note;
}

const writers = (notes: ContactNoteRow[]) => notes.flatMap((n) => (n.user_id === null ? [] : [n.user_id]));

/** Chatwoot's note: id, content, account_id, contact_id, the writer as an agent record, times. */
function notesOf(notes: ContactNoteRow[], members: Map<number, MemberRef>) {
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

type Note = ReturnType<typeof notesOf>[number];
