// The agent sets of inboxes and teams: reading `user_ids`, and adding, replacing and removing members.
// Both refuse user ids that are not members of the account (Chatwoot would create dangling or
// cross-account memberships), naming every such id in one 422. Written as steps (src/db/reads.ts),
// so that a member change runs in one awaited body on PostgreSQL (src/db/tx.ts writeTx.steps).
import type { Reads } from "../db/reads.ts";
import { parseId } from "./auth.service.ts";
import { FieldErrors } from "./errors.ts";

/** Where a group (inbox or team) keeps its member user ids. */
export interface MemberStore {
  // Properties, not method signatures: the step-forms scan would take `…Steps(` here for a call.
  readMemberIds: (groupId: number) => Reads<number[]>;
  addMemberSteps: (groupId: number, userId: number, now: number) => Reads<void>;
  removeMemberSteps: (groupId: number, userId: number) => Reads<void>;
}

const MAX_IDS = 1000;

/** `user_ids` as distinct ids, each a member of the account; otherwise a ValidationError. */
export function* readAccountUserIds(
  raw: unknown,
  readIsAccountMember: (userId: number) => Reads<boolean>,
  field = "user_ids",
): Reads<number[]> {
  const errors = new FieldErrors();
  if (raw === undefined || raw === null) errors.add(field, "can't be blank", "required");
  else if (!Array.isArray(raw)) errors.add(field, "must be an array of user ids", "invalid");
  else if (raw.length > MAX_IDS) errors.add(field, `may list at most ${MAX_IDS} user ids`, "too_long");
  errors.throwIfAny();
  const ids: number[] = [];
  (raw as unknown[]).forEach((value, i) => {
    const id = parseId(value);
    if (id === null) errors.add(`${field}[${i}]`, "must be a positive integer user id", "invalid");
    else if (!ids.includes(id)) ids.push(id);
  });
  errors.throwIfAny();
  const strangers: number[] = [];
  for (const id of ids) if (!(yield* readIsAccountMember(id))) strangers.push(id);
  if (strangers.length)
    errors.add(field, `are not agents of this account: ${strangers.join(", ")}`, "invalid").throwIfAny();
  return ids;
}

/** Adds the ids that are not members yet; returns those it added. */
export function* addMembersSteps(store: MemberStore, groupId: number, ids: number[], now: number): Reads<number[]> {
  const current = new Set(yield* store.readMemberIds(groupId));
  const added = ids.filter((id) => !current.has(id));
  for (const id of added) yield* store.addMemberSteps(groupId, id, now);
  return added;
}

/** Makes the member set exactly `ids`. */
export function* replaceMembersSteps(store: MemberStore, groupId: number, ids: number[], now: number): Reads<void> {
  const wanted = new Set(ids);
  for (const id of yield* store.readMemberIds(groupId))
    if (!wanted.has(id)) yield* store.removeMemberSteps(groupId, id);
  yield* addMembersSteps(store, groupId, ids, now);
}

export function* removeMembersSteps(store: MemberStore, groupId: number, ids: number[]): Reads<void> {
  for (const id of ids) yield* store.removeMemberSteps(groupId, id);
}
