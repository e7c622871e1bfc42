// Every filter operator through the engine, on the attribute families Chatwoot offers (conversation
// columns, conversation and contact additional/custom attributes, contact columns, the message,
// labels), each with a case that matches and one that does not. A rule adds the label `hit` when its
// conditions hold for an incoming message sent through the API.
import { describe, expect, test } from "bun:test";
import { makeTeam } from "../helpers/directory-fixtures.ts";
import { newConversation, world, type World } from "../helpers/conversation-fixtures.ts";
import { hitRule, incoming, labelsOf, settle } from "../helpers/automation-fixtures.ts";

interface Setup {
  contact?: Record<string, unknown>;
  conversation?: (w: World) => Record<string, unknown>;
  labels?: string[];
  content?: string;
  /** Time passing between the conversation's creation and the message. */
  advanceMs?: number;
}

type Condition = Record<string, unknown>;
const c = (attribute_key: string, filter_operator: string, values?: unknown, extra: object = {}): Condition => ({
  attribute_key,
  filter_operator,
  values,
  ...extra,
});

/** Does a message_created rule with these conditions fire for the set-up conversation? */
async function fires(conditions: Condition[] | ((w: World) => Condition[]), setup: Setup = {}): Promise<boolean> {
  const w = await world();
  await hitRule(w, "message_created", typeof conditions === "function" ? conditions(w) : conditions);
  if (setup.contact)
    expect(
      (await w.h.request("PATCH", `${w.base}/contacts/${w.contactId}`, { token: w.a.adminToken, body: setup.contact }))
        .status,
    ).toBe(200);
  const conv = await newConversation(w, setup.conversation?.(w) ?? {});
  if (setup.labels)
    await w.h.request("POST", `${w.base}/conversations/${conv.id}/labels`, {
      token: w.a.adminToken,
      body: { labels: setup.labels },
    });
  w.h.clock.advance(setup.advanceMs ?? 1000);
  await incoming(w, conv.id, setup.content ?? "hello");
  await settle(w);
  return (await labelsOf(w, conv.id)).includes("hit");
}

const DAY = 86_400_000;

