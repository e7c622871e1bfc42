// Account labels: the named, coloured list administrators keep. Conversations and
// contacts carry labels as free-form titles (a title needs no label record, as in Chatwoot); a label
// record's rename re-tags every conversation and contact carrying its title, and its delete untags
// them, in the same transaction (Chatwoot does it later, in a job).
import type { AccountLabelsRepo, LabelFields, LabelRow } from "../db/account-labels.repo.ts";
import type { ConversationsRepo } from "../db/conversations.repo.ts";
import type { LabelsRepo } from "../db/labels.repo.ts";
import type { ConversationRow } from "../db/conversations.repo.ts";
import { nested, type Reads, readSoon } from "../db/reads.ts";
import type { WriteTx } from "../db/tx.ts";
import { unixSeconds, type Clock } from "../lib/clock.ts";
import { actingAs, type Acting } from "./acting.ts";
import { requireAdministrator, type AccountPrincipal } from "./auth.service.ts";
import type { ConversationEvents } from "./conversation-events.ts";
import type { ConversationViews } from "./conversation-view.ts";
import { FieldErrors } from "./errors.ts";
import { readRecordAt } from "./path-record.ts";
import { optionalString } from "./validate.ts";

export const DEFAULT_LABEL_COLOR = "#1f93ff";
/** Conversations re-tagged per batch of view queries. */
const RETAG_CHUNK = 500;
/** Chatwoot's rule (lib/regex_helper.rb): a letter or digit, then letters, digits, `_` or `-`; two characters at least. */
const TITLE = /^[\p{L}\p{N}][\p{L}\p{N}_-]+$/u;
const COLOR = /^#[0-9a-fA-F]{6}$/;

export interface LabelInput {
  title?: unknown;
  description?: unknown;
  color?: unknown;
  show_on_sidebar?: unknown;
}

/**
 * Told when a label is renamed: steps of the renaming body (automation rules follow the new title),
 * and once that body has committed.
 */
export interface LabelRenamed {
  steps(accountId: number, from: string, to: string): Reads<void>;
  committed(accountId: number): void;
}

export interface LabelsDeps {
  accountLabels: AccountLabelsRepo;
  labels: LabelsRepo;
  conversations: ConversationsRepo;
  events: ConversationEvents;
  views: ConversationViews;
  writeTx: WriteTx;
  clock: Clock;
  onRenamed?: LabelRenamed;
}

export class LabelsService {
  constructor(private readonly d: LabelsDeps) {}

  /** Read-only: awaited on PostgreSQL (src/db/reads.ts readSoon), in place on SQLite. */
  list(accountId: number): LabelRow[] | Promise<LabelRow[]> {
    return readSoon(this.d.accountLabels.readList(accountId));
  }

  /** The read-only route's single label: awaited on PostgreSQL. */
  get(p: AccountPrincipal, rawId: unknown): LabelRow | Promise<LabelRow> {
    requireAdministrator(p);
    return readSoon(this.readExisting(p.account.id, rawId));
  }

  async create(p: AccountPrincipal, input: LabelInput): Promise<LabelRow> {
    requireAdministrator(p);
    const { accountLabels, clock } = this.d;
    const self = this;
    return await this.d.writeTx.steps(function* () {
      const fields = yield* self.readFields(p.account.id, input, null);
      const id = yield* accountLabels.insertSteps(p.account.id, fields, unixSeconds(clock));
      return (yield* accountLabels.readById(p.account.id, id))!;
    });
  }

  async update(p: AccountPrincipal, rawId: unknown, input: LabelInput): Promise<LabelRow> {
    requireAdministrator(p);
    const { label, renamed } = await this.d.writeTx.steps(() => this.readUpdate(p, rawId, input));
    if (renamed) this.d.onRenamed?.committed(p.account.id);
    return label;
  }

  /** Deletes the record and takes its title off every conversation and contact. */
  async delete(p: AccountPrincipal, rawId: unknown): Promise<void> {
    requireAdministrator(p);
    const { accountLabels } = this.d;
    const self = this;
    await this.d.writeTx.steps(function* () {
      const current = yield* self.readExisting(p.account.id, rawId);
      yield* accountLabels.deleteSteps(p.account.id, current.id);
      yield* self.retagSteps(actingAs(p), current.title, null);
    });
  }

