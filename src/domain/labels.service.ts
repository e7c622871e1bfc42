// Account labels: the named, coloured list administrators keep. Conversations and
// contacts carry labels as free-form titles (a title needs no label record, as in Chatwoot); a label
// record's rename re-tags every conversation and contact carrying its title, and its delete untags
// them, in the same transaction (Chatwoot does it later, in a job).
import type { AccountLabelsRepo, LabelFields, LabelRow } from "../db/account-labels.repo.ts";
import type { ConversationsRepo } from "../db/conversations.repo.ts";
import type { LabelsRepo } from "../db/labels.repo.ts";
import { readSoon } from "../db/reads.ts";
import type { WriteTx } from "../db/tx.ts";
import { unixSeconds, type Clock } from "../lib/clock.ts";
import { actingAs, type Acting } from "./acting.ts";
import { parseId, requireAdministrator, type AccountPrincipal } from "./auth.service.ts";
import type { ConversationEvents } from "./conversation-events.ts";
import type { ConversationViews } from "./conversation-view.ts";
import { FieldErrors, NotFoundError } from "./errors.ts";
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

/** Told when a label is renamed, inside the renaming transaction (automation rules follow the new title). */
export type LabelRenamed = (accountId: number, from: string, to: string) => void;

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

  get(p: AccountPrincipal, rawId: unknown): LabelRow {
    requireAdministrator(p);
    return this.find(p.account.id, rawId);
  }

  async create(p: AccountPrincipal, input: LabelInput): Promise<LabelRow> {
    requireAdministrator(p);
    return await this.d.writeTx(() => {
      const fields = this.fields(p.account.id, input, null);
      const id = this.d.accountLabels.insert(p.account.id, fields, unixSeconds(this.d.clock));
      return this.d.accountLabels.byId(p.account.id, id)!;
    });
  }

  async update(p: AccountPrincipal, rawId: unknown, input: LabelInput): Promise<LabelRow> {
    requireAdministrator(p);
    return await this.d.writeTx(() => {
      const current = this.find(p.account.id, rawId);
      const fields = this.fields(p.account.id, input, current);
      this.d.accountLabels.update(p.account.id, current.id, fields, unixSeconds(this.d.clock));
      if (fields.title !== current.title) {
        this.retag(actingAs(p), current.title, fields.title);
        this.d.onRenamed?.(p.account.id, current.title, fields.title);
      }
      return this.d.accountLabels.byId(p.account.id, current.id)!;
    });
  }

  /** Deletes the record and takes its title off every conversation and contact. */
  async delete(p: AccountPrincipal, rawId: unknown): Promise<void> {
    requireAdministrator(p);
    await this.d.writeTx(() => {
      const current = this.find(p.account.id, rawId);
      this.d.accountLabels.delete(p.account.id, current.id);
      this.retag(actingAs(p), current.title, null);
    });
  }

  private find(accountId: number, rawId: unknown): LabelRow {
    const id = parseId(rawId);
    const row = id === null ? null : this.d.accountLabels.byId(accountId, id);
    if (!row) throw new NotFoundError("Label", "id", `no label ${String(rawId)} in this account`);
    return row;
  }

  /**
   * Renames (or removes) a title on contacts and conversations. Each conversation records
   * conversation_updated with its label_list change, as a change through the labels route does;
   * contacts' labels have no event (none exists for them in Chatwoot either).
   */
  private retag(a: Acting, from: string, to: string | null): void {
    const accountId = a.account.id;
    this.d.accountLabels.contacts.retag(accountId, from, to);
    const ids = this.d.accountLabels.conversations.owners(accountId, from);
    if (ids.length === 0) return;
    const before = this.d.labels.of("conversation", ids);
    this.d.accountLabels.conversations.retag(accountId, from, to);
    const nowMs = this.d.clock.nowMs();
    // Views are built a chunk at a time (a fixed number of queries per chunk, not per conversation).
    for (let i = 0; i < ids.length; i += RETAG_CHUNK) {
      const chunk = ids.slice(i, i + RETAG_CHUNK);
      const after = this.d.labels.of("conversation", chunk);
      const rows = chunk.flatMap((id) => this.d.conversations.byId(id) ?? []);
      const next = rows.map((row) => ({ ...row, updated_at_ms: nowMs }));
      for (const row of next) this.d.conversations.save(row);
      const views = this.d.views.many(next, { account: a.account, viewerId: null, api: false });
      rows.forEach((row, j) => {
        this.d.events.changed(
          a,
          row,
          next[j]!,
          { before: before.get(row.id) ?? [], after: after.get(row.id) ?? [] },
          views[j],
        );
      });
    }
  }

  private fields(accountId: number, input: LabelInput, current: LabelRow | null): LabelFields {
    const errors = new FieldErrors();
    let title = current?.title;
    if (current === null || input.title !== undefined) {
      title = this.title(errors, input.title);
      if (title !== undefined) {
        const holder = this.d.accountLabels.byTitle(accountId, title);
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
