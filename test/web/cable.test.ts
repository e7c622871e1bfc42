// The web app's side of /cable as pure functions: frames, the identifier, backoff, what events ask for.
import { describe, expect, test } from "bun:test";
import { backoffMs, identifier, interestOf, parseFrame, subscribeCommand } from "../../src/shared/cable.ts";
import { parseCommand, parseIdentifier } from "../../src/shared/cable-frames.ts";

describe("parseFrame", () => {
  test("control frames", () => {
    expect(parseFrame('{"type":"welcome"}')).toEqual({ type: "welcome" });
    expect(parseFrame('{"type":"ping","message":1767603600}')).toEqual({ type: "ping" });
    expect(parseFrame('{"type":"confirm_subscription","identifier":"{\\"channel\\":\\"RoomChannel\\"}"}')).toEqual({
      type: "confirm",
      identifier: '{"channel":"RoomChannel"}',
    });
    expect(parseFrame('{"type":"reject_subscription","identifier":"x"}')).toEqual({ type: "reject", identifier: "x" });
    expect(parseFrame('{"type":"disconnect","reason":"server_restart","reconnect":true}')).toEqual({
      type: "disconnect",
      reconnect: true,
    });
    expect(parseFrame('{"type":"disconnect","reason":"unauthorized","reconnect":false}')).toEqual({
      type: "disconnect",
      reconnect: false,
    });
  });

  test("an event, with and without seq (presence has none)", () => {
    const frame = JSON.stringify({
      identifier: "i",
      message: { event: "message.created", data: { id: 7, conversation_id: 3 }, seq: 42 },
    });
    expect(parseFrame(frame)).toEqual({
      type: "event",
      identifier: "i",
      message: { event: "message.created", data: { id: 7, conversation_id: 3 }, seq: 42 },
    });
    const presence = JSON.stringify({
      identifier: "i",
      message: { event: "presence.update", data: { account_id: 1 } },
    });
    expect(parseFrame(presence)).toEqual({
      type: "event",
      identifier: "i",
      message: { event: "presence.update", data: { account_id: 1 }, seq: null },
    });
  });

  test("anything else is unknown, never an exception", () => {
    for (const raw of [
      "not json",
      "[1,2]",
      "null",
      '{"type":"confirm_subscription"}',
      '{"identifier":"i","message":{"data":{}}}',
      '{"identifier":1,"message":{"event":"x"}}',
      17,
    ]) {
      expect(parseFrame(raw)).toEqual({ type: "unknown" });
    }
  });
});

describe("identifier and subscribe", () => {
  test("the account, and since only after something was seen; the server's parser reads it back", () => {
    expect(identifier(3, null)).toBe('{"channel":"RoomChannel","account_id":3}');
    expect(identifier(3, 0)).toBe('{"channel":"RoomChannel","account_id":3,"since":0}');
    const command = parseCommand(subscribeCommand(identifier(3, 120)));
    expect(command).toEqual({
      command: "subscribe",
      identifier: '{"channel":"RoomChannel","account_id":3,"since":120}',
    });
    expect(parseIdentifier(command!.identifier)).toEqual({ channel: "RoomChannel", account_id: 3, since: 120 });
  });
});

describe("backoffMs", () => {
  test("doubles from 0.5 s and stops at 30 s", () => {
    expect([0, 1, 2, 3, 4, 5, 6, 7, 40].map((n) => backoffMs(n, () => 0))).toEqual([
      500, 1000, 2000, 4000, 8000, 16000, 30000, 30000, 30000,
    ]);
  });
  test("adds up to 20 % jitter", () => {
    expect(backoffMs(0, () => 0.5)).toBe(550);
    expect(backoffMs(10, () => 0.999)).toBe(35994);
  });
});

describe("interestOf", () => {
  const none = { list: false, conversation: null, messages: [], everything: false };
  test("messages go to their conversation's thread and move the list", () => {
    const data = { id: 9, conversation_id: 4, content: "hi" };
    expect(interestOf({ event: "message.created", data, seq: 1 })).toEqual({
      ...none,
      list: true,
      conversation: 4,
      messages: [data],
    });
    expect(interestOf({ event: "message.updated", data, seq: 2 })).toEqual({
      ...none,
      list: true,
      conversation: 4,
      messages: [data],
    });
  });
  test("conversation changes refetch that conversation and the list", () => {
    for (const event of [
      "conversation.created",
      "conversation.updated",
      "conversation.status_changed",
      "assignee.changed",
      "team.changed",
    ]) {
      expect(interestOf({ event, data: { id: 4 }, seq: 3 })).toEqual({ ...none, list: true, conversation: 4 });
    }
  });
  test("contact changes may touch whichever conversation is open", () => {
    expect(interestOf({ event: "contact.updated", data: { id: 12 }, seq: 4 })).toEqual({
      ...none,
      list: true,
      conversation: "any",
    });
  });
  test("resync asks for everything; typing and presence for nothing", () => {
    expect(interestOf({ event: "resync", data: { oldest_seq: 1, latest_seq: 9 }, seq: null })).toEqual({
      ...none,
      everything: true,
    });
    expect(interestOf({ event: "conversation.typing_on", data: {}, seq: 5 })).toEqual(none);
    expect(interestOf({ event: "presence.update", data: {}, seq: null })).toEqual(none);
  });
});