  /** The update's body; a rename re-tags what carries the old title, and the automation rules follow. */
  private *readUpdate(
    p: AccountPrincipal,
    rawId: unknown,
    input: LabelInput,
  ): Reads<{ label: LabelRow; renamed: boolean }> {
    const { accountLabels, clock, onRenamed } = this.d;
    const current = yield* this.readExisting(p.account.id, rawId);
    const fields = yield* this.readFields(p.account.id, input, current);
    const renamed = fields.title !== current.title;
    yield* accountLabels.updateSteps(p.account.id, current.id, fields, unixSeconds(clock));
    if (renamed) {
      yield* this.retagSteps(actingAs(p), current.title, fields.title);
      if (onRenamed) yield* onRenamed.steps(p.account.id, current.title, fields.title);
    }
    return { label: (yield* accountLabels.readById(p.account.id, current.id))!, renamed };
  }

  /** The label the path names, or its 404, as a step of a write's body. */
  private readExisting(accountId: number, rawId: unknown): Reads<LabelRow> {
    return readRecordAt("Label", rawId, (id) => this.d.accountLabels.readById(accountId, id));
  }

  /**
   * Renames (or removes) a title on contacts and conversations. Each conversation records
   * conversation_updated with its label_list change, as a change through the labels route does;
   * contacts' labels have no event (none exists for them in Chatwoot either).
   */
  private *retagSteps(a: Acting, from: string, to: string | null): Reads<void> {
    const { accountLabels, labels, conversations, views, events, clock } = this.d;
    const accountId = a.account.id;
    yield* accountLabels.contacts.retagSteps(accountId, from, to);
    const ids = yield* accountLabels.conversations.readOwners(accountId, from);
    if (ids.length === 0) return;
    const before = yield* nested(labels.readOf("conversation", ids));
    yield* accountLabels.conversations.retagSteps(accountId, from, to);
    const nowMs = clock.nowMs();
    // Views are built a chunk at a time (a fixed number of queries per chunk, not per conversation).
    for (let i = 0; i < ids.length; i += RETAG_CHUNK) {
      const chunk = ids.slice(i, i + RETAG_CHUNK);
      const after = yield* nested(labels.readOf("conversation", chunk));
      const rows: ConversationRow[] = [];
      for (const id of chunk) {
        const row = yield* conversations.readById(id);
        if (row) rows.push(row);
      }
      const next = rows.map((row) => ({ ...row, updated_at_ms: nowMs }));
      for (const row of next) yield* conversations.saveSteps(row);
      const chunkViews = yield* views.readMany(next, { account: a.account, viewerId: null, api: false });
      for (const [j, row] of rows.entries()) {
        const change = { before: before.get(row.id) ?? [], after: after.get(row.id) ?? [] };
        yield* events.changedSteps(a, row, next[j]!, change, chunkViews[j]);
      }
    }
  }

  private *readFields(accountId: number, input: LabelInput, current: LabelRow | null): Reads<LabelFields> {
    const errors = new FieldErrors();
    let title = current?.title;
    if (current === null || input.title !== undefined) {
      title = this.title(errors, input.title);
      if (title !== undefined) {
        const holder = yield* this.d.accountLabels.readByTitle(accountId, title);
        if (holder && holder.id !== current?.id) errors.add("title", "has already been taken", "taken");
      }
    }
    const description = optionalString(errors, "description", input.description, 1000);
    let color = current?.color ?? DEFAULT_LABEL_COLOR;
    if (input.color !== undefined && input.color !== null && input.color !== "") {
      if (typeof input.color === "string" && COLOR.test(input.color.trim())) color = input.color.trim();
      else errors.add("color", "must be a hexadecimal colour code #RRGGBB", "invalid");
    }
    let sidebar = current?.show_on_sidebar ?? 0;
    const s = input.show_on_sidebar;
    if (s === true || s === "true") sidebar = 1;
    else if (s === false || s === "false" || s === null) sidebar = 0;
    else if (s !== undefined) errors.add("show_on_sidebar", "must be true or false", "invalid");
    errors.throwIfAny();
    return {
      title: title!,
      description: description === undefined ? (current?.description ?? null) : description,
      color,
      show_on_sidebar: sidebar,
    };
  }

  /** Lower-cased first, then checked (Chatwoot's order: "Billing" is fine and becomes "billing"). */
  private title(errors: FieldErrors, raw: unknown): string | undefined {
    if (raw === undefined || raw === null || (typeof raw === "string" && raw.trim() === "")) {
      errors.add("title", "can't be blank", "required");
      return undefined;
    }
    if (typeof raw !== "string") {
      errors.add("title", "must be a string", "invalid");
      return undefined;
    }
    const title = raw.toLowerCase();
    if (title.length > 255) errors.add("title", "is too long (maximum is 255 characters)", "too_long");
    else if (!TITLE.test(title)) {
      errors.add(
        "title",
        "is invalid: start with a letter or digit, then letters, digits, - or _, no spaces, at least 2 characters",
        "invalid",
      );
    } else return title;
    return undefined;
  }
}
