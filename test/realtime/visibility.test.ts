// The visibility rules as a table, without sockets: which viewer sees which event.
import { describe, expect, test } from "bun:test";
import type { AccountMember, RealtimeRepo } from "../../src/db/realtime.repo.ts";
import type { EventKind, StoredEvent } from "../../src/shared/event-types.ts";
import { parseCommand, parseIdentifier } from "../../src/shared/cable-frames.ts";
import { Audience, visible, type Viewer } from "../../src/realtime/visibility.ts";

const ACCOUNT = 1;
const ADMIN = 10;
const AGENT = 11; // member of inbox 100 only
const LEFT = 12; // no longer in the account
const CARLA = 50;

const member = (user_id: number, role: "agent" | "administrator"): AccountMember => ({
  user_id,
  role,
  availability: "online",
  auto_offline: 1,
});
const repo = {
  accountMembers: () =>
    new Map([
      [ADMIN, member(ADMIN, "administrator")],
      [AGENT, member(AGENT, "agent")],
    ]),
  inboxMemberIds: (inboxId: number) => new Set(inboxId === 100 ? [AGENT] : []),
} as unknown as RealtimeRepo;

function event(kind: EventKind, o: Partial<StoredEvent> = {}, payload: Record<string, unknown> = {}): StoredEvent {
  const conversation = { id: 1, contact_inbox: { id: 7 } };
  const base = kind.startsWith("message_") || kind.startsWith("conversation_typing") ? { conversation } : conversation;
  return {
    id: 1,
    kind,
    accountId: ACCOUNT,
    actor: { type: "user", id: ADMIN },
    inboxId: 100,
    conversationId: 1,
    contactId: CARLA,
    private: false,
    payload: { ...base, ...payload },
    createdAtMs: 0,
    ...o,
  };
}

const admin: Viewer = { kind: "user", accountId: ACCOUNT, userId: ADMIN };
const agent: Viewer = { kind: "user", accountId: ACCOUNT, userId: AGENT };
const left: Viewer = { kind: "user", accountId: ACCOUNT, userId: LEFT };
const carla: Viewer = { kind: "contact", accountId: ACCOUNT, contactId: CARLA, contactInboxId: 7, hmacVerified: false };
const carlaVerified: Viewer = { ...carla, contactInboxId: 8, hmacVerified: true };
const carlaOtherInbox: Viewer = { ...carla, contactInboxId: 8 };

const cases: [string, StoredEvent, Viewer[], Viewer[]][] = [
  [
    "message in the agent's inbox",
    event("message_created", {}, { message_type: "outgoing" }),
    [admin, agent, carla, carlaVerified],
    [left, carlaOtherInbox],
  ],
  [
    "message in another inbox",
    event("message_created", { inboxId: 200 }, { message_type: "outgoing" }),
    [admin, carla],
    [agent],
  ],
  [
    "private note",
    event("message_created", { private: true }, { message_type: "outgoing" }),
    [admin, agent],
    [carla, carlaVerified],
  ],
  ["activity message", event("message_created", {}, { message_type: "activity" }), [admin, agent], [carla]],
  [
    "another contact's message",
    event("message_updated", { contactId: 51 }, { message_type: "incoming" }),
    [admin, agent],
    [carla, carlaVerified],
  ],
  ["conversation created", event("conversation_created"), [admin, agent], [carla]],
  ["status changed", event("conversation_status_changed"), [admin, agent, carla], [left]],
  ["assignee changed", event("assignee_changed"), [admin, agent], [carla]],
  ["contact updated (no inbox)", event("contact_updated", { inboxId: null }), [admin, agent], [carla, left]],
  ["internal kind", event("conversation_resolved"), [], [admin, agent, carla]],
  ["inbox event", event("inbox_updated"), [], [admin]],
  [
    "another account's event",
    event("message_created", { accountId: 2 }, { message_type: "outgoing" }),
    [],
    [admin, carla],
  ],
  ["agent typing", event("conversation_typing_on", { actor: { type: "user", id: AGENT } }), [admin, carla], [agent]],
  ["private typing", event("conversation_typing_on", { private: true }), [agent], [carla]],
  [
    "contact typing",
    event("conversation_typing_off", { actor: { type: "contact", id: CARLA } }),
    [admin, agent],
    [carla],
  ],
];

describe("visible()", () => {
  for (const [name, e, yes, no] of cases) {
    test(name, () => {
      const audience = new Audience(repo);
      for (const v of yes) expect([v, visible(e, v, audience)]).toEqual([v, true]);
      for (const v of no) expect([v, visible(e, v, audience)]).toEqual([v, false]);
    });
  }

  test("an Audience reads each account's members and each inbox's members once", () => {
    let reads = 0;
    const counting = {
      accountMembers: () => (reads++, repo.accountMembers(ACCOUNT)),
      inboxMemberIds: (id: number) => (reads++, repo.inboxMemberIds(id)),
    } as unknown as RealtimeRepo;
    const audience = new Audience(counting);
    for (let i = 0; i < 100; i++) visible(event("message_created", {}, { message_type: "outgoing" }), agent, audience);
    expect(reads).toBe(2);
  });
});

describe("ActionCable frames", () => {
  test("commands are accepted as text or as an already parsed object; anything else is null", () => {
    const frame = { command: "subscribe", identifier: '{"channel":"RoomChannel"}' };
    expect(parseCommand(JSON.stringify(frame))).toEqual(frame as never);
    expect(parseCommand(frame)).toEqual(frame as never);
    expect(parseCommand({ command: "message", identifier: "x", data: '{"action":"update_presence"}' })).toEqual({
      command: "message",
      identifier: "x",
      data: '{"action":"update_presence"}',
    });
    for (const bad of [
      "nope",
      42,
      null,
      { command: "subscribe" },
      { command: "shout", identifier: "x" },
      { command: "subscribe", identifier: { channel: "RoomChannel" } },
    ])
      expect(parseCommand(bad)).toBeNull();
    expect(parseIdentifier('{"channel":"RoomChannel","since":3}')).toEqual({ channel: "RoomChannel", since: 3 });
    for (const bad of ["[1]", "3", "{", '"x"']) expect(parseIdentifier(bad)).toBeNull();
  });
});
