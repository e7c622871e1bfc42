import { describe, expect, test } from "bun:test";
import { factsOf, flattenChanges } from "../../src/domain/automation-facts.ts";
import type { ContactRow } from "../../src/db/contacts.repo.ts";
import type { ConversationRow } from "../../src/db/conversations.repo.ts";
import type { MessageRow } from "../../src/db/messages.repo.ts";

describe("flattenChanges", () => {
  test("columns keep their keys; attribute objects become changes of their own keys; label_list is labels", () => {
    const changes = flattenChanges([
      { status: { previous_value: "open", current_value: "pending" } },
      {
        additional_attributes: {
          previous_value: { browser_language: "en", referer: "x" },
          current_value: { browser_language: "de", referer: "x" },
        },
      },
      { custom_attributes: { previous_value: { plan: "basic" }, current_value: { plan: "gold", seats: 3 } } },
      { label_list: { previous_value: [], current_value: ["vip"] } },
      { updated_at: { previous_value: "a", current_value: "b" } },
    ]);
    expect(changes).toEqual({
      browser_language: { previous_value: "en", current_value: "de" },
      plan: { previous_value: "basic", current_value: "gold" },
      seats: { previous_value: null, current_value: 3 },
      status: { previous_value: "open", current_value: "pending" },
      labels: { previous_value: [], current_value: ["vip"] },
      updated_at: { previous_value: "a", current_value: "b" },
    });
  });

  test("a column wins over a same-named key inside an attribute object; junk is ignored", () => {
    const changes = flattenChanges([
      { status: { previous_value: "open", current_value: "resolved" } },
      { custom_attributes: { previous_value: { status: "x" }, current_value: { status: "y" } } },
      "junk",
      { priority: "not a change" },
    ]);
    expect(changes).toEqual({ status: { previous_value: "open", current_value: "resolved" } });
    expect(flattenChanges(null)).toEqual({});
  });
});

describe("factsOf", () => {
  const conversation = {
    status: "open",
    priority: "high",
    inbox_id: 3,
    team_id: null,
    assignee_id: 7,
    additional_attributes: '{"referer":"https://x"}',
    custom_attributes: '{"plan":"gold"}',
    created_at: 100,
    last_activity_at: 200,
  } as ConversationRow;
  const contact = {
    email: "a@b.co",
    phone_number: null,
    name: "Ann",
    identifier: "id-1",
    additional_attributes: '{"city":"Berlin"}',
    custom_attributes: "{}",
  } as ContactRow;

  test("reads the rows' columns and JSON attributes; a message's type is named", () => {
    const message = { message_type: 0, content: "Hi" } as MessageRow;
    expect(factsOf(conversation, contact, ["vip"], message, undefined, 999)).toEqual({
      conversation: {
        status: "open",
        priority: "high",
        inbox_id: 3,
        team_id: null,
        assignee_id: 7,
        additional_attributes: { referer: "https://x" },
        custom_attributes: { plan: "gold" },
        created_at: 100,
        last_activity_at: 200,
      },
      contact: {
        email: "a@b.co",
        phone_number: null,
        name: "Ann",
        identifier: "id-1",
        additional_attributes: { city: "Berlin" },
        custom_attributes: {},
      },
      message: { message_type: "incoming", content: "Hi" },
      labels: ["vip"],
      now: 999,
    });
  });

  test("no message and no changes: those keys are absent", () => {
    const facts = factsOf(conversation, contact, [], null, { status: { previous_value: "a", current_value: "b" } }, 1);
    expect("message" in facts).toBe(false);
    expect(facts.changed_attributes).toEqual({ status: { previous_value: "a", current_value: "b" } });
  });
});