describe("equal_to / not_equal_to", () => {
  test.each([
    ["status is open", [c("status", "equal_to", ["open"])], {}, true],
    ["status is pending or resolved", [c("status", "equal_to", ["pending", "resolved"])], {}, false],
    ["status is not open", [c("status", "not_equal_to", ["open"])], {}, false],
    ["status is not resolved", [c("status", "not_equal_to", ["resolved"])], {}, true],
    ["message_type incoming", [c("message_type", "equal_to", ["incoming"])], {}, true],
    ["message_type outgoing", [c("message_type", "equal_to", ["outgoing"])], {}, false],
    [
      "browser_language (conversation additional attribute)",
      [c("browser_language", "equal_to", ["de"])],
      { conversation: () => ({ additional_attributes: { browser_language: "de" } }) },
      true,
    ],
    [
      "browser_language other",
      [c("browser_language", "equal_to", ["fr"])],
      { conversation: () => ({ additional_attributes: { browser_language: "de" } }) },
      false,
    ],
    [
      "country_code (contact additional attribute)",
      [c("country_code", "equal_to", ["DE"])],
      { contact: { additional_attributes: { country_code: "DE" } } },
      true,
    ],
    [
      "country_code not DE",
      [c("country_code", "not_equal_to", ["DE"])],
      { contact: { additional_attributes: { country_code: "DE" } } },
      false,
    ],
    [
      "conversation custom attribute, any case",
      [c("plan", "equal_to", ["gold"])],
      { conversation: () => ({ custom_attributes: { plan: "Gold" } }) },
      true,
    ],
    [
      "contact custom attribute",
      [c("tier", "equal_to", ["vip"], { custom_attribute_type: "contact_attribute" })],
      { contact: { custom_attributes: { tier: "vip" } } },
      true,
    ],
    [
      "contact custom attribute other value",
      [c("tier", "equal_to", ["basic"], { custom_attribute_type: "contact_attribute" })],
      { contact: { custom_attributes: { tier: "vip" } } },
      false,
    ],
    ["email is exactly", [c("email", "equal_to", ["carla@example.com"])], {}, true],
    ["email is not", [c("email", "not_equal_to", ["carla@example.com"])], {}, false],
    ["labels include vip", [c("labels", "equal_to", ["vip"])], { labels: ["vip"] }, true],
    ["labels do not include vip", [c("labels", "not_equal_to", ["vip"])], { labels: ["vip"] }, false],
    ["priority urgent", [c("priority", "equal_to", ["urgent"])], {}, false],
  ] as const)("%s", async (_name, conditions, setup, expected) => {
    expect(await fires(conditions as unknown as Condition[], setup as Setup)).toBe(expected);
  });

  test("inbox_id, team_id and assignee_id compare ids", async () => {
    expect(await fires((w) => [c("inbox_id", "equal_to", [w.inboxId])])).toBe(true);
    expect(await fires((w) => [c("inbox_id", "not_equal_to", [w.inboxId])])).toBe(false);
    expect(
      await fires((w) => [c("assignee_id", "equal_to", [w.agent.userId])], {
        conversation: (w) => ({ assignee_id: w.agent.userId }),
      }),
    ).toBe(true);
    expect(await fires((w) => [c("assignee_id", "equal_to", [w.agent.userId])])).toBe(false);
    let team = 0;
    expect(
      await fires((w) => [c("team_id", "equal_to", [(team = makeTeam(w.h, w.a.accountId, "sales"))])], {
        conversation: () => ({ team_id: team }),
      }),
    ).toBe(true);
  });
});

describe("contains / does_not_contain / starts_with", () => {
  test.each([
    ["content contains, any case", [c("content", "contains", ["refund"])], { content: "I want a REFUND now" }, true],
    [
      "content contains one of",
      [c("content", "contains", ["invoice", "receipt"])],
      { content: "where is my receipt" },
      true,
    ],
    ["content does not contain", [c("content", "contains", ["refund"])], { content: "hello" }, false],
    ["does_not_contain holds", [c("content", "does_not_contain", ["refund"])], { content: "hello" }, true],
    [
      "does_not_contain fails",
      [c("content", "does_not_contain", ["refund", "money"])],
      { content: "my money back" },
      false,
    ],
    [
      "referer contains",
      [c("referer", "contains", ["pricing"])],
      { conversation: () => ({ additional_attributes: { referer: "https://shop.example/pricing?x=1" } }) },
      true,
    ],
    [
      "mail_subject does not contain",
      [c("mail_subject", "does_not_contain", ["urgent"])],
      { conversation: () => ({ additional_attributes: { mail_subject: "URGENT: help" } }) },
      false,
    ],
    ["email contains domain", [c("email", "contains", ["@example.com"])], {}, true],
    [
      "city contains",
      [c("city", "contains", ["berl"])],
      { contact: { additional_attributes: { city: "Berlin" } } },
      true,
    ],
    [
      "phone starts with +49",
      [c("phone_number", "starts_with", ["+49"])],
      { contact: { phone_number: "+493012345678" } },
      true,
    ],
    [
      "phone starts with +1",
      [c("phone_number", "starts_with", ["+1"])],
      { contact: { phone_number: "+493012345678" } },
      false,
    ],
    ["labels contain", [c("labels", "contains", ["billing"])], { labels: ["billing", "vip"] }, true],
  ] as const)("%s", async (_name, conditions, setup, expected) => {
    expect(await fires(conditions as unknown as Condition[], setup as Setup)).toBe(expected);
  });
});

