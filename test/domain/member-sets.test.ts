import { describe, expect, test } from "bun:test";
import { known, type Reads, readNow } from "../../src/db/reads.ts";
import {
  addMembersSteps,
  type MemberStore,
  readAccountUserIds,
  removeMembersSteps,
  replaceMembersSteps,
} from "../../src/domain/member-sets.ts";
import { errorsOf } from "../helpers/errors.ts";

// The step forms run in place, as SQLite runs a write's body.
const accountUserIds = (raw: unknown, isMember: (id: number) => boolean) =>
  readNow(readAccountUserIds(raw, (id) => known(isMember(id))));
const addMembers = (s: MemberStore, g: number, ids: number[], now: number) => readNow(addMembersSteps(s, g, ids, now));
const replaceMembers = (s: MemberStore, g: number, ids: number[], now: number) =>
  readNow(replaceMembersSteps(s, g, ids, now));
const removeMembers = (s: MemberStore, g: number, ids: number[]) => readNow(removeMembersSteps(s, g, ids));

function store(initial: number[] = []): MemberStore & { ids: Set<number>; memberIds(g: number): number[] } {
  const ids = new Set(initial);
  const memberIds = () => [...ids].sort((a, b) => a - b);
  return {
    ids,
    memberIds,
    readMemberIds: () => known(memberIds()),
    // biome-ignore lint/correctness/useYield: a store in memory needs no statement
    *addMemberSteps(_g: number, id: number): Reads<void> {
      ids.add(id);
    },
    // biome-ignore lint/correctness/useYield: a store in memory needs no statement
    *removeMemberSteps(_g: number, id: number): Reads<void> {
      ids.delete(id);
    },
  };
}

describe("accountUserIds", () => {
  const members = new Set([1, 2, 3]);
  const isMember = (id: number) => members.has(id);

  test("distinct ids in order; digit strings accepted", () => {
    expect(accountUserIds([3, "1", 3, 2], isMember)).toEqual([3, 1, 2]);
    expect(accountUserIds([], isMember)).toEqual([]);
  });

  test("missing, not an array, bad items, strangers", () => {
    expect(errorsOf(() => accountUserIds(undefined, isMember))).toEqual([
      { field: "user_ids", message: "can't be blank", code: "required" },
    ]);
    expect(errorsOf(() => accountUserIds("1,2", isMember))).toEqual([
      { field: "user_ids", message: "must be an array of user ids", code: "invalid" },
    ]);
    expect(errorsOf(() => accountUserIds([1, -2, 1.5], isMember)).map((e) => e.field)).toEqual([
      "user_ids[1]",
      "user_ids[2]",
    ]);
    expect(errorsOf(() => accountUserIds([1, 7, 9], isMember))).toEqual([
      { field: "user_ids", message: "are not agents of this account: 7, 9", code: "invalid" },
    ]);
    expect(
      errorsOf(() =>
        accountUserIds(
          Array.from({ length: 1001 }, (_, i) => i + 1),
          isMember,
        ),
      )[0]!.code,
    ).toBe("too_long");
  });
});

describe("member set changes", () => {
  test("add returns only the ids it added", () => {
    const s = store([1]);
    expect(addMembers(s, 1, [1, 2, 3], 0)).toEqual([2, 3]);
    expect(s.memberIds(1)).toEqual([1, 2, 3]);
  });

  test("replace makes the set exactly the ids; remove ignores non-members", () => {
    const s = store([1, 2]);
    replaceMembers(s, 1, [2, 4], 0);
    expect(s.memberIds(1)).toEqual([2, 4]);
    removeMembers(s, 1, [4, 9]);
    expect(s.memberIds(1)).toEqual([2]);
    replaceMembers(s, 1, [], 0);
    expect(s.memberIds(1)).toEqual([]);
  });
});
