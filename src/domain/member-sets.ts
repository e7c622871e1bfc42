// The agent sets of inboxes and teams: reading `user_ids`, and adding, replacing and removing members.
// Both refuse user ids that are not members of the account (Chatwoot would create dangling or
// cross-account memberships), naming every such id in one 422.
import { parseId } from "./auth.service.ts";
import { FieldErrors } from "./errors.ts";

/** Where a group (inbox or team) keeps its member user ids. */
export interface MemberStore {
  memberIds(groupId: number): number[];
  addMember(groupId: number, userId: number, now: number): void;
  removeMember(groupId: number, userId: number): void;
}

const MAX_IDS = 1000;

/** `user_ids` as distinct ids, each a member of the account; otherwise a ValidationError. */
export function accountUserIds(
  raw: unknown,
  isAccountMember: (userId: number) => boolean,
  field = "user_ids",
): number[] {
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
  const strangers = ids.filter((id) => !isAccountMember(id));
  if (strangers.length)
    errors.add(field, `are not agents of this account: ${strangers.join(", ")}`, "invalid").throwIfAny();
  return ids;
}

/** Adds the ids that are not members yet; returns those it added. */
export function addMembers(store: MemberStore, groupId: number, ids: number[], now: number): number[] {
  const current = new Set(store.memberIds(groupId));
  const added = ids.filter((id) => !current.has(id));
  for (const id of added) store.addMember(groupId, id, now);
  return added;
}

/** Makes the member set exactly `ids`. */
export function replaceMembers(store: MemberStore, groupId: number, ids: number[], now: number): void {
  const wanted = new Set(ids);
  for (const id of store.memberIds(groupId)) if (!wanted.has(id)) store.removeMember(groupId, id);
  addMembers(store, groupId, ids, now);
}

export function removeMembers(store: MemberStore, groupId: number, ids: number[]): void {
  for (const id of ids) store.removeMember(groupId, id);
}
