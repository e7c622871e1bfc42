// Saved filters (Chatwoot's custom_filters): each user's own, per account, of type conversation,
// contact or report. A conversation or contact filter's `query.payload` is checked with the same
// rules as POST .../filter, so a saved filter always runs.
import type { CustomFilterRow, CustomFiltersRepo, CustomFilterType } from "../db/custom-filters.repo.ts";
import { readSoon } from "../db/reads.ts";
import { whenReady } from "../lib/when-ready.ts";
import type { WriteTx } from "../db/tx.ts";
import { unixSeconds, type Clock } from "../lib/clock.ts";
import type { Acting } from "./acting.ts";
import { FieldErrors, NotFoundError, ValidationError } from "./errors.ts";
import { CONTACT_ATTRIBUTES, CONVERSATION_ATTRIBUTES, filterConditions } from "./filter-input.ts";
import { oneOf, requiredString } from "./validate.ts";

export const CUSTOM_FILTER_TYPES = ["conversation", "contact", "report"] as const;
export const MAX_CUSTOM_FILTERS_PER_USER = 50;

export interface CustomFiltersDeps {
  customFilters: CustomFiltersRepo;
  writeTx: WriteTx;
  clock: Clock;
}

export interface CustomFilterInput {
  name?: unknown;
  filter_type?: unknown;
  query?: unknown;
}

export class CustomFiltersService {
  constructor(private readonly d: CustomFiltersDeps) {}

  /** Read-only: awaited on PostgreSQL (src/db/reads.ts readSoon), in place on SQLite. */
  list(a: Acting, rawType: unknown): CustomFilterRow[] | Promise<CustomFilterRow[]> {
    const errors = new FieldErrors();
    const type =
      rawType === undefined || rawType === ""
        ? "conversation"
        : oneOf(errors, "filter_type", rawType, CUSTOM_FILTER_TYPES);
    errors.throwIfAny();
    return readSoon(this.d.customFilters.readList(a.account.id, this.userId(a), type!));
  }

  /** The read-only route's single filter: awaited on PostgreSQL. */
  get(a: Acting, id: number): CustomFilterRow | Promise<CustomFilterRow> {
    return whenReady(readSoon(this.d.customFilters.readById(a.account.id, this.userId(a), id)), (row) =>
      found(id, row),
    );
  }

  async create(a: Acting, input: CustomFilterInput): Promise<CustomFilterRow> {
    const fields = this.fields(input, null);
    const userId = this.userId(a);
    const { customFilters, clock } = this.d;
    return await this.d.writeTx.steps(function* () {
      if ((yield* customFilters.readCount(a.account.id, userId)) >= MAX_CUSTOM_FILTERS_PER_USER) {
        throw ValidationError.of(
          "base",
          `Account limit exceeded: at most ${MAX_CUSTOM_FILTERS_PER_USER} custom filters per user`,
          "limit",
        );
      }
      const id = yield* customFilters.insertSteps(a.account.id, userId, fields, unixSeconds(clock));
      return found(id, yield* customFilters.readById(a.account.id, userId, id));
    });
  }

  async update(a: Acting, id: number, input: CustomFilterInput): Promise<CustomFilterRow> {
    const userId = this.userId(a);
    const { customFilters, clock } = this.d;
    const self = this;
    return await this.d.writeTx.steps(function* () {
      const before = found(id, yield* customFilters.readById(a.account.id, userId, id));
      yield* customFilters.updateSteps(id, self.fields(input, before), unixSeconds(clock));
      return found(id, yield* customFilters.readById(a.account.id, userId, id));
    });
  }

  async delete(a: Acting, id: number): Promise<void> {
    const userId = this.userId(a);
    const { customFilters } = this.d;
    await this.d.writeTx.steps(function* () {
      found(id, yield* customFilters.readById(a.account.id, userId, id));
      yield* customFilters.deleteSteps(id);
    });
  }

  private userId(a: Acting): number {
    // Saved filters belong to a user; account routes always act as one.
    return a.user!.id;
  }

  private fields(
    input: CustomFilterInput,
    before: CustomFilterRow | null,
  ): Pick<CustomFilterRow, "name" | "filter_type" | "query"> {
    const errors = new FieldErrors();
    const name = input.name === undefined && before ? before.name : requiredString(errors, "name", input.name, 255);
    const type: CustomFilterType | undefined =
      input.filter_type === undefined
        ? (before?.filter_type ?? "conversation")
        : oneOf(errors, "filter_type", input.filter_type, CUSTOM_FILTER_TYPES);
    let query = before ? (JSON.parse(before.query) as unknown) : undefined;
    if (input.query !== undefined) query = input.query;
    if (query === undefined) errors.add("query", "can't be blank", "required");
    else if (query === null || typeof query !== "object" || Array.isArray(query))
      errors.add("query", "must be an object (with the filter's payload)", "invalid");
    errors.throwIfAny();
    const payload = (query as Record<string, unknown>).payload;
    if ((type === "conversation" || type === "contact") && payload !== undefined) {
      // Checked now (item names prefixed with query.) so the filter runs when it is used.
      try {
        filterConditions(
          payload,
          type === "contact" ? CONTACT_ATTRIBUTES : CONVERSATION_ATTRIBUTES,
          `${type}_attribute`,
          unixSeconds(this.d.clock),
        );
      } catch (error) {
        if (error instanceof ValidationError)
          throw new ValidationError(error.errors.map((e) => ({ ...e, field: `query.${e.field}` })));
        throw error;
      }
    }
    return { name: name!, filter_type: type!, query: JSON.stringify(query) };
  }
}

/** Another user's filter, or another account's, is as unknown as one that never was. */
function found(id: number, row: CustomFilterRow | null): CustomFilterRow {
  if (!row) throw new NotFoundError("Custom filter", "id", `no custom filter ${id} of yours in this account`);
  return row;
}
