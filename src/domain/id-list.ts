// A list of record ids in a request (conversations to change in bulk or to run a macro on, inboxes to
// ask about): one to `max` positive integers, as numbers or digit strings, duplicates dropped. Every
// refusal is a 422 naming the field.
import { parseId } from "./auth.service.ts";
import { ValidationError } from "./errors.ts";

export interface IdListOptions {
  max: number;
  /** What the ids name, for the messages: ["conversation", "conversations"]. */
  noun: readonly [one: string, many: string];
  /** A query string's single value (inbox_ids=3) is a list of one, and an empty one is none. */
  scalar?: boolean;
}

export function idList(field: string, raw: unknown, o: IdListOptions): number[] {
  const list = !o.scalar
    ? raw
    : raw === undefined || raw === null || raw === ""
      ? []
      : Array.isArray(raw)
        ? raw
        : [raw];
  if (!Array.isArray(list) || list.length === 0) throw ValidationError.of(field, "can't be blank", "required");
  if (list.length > o.max) throw ValidationError.of(field, `is too long (at most ${o.max} ${o.noun[1]})`, "too_long");
  const ids = list.map(parseId);
  if (ids.some((id) => id === null)) throw ValidationError.of(field, `must be ${o.noun[0]} ids`, "invalid");
  return [...new Set(ids as number[])];
}