describe("is_present / is_not_present", () => {
  test.each([
    ["email is present", [c("email", "is_present", [])], {}, true],
    ["email is not present", [c("email", "is_not_present", [])], {}, false],
    ["phone is not present", [c("phone_number", "is_not_present")], {}, true],
    ["team is present (none)", [c("team_id", "is_present", [])], {}, false],
    ["assignee is not present", [c("assignee_id", "is_not_present", [])], {}, true],
    ["labels present", [c("labels", "is_present", [])], { labels: ["x1"] }, true],
    ["labels not present", [c("labels", "is_not_present", [])], {}, true],
    ["content present", [c("content", "is_present", [])], { content: "hi" }, true],
  ] as const)("%s", async (_name, conditions, setup, expected) => {
    expect(await fires(conditions as unknown as Condition[], setup as Setup)).toBe(expected);
  });

  test("assignee is present once assigned", async () => {
    expect(
      await fires([c("assignee_id", "is_present", [])], { conversation: (w) => ({ assignee_id: w.agent.userId }) }),
    ).toBe(true);
  });
});

describe("is_greater_than / is_less_than / days_before", () => {
  test.each([
    ["created after a date", [c("created_at", "is_greater_than", ["2026-01-01"])], {}, true],
    ["created after a later date", [c("created_at", "is_greater_than", ["2026-02-01T00:00:00Z"])], {}, false],
    ["created before a date", [c("created_at", "is_less_than", ["2026-02-01"])], {}, true],
    ["created before an earlier date (unix seconds)", [c("created_at", "is_less_than", [1767225600])], {}, false],
    [
      "custom number greater",
      [c("order_total", "is_greater_than", [100])],
      { conversation: () => ({ custom_attributes: { order_total: 150 } }) },
      true,
    ],
    [
      "custom number not greater",
      [c("order_total", "is_greater_than", [100])],
      { conversation: () => ({ custom_attributes: { order_total: 50 } }) },
      false,
    ],
    [
      "custom number less",
      [c("order_total", "is_less_than", ["100"])],
      { conversation: () => ({ custom_attributes: { order_total: 50 } }) },
      true,
    ],
    ["created more than 1 day before", [c("created_at", "days_before", [1])], { advanceMs: 2 * DAY }, true],
    ["created more than 3 days before", [c("created_at", "days_before", [3])], { advanceMs: 2 * DAY }, false],
  ] as const)("%s", async (_name, conditions, setup, expected) => {
    expect(await fires(conditions as unknown as Condition[], setup as Setup)).toBe(expected);
  });
});

describe("attribute_changed (conversation_updated)", () => {
  test("matches the change from one of `from` to one of `to`, not others", async () => {
    const w = await world();
    await hitRule(w, "conversation_updated", [
      c("assignee_id", "attribute_changed", { from: ["nil"], to: [w.agent.userId] }),
    ]);
    const a = await newConversation(w);
    const b = await newConversation(w);
    await settle(w);
    const assign = (id: number, assignee_id: number) =>
      w.h.request("POST", `${w.base}/conversations/${id}/assignments`, {
        token: w.a.adminToken,
        body: { assignee_id },
      });
    await assign(a.id, w.agent.userId);
    await assign(b.id, w.a.adminId);
    await settle(w);
    expect(await labelsOf(w, a.id)).toEqual(["hit"]);
    expect(await labelsOf(w, b.id)).toEqual([]);
  });

  test("custom attribute changes are matched by their own key", async () => {
    const w = await world();
    await hitRule(w, "conversation_updated", [c("plan", "attribute_changed", { from: ["basic"], to: ["gold"] })]);
    const conv = await newConversation(w, { custom_attributes: { plan: "basic" } });
    await settle(w);
    await w.h.request("PATCH", `${w.base}/conversations/${conv.id}`, {
      token: w.a.adminToken,
      body: { custom_attributes: { plan: "gold" } },
    });
    await settle(w);
    expect(await labelsOf(w, conv.id)).toEqual(["hit"]);
  });
});
