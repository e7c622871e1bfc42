// Canned responses (Chatwoot's): every member of the account lists, searches, creates, edits and
// deletes them, as in Chatwoot. A short code is one word (letters, digits, - and _; the reply box
// finds it after "/"), unique in the account whatever its case.
import type { CannedResponseRow, CannedResponsesRepo } from "../db/canned-responses.repo.ts";
import { type Reads, readSoon } from "../db/reads.ts";
import type { WriteTx } from "../db/tx.ts";
import { unixSeconds, type Clock } from "../lib/clock.ts";
import type { AccountPrincipal } from "./auth.service.ts";
import { FieldErrors, ValidationError } from "./errors.ts";
import { readRecordAt } from "./path-record.ts";
import { requiredString } from "./validate.ts";

const SHORT_CODE = /^[\p{L}\p{N}_-]+$/u;
/** Chatwoot's message limit: a canned response becomes a message. */
const CONTENT_MAX = 150_000;

export interface CannedResponseInput {
  short_code?: unknown;
  content?: unknown;
}

interface Deps {
  cannedResponses: CannedResponsesRepo;
  writeTx: WriteTx;
  clock: Clock;
}

export class CannedResponsesService {
  constructor(private readonly d: Deps) {}

  /** Read-only: awaited on PostgreSQL (src/db/reads.ts readSoon), in place on SQLite. */
  list(p: AccountPrincipal, search: unknown): CannedResponseRow[] | Promise<CannedResponseRow[]> {
    if (search !== undefined && typeof search !== "string")
      throw ValidationError.of("search", "must be text", "invalid");
    const term = typeof search === "string" ? search.trim() : "";
    if (term.includes("\0") || term.length > 500)
      throw ValidationError.of("search", "must be at most 500 characters, without NUL", "invalid");
    return readSoon(this.d.cannedResponses.readList(p.account.id, term === "" ? null : term));
  }

  create(p: AccountPrincipal, input: CannedResponseInput): Promise<CannedResponseRow> {
    const { cannedResponses, clock } = this.d;
    const self = this;
    return this.d.writeTx.steps(function* () {
      const { shortCode, content } = yield* self.readFields(p.account.id, input, null);
      const id = yield* cannedResponses.insertSteps(p.account.id, shortCode, content, unixSeconds(clock));
      return (yield* cannedResponses.readById(p.account.id, id))!;
    });
  }

  update(p: AccountPrincipal, rawId: unknown, input: CannedResponseInput): Promise<CannedResponseRow> {
    const { cannedResponses, clock } = this.d;
    const self = this;
    return this.d.writeTx.steps(function* () {
      const current = yield* self.readExisting(p.account.id, rawId);
      const { shortCode, content } = yield* self.readFields(p.account.id, input, current);
      yield* cannedResponses.updateSteps(current.id, shortCode, content, unixSeconds(clock));
      return (yield* cannedResponses.readById(p.account.id, current.id))!;
    });
  }

  async delete(p: AccountPrincipal, rawId: unknown): Promise<void> {
    const { cannedResponses } = this.d;
    const self = this;
    await this.d.writeTx.steps(function* () {
      yield* cannedResponses.deleteSteps((yield* self.readExisting(p.account.id, rawId)).id);
    });
  }

  /** The canned response the path names, or its 404, as a step of a write's body. */
  private readExisting(accountId: number, rawId: unknown): Reads<CannedResponseRow> {
    return readRecordAt("Canned response", rawId, (id) => this.d.cannedResponses.readById(accountId, id));
  }

  private *readFields(
    accountId: number,
    input: CannedResponseInput,
    current: CannedResponseRow | null,
  ): Reads<{ shortCode: string; content: string }> {
    const errors = new FieldErrors();
    let shortCode = current?.short_code;
    if (current === null || input.short_code !== undefined) {
      shortCode = requiredString(errors, "short_code", input.short_code, 100);
      if (shortCode !== undefined && !SHORT_CODE.test(shortCode)) {
        errors.add("short_code", "must be one word: letters, digits, - and _", "invalid");
      } else if (shortCode !== undefined) {
        const holder = yield* this.d.cannedResponses.readHolderOf(accountId, shortCode);
        if (holder !== null && holder !== current?.id) errors.add("short_code", "has already been taken", "taken");
      }
    }
    let content = current?.content;
    if (current === null || input.content !== undefined)
      content = requiredString(errors, "content", input.content, CONTENT_MAX);
    errors.throwIfAny();
    return { shortCode: shortCode!, content: content! };
  }
}
