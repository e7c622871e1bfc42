// The record a request's path names by its id, for the settings services: not an id, unknown or
// another account's are the same 404. A step of a Reads: of a write's body, or of a read-only
// route's read, awaited on PostgreSQL (src/db/reads.ts).
import { nested, type Reads } from "../db/reads.ts";
import { parseId } from "./auth.service.ts";
import { NotFoundError } from "./errors.ts";

/** `name` as the error names it: "Webhook" answers "Webhook not found", "no webhook 7 in this account". */
export function* readRecordAt<T>(name: string, rawId: unknown, readById: (id: number) => Reads<T | null>): Reads<T> {
  const id = parseId(rawId);
  return known(name, rawId, id === null ? null : yield* nested(readById(id)));
}

function known<T>(name: string, rawId: unknown, row: T | null): T {
  if (!row) throw new NotFoundError(name, "id", `no ${name.toLowerCase()} ${String(rawId)} in this account`);
  return row;
}
