import { describe, expect, test } from "bun:test";
import {
  compileConditions,
  evaluateRule,
  matchesRule,
  type ContactFacts,
  type ConversationFacts,
  type Facts,
  type MessageFacts,
} from "../../src/domain/automation-match.ts";

const NOW = 1_700_000_000; // 2023-11-14T22:13:20Z
const DAY = 86_400;

interface FactsOverrides {
  conversation?: Partial<ConversationFacts>;
  contact?: Partial<ContactFacts>;
  message?: MessageFacts | null;
  labels?: string[];
  changed_attributes?: Facts["changed_attributes"];
}

/** An open, high-priority conversation in inbox 1, team 3, assigned to user 5, ten days old. */
function facts(o: FactsOverrides = {}): Facts {
  const f: Facts = {
    conversation: {
      status: "open",
      priority: "high",
      inbox_id: 1,
      team_id: 3,
      assignee_id: 5,
      additional_attributes: {
        browser_language: "en",
        conversation_language: "fr",
        referer: "https://Shop.example.com/pricing",
        mail_subject: "Refund for order 42",
      },
      custom_attributes: { plan: "Gold", seats: 12, vip: true, renewal_date: "2024-01-15" },
      created_at: NOW - 10 * DAY,
      last_activity_at: NOW - 2 * 3600,
      ...o.conversation,
    },
    contact: {
      email: "Ana@Example.com",
      phone_number: "+4915112345678",
      name: "Ana Lima",
      identifier: "cust-77",
      additional_attributes: { country_code: "DE", city: "Berlin", company: "Acme GmbH" },
      custom_attributes: { tier: "enterprise", signup: "2023-01-01T00:00:00Z", score: 80 },
      ...o.contact,
    },
    labels: o.labels ?? ["billing", "vip"],
    now: NOW,
  };
  if (o.message !== null) f.message = o.message ?? { message_type: "incoming", content: "Hi, I want a REFUND please" };
  if (o.changed_attributes) f.changed_attributes = o.changed_attributes;
  return f;
}

const cond = (attribute_key: string, filter_operator: string, values?: unknown, extra: object = {}) => ({
  attribute_key,
  filter_operator,
  values,
  ...extra,
});
const one = (c: object, f: Facts = facts()) => {
  const result = evaluateRule([c], f);
  expect(result.error).toBeNull();
  return result.matched;
};

// [label, condition, facts overrides, expected] — every operator on each kind of attribute, both ways.
type Row = [string, object, FactsOverrides, boolean];
const rows: Row[] = [
  // enum: status, priority, message_type — compared by name; a row's stored integer maps to its name
  ["status equal_to open", cond("status", "equal_to", ["open"]), {}, true],
  ["status equal_to one of resolved, pending", cond("status", "equal_to", ["resolved", "pending"]), {}, false],
  [
    "status equal_to, stored as integer 2 (pending)",
    cond("status", "equal_to", ["pending"]),
    { conversation: { status: 2 } },
    true,
  ],
  ["status not_equal_to resolved, snoozed", cond("status", "not_equal_to", ["resolved", "snoozed"]), {}, true],
  ["status not_equal_to open", cond("status", "not_equal_to", ["open"]), {}, false],
  ["priority equal_to high", cond("priority", "equal_to", ["urgent", "high"]), {}, true],
  ["priority equal_to when none", cond("priority", "equal_to", ["low"]), { conversation: { priority: null } }, false],
  [
    "priority not_equal_to when none",
    cond("priority", "not_equal_to", ["low"]),
    { conversation: { priority: null } },
    true,
  ],
  ["priority is_present", cond("priority", "is_present", []), {}, true],
  ["priority is_not_present when none", cond("priority", "is_not_present"), { conversation: { priority: null } }, true],
  ["priority is_not_present when set", cond("priority", "is_not_present"), {}, false],
  ["message_type equal_to incoming", cond("message_type", "equal_to", ["incoming"]), {}, true],
  [
    "message_type equal_to outgoing, stored as 1",
    cond("message_type", "equal_to", ["outgoing"]),
    { message: { message_type: 1, content: "x" } },
    true,
  ],
  ["message_type not_equal_to incoming", cond("message_type", "not_equal_to", ["incoming"]), {}, false],
  // integer ids: "5" and 5 are the same id
  ["assignee_id equal_to 5 (number)", cond("assignee_id", "equal_to", [5]), {}, true],
  ['assignee_id equal_to "5" (string)', cond("assignee_id", "equal_to", ["5"]), {}, true],
  ["assignee_id equal_to 6", cond("assignee_id", "equal_to", [6, "7"]), {}, false],
  ['team_id not_equal_to "4"', cond("team_id", "not_equal_to", ["4"]), {}, true],
  ["team_id not_equal_to 3", cond("team_id", "not_equal_to", [3]), {}, false],
  [
    "team_id not_equal_to 3 with no team",
    cond("team_id", "not_equal_to", [3]),
    { conversation: { team_id: null } },
    true,
  ],
  ["team_id equal_to 3 with no team", cond("team_id", "equal_to", [3]), { conversation: { team_id: null } }, false],
  ["inbox_id is_present", cond("inbox_id", "is_present"), {}, true],
  [
    "assignee_id is_present when unassigned",
    cond("assignee_id", "is_present"),
    { conversation: { assignee_id: null } },
    false,
  ],
  [
    "assignee_id is_not_present when unassigned",
    cond("assignee_id", "is_not_present"),
    { conversation: { assignee_id: null } },
    true,
  ],
  ["team_id is_not_present when set", cond("team_id", "is_not_present"), {}, false],
  // strings: exact for equal_to, case-insensitive for the pattern operators
  ["email equal_to, same case", cond("email", "equal_to", ["Ana@Example.com"]), {}, true],
  [
    "email equal_to, other case (case-sensitive, as Chatwoot)",
    cond("email", "equal_to", ["ana@example.com"]),
    {},
    false,
  ],
  ["email not_equal_to, other case", cond("email", "not_equal_to", ["ana@example.com"]), {}, true],
  ["email contains, other case", cond("email", "contains", ["EXAMPLE.com"]), {}, true],
  ["email contains a missing part", cond("email", "contains", ["@other.org"]), {}, false],
  ["email does_not_contain", cond("email", "does_not_contain", ["@other.org", "@test"]), {}, true],
  ["email does_not_contain a part it has", cond("email", "does_not_contain", ["@other.org", "ana@"]), {}, false],
  [
    "email does_not_contain with no email",
    cond("email", "does_not_contain", ["@x"]),
    { contact: { email: null } },
    true,
  ],
  ["email is_present", cond("email", "is_present"), {}, true],
  ["email is_not_present when empty string", cond("email", "is_not_present"), { contact: { email: "" } }, true],
  ["email contains with no email", cond("email", "contains", ["a"]), { contact: { email: null } }, false],
  ["name equal_to", cond("name", "equal_to", ["Ana Lima"]), {}, true],
  ["name contains", cond("name", "contains", ["LIMA"]), {}, true],
  ["identifier equal_to", cond("identifier", "equal_to", ["cust-78"]), {}, false],
  ["phone_number starts_with +49", cond("phone_number", "starts_with", ["+49"]), {}, true],
  ["phone_number starts_with +44 or +33", cond("phone_number", "starts_with", ["+44", "+33"]), {}, false],
  [
    "phone_number equal_to as a JSON number",
    cond("phone_number", "equal_to", [4915112345678]),
    { contact: { phone_number: "4915112345678" } },
    true,
  ],
  ["referer contains, other case", cond("referer", "contains", ["shop.EXAMPLE"]), {}, true],
  ["referer does_not_contain", cond("referer", "does_not_contain", ["checkout"]), {}, true],
  ["mail_subject contains", cond("mail_subject", "contains", ["refund"]), {}, true],
  [
    "mail_subject is_not_present when absent",
    cond("mail_subject", "is_not_present"),
    { conversation: { additional_attributes: {} } },
    true,
  ],
  ["browser_language equal_to", cond("browser_language", "equal_to", ["en"]), {}, true],
  ["conversation_language not_equal_to", cond("conversation_language", "not_equal_to", ["fr"]), {}, false],
  [
    "browser_language with no additional_attributes",
    cond("browser_language", "equal_to", ["en"]),
    { conversation: { additional_attributes: null } },
    false,
  ],
  ["country_code (contact) equal_to", cond("country_code", "equal_to", ["DE"]), {}, true],
  ["city (contact) contains", cond("city", "contains", ["berl"]), {}, true],
  ["company (contact) does_not_contain", cond("company", "does_not_contain", ["acme"]), {}, false],
  // content: lower-cased on both sides, as Chatwoot does
  ["content equal_to ignores case", cond("content", "equal_to", ["hi, i want a Refund PLEASE"]), {}, true],
  ["content not_equal_to ignores case", cond("content", "not_equal_to", ["HI, I WANT A REFUND PLEASE"]), {}, false],
  ["content contains", cond("content", "contains", ["Refund"]), {}, true],
  ["content does_not_contain", cond("content", "does_not_contain", ["invoice"]), {}, true],
  [
    "content is_not_present when null",
    cond("content", "is_not_present"),
    { message: { message_type: "incoming", content: null } },
    true,
  ],
  // dates: ISO strings or unix seconds, against the fixed now
  [
    "created_at is_greater_than an earlier ISO date",
    cond("created_at", "is_greater_than", ["2023-11-01T00:00:00Z"]),
    {},
    true,
  ],
  ["created_at is_greater_than a later ISO date", cond("created_at", "is_greater_than", ["2023-11-10"]), {}, false],
  ["created_at is_less_than unix seconds", cond("created_at", "is_less_than", [NOW - 9 * DAY]), {}, true],
  ["created_at is_less_than as digits", cond("created_at", "is_less_than", [String(NOW - 11 * DAY)]), {}, false],
  [
    "created_at stored as ISO, is_less_than",
    cond("created_at", "is_less_than", ["2023-11-01"]),
    { conversation: { created_at: "2023-10-01T12:00:00Z" } },
    true,
  ],
  [
    "ISO without offset is UTC",
    cond("created_at", "is_greater_than", ["2023-10-01T11:59:59"]),
    { conversation: { created_at: "2023-10-01T12:00:00Z" } },
    true,
  ],
  ["created_at days_before 7 (ten days old)", cond("created_at", "days_before", [7]), {}, true],
  ["created_at days_before 14 (ten days old)", cond("created_at", "days_before", ["14"]), {}, false],
  ["days_before is strict at the boundary", cond("created_at", "days_before", [10]), {}, false],
  ["last_activity_at days_before 0 (two hours ago)", cond("last_activity_at", "days_before", [0]), {}, true],
  [
    "last_activity_at is_greater_than with no activity",
    cond("last_activity_at", "is_greater_than", [0]),
    { conversation: { last_activity_at: null } },
    false,
  ],
  // labels: has any / has none; titles compared lower-cased
  ["labels equal_to billing", cond("labels", "equal_to", ["billing"]), {}, true],
  ["labels equal_to BILLING", cond("labels", "equal_to", ["BILLING"]), {}, true],
  ["labels equal_to sales or refund", cond("labels", "equal_to", ["sales", "refund"]), {}, false],
  ["labels not_equal_to sales", cond("labels", "not_equal_to", ["sales"]), {}, true],
  ["labels not_equal_to sales or vip", cond("labels", "not_equal_to", ["sales", "vip"]), {}, false],
  ["labels contains vip", cond("labels", "contains", ["vip"]), {}, true],
  ["labels contains is not a substring match", cond("labels", "contains", ["bill"]), {}, false],
  ["labels does_not_contain vip", cond("labels", "does_not_contain", ["vip"]), {}, false],
  ["labels is_present", cond("labels", "is_present"), {}, true],
  ["labels is_present with none", cond("labels", "is_present"), { labels: [] }, false],
  ["labels is_not_present with none", cond("labels", "is_not_present"), { labels: [] }, true],
  // custom attributes: conversation's by default, the contact's on request; loose equality
  ["custom plan equal_to gold (ignores case)", cond("plan", "equal_to", ["gold"]), {}, true],
  ["custom plan not_equal_to silver", cond("plan", "not_equal_to", ["silver"]), {}, true],
  ["custom plan contains OL", cond("plan", "contains", ["OL"]), {}, true],
  ["custom plan does_not_contain ol", cond("plan", "does_not_contain", ["ol"]), {}, false],
  ["custom plan starts_with go", cond("plan", "starts_with", ["go"]), {}, true],
  ["custom plan starts_with ld", cond("plan", "starts_with", ["ld"]), {}, false],
  ['custom seats equal_to "12"', cond("seats", "equal_to", ["12"]), {}, true],
  ["custom seats is_greater_than 10", cond("seats", "is_greater_than", [10]), {}, true],
  ['custom seats is_greater_than "12"', cond("seats", "is_greater_than", ["12"]), {}, false],
  ["custom seats is_less_than 20", cond("seats", "is_less_than", [20]), {}, true],
  ['custom vip equal_to "true"', cond("vip", "equal_to", ["true"]), {}, true],
  ["custom vip equal_to false", cond("vip", "equal_to", [false]), {}, false],
  ["custom renewal_date is_greater_than 2024-01-01", cond("renewal_date", "is_greater_than", ["2024-01-01"]), {}, true],
  ["custom renewal_date is_less_than 2024-01-01", cond("renewal_date", "is_less_than", ["2024-01-01"]), {}, false],
  ["custom renewal_date days_before 1 (in the future)", cond("renewal_date", "days_before", [1]), {}, false],
  ["custom plan is_present", cond("plan", "is_present"), {}, true],
  ["custom missing_key is_not_present", cond("missing_key", "is_not_present"), {}, true],
  ["custom missing_key equal_to", cond("missing_key", "equal_to", ["x"]), {}, false],
  ["conversation custom plan does not read the contact's", cond("tier", "equal_to", ["enterprise"]), {}, false],
  [
    "contact custom tier",
    cond("tier", "equal_to", ["Enterprise"], { custom_attribute_type: "contact_attribute" }),
    {},
    true,
  ],
  [
    "contact custom plan (the conversation's key)",
    cond("plan", "equal_to", ["gold"], { custom_attribute_type: "contact_attribute" }),
    {},
    false,
  ],
  [
    "contact custom signup days_before 300",
    cond("signup", "days_before", [300], { custom_attribute_type: "contact_attribute" }),
    {},
    true,
  ],
  [
    "contact custom score is_less_than 50",
    cond("score", "is_less_than", [50], { custom_attribute_type: "contact_attribute" }),
    {},
    false,
  ],
  [
    "contact custom with no custom_attributes",
    cond("tier", "is_present", [], { custom_attribute_type: "contact_attribute" }),
    { contact: { custom_attributes: null } },
    false,
  ],
  // idle_minutes: derived from last activity (two hours ago = 120 minutes)
  ["idle_minutes is_greater_than 60", cond("idle_minutes", "is_greater_than", [60]), {}, true],
  ["idle_minutes is_greater_than 180", cond("idle_minutes", "is_greater_than", ["180"]), {}, false],
  [
    "idle_minutes falls back to created_at",
    cond("idle_minutes", "is_greater_than", [14_000]),
    { conversation: { last_activity_at: null } },
    true,
  ],
];

describe("every operator, positive and negative", () => {
  test.each(rows)("%s", (_label, condition, overrides, expected) => {
    expect(one(condition, facts(overrides))).toBe(expected);
  });
});

describe("AND binds tighter than OR", () => {
  const T = (q?: string) => cond("status", "equal_to", ["open"], { query_operator: q ?? null });
  const F = (q?: string) => cond("status", "equal_to", ["resolved"], { query_operator: q ?? null });
  const run = (...conditions: object[]) => evaluateRule(conditions, facts());

  test.each([
    ["true and false or true", [T("and"), F("or"), T()], true],
    ["true or false and false", [T("or"), F("and"), F()], true],
    ["false and true or false", [F("and"), T("or"), F()], false],
    ["true or true and false (left to right would say false)", [T("or"), T("and"), F()], true],
    ["false or true and true", [F("or"), T("and"), T()], true],
    ["(true and false) or (false and true)", [T("and"), F("or"), F("and"), T()], false],
    ["(false and true) or (true and true)", [F("and"), T("or"), T("and"), T()], true],
    ["true and true and false", [T("and"), T("and"), F()], false],
    ["false or false or true", [F("or"), F("or"), T()], true],
    ["query operators in capitals", [T("AND"), F("OR"), T()], true],
  ] as [string, object[], boolean][])("%s", (_label, conditions, expected) => {
    expect(run(...conditions)).toEqual({ matched: expected, error: null });
  });

  test("a trailing query_operator on the last condition is ignored", () => {
    expect(run(T("and"))).toEqual({ matched: true, error: null });
  });
});

describe("attribute_changed", () => {
  const statusChange = cond("status", "attribute_changed", { from: ["open", "pending"], to: ["resolved"] });
  const changed = (key: string, previous_value: unknown, current_value: unknown) =>
    facts({ changed_attributes: { [key]: { previous_value, current_value } } });

  test("matches when previous is in from and current in to", () => {
    expect(one(statusChange, changed("status", "open", "resolved"))).toBe(true);
    expect(one(statusChange, changed("status", "pending", "resolved"))).toBe(true);
  });

  test("does not match another change, another key, or no change record", () => {
    expect(one(statusChange, changed("status", "snoozed", "resolved"))).toBe(false);
    expect(one(statusChange, changed("status", "open", "pending"))).toBe(false);
    expect(one(statusChange, changed("priority", "open", "resolved"))).toBe(false);
    expect(one(statusChange, facts())).toBe(false);
  });

  test("ids compare as numbers; nil stands for none", () => {
    const assigned = cond("assignee_id", "attribute_changed", { from: ["nil"], to: ["7", 8] });
    expect(one(assigned, changed("assignee_id", null, 7))).toBe(true);
    expect(one(assigned, changed("assignee_id", 3, 7))).toBe(false);
  });

  test("Chatwoot-style [previous, current] pairs are read too", () => {
    const f = facts({ changed_attributes: { status: ["open", "resolved"] as never } });
    expect(one(statusChange, f)).toBe(true);
  });

  test("combines with other conditions by the same precedence", () => {
    const rule = [{ ...statusChange, query_operator: "and" }, cond("team_id", "equal_to", [3])];
    expect(matchesRule(rule, changed("status", "open", "resolved"))).toBe(true);
    expect(
      matchesRule(
        rule,
        facts({
          conversation: { team_id: 9 },
          changed_attributes: { status: { previous_value: "open", current_value: "resolved" } },
        }),
      ),
    ).toBe(false);
  });
});

describe("message conditions without a message", () => {
  const noMessage = facts({ message: null });

  test("are false whatever the operator, and not an error", () => {
    for (const c of [
      cond("message_type", "equal_to", ["incoming"]),
      cond("message_type", "not_equal_to", ["outgoing"]),
      cond("content", "does_not_contain", ["refund"]),
      cond("content", "is_not_present"),
    ]) {
      expect(evaluateRule([c], noMessage)).toEqual({ matched: false, error: null });
    }
  });

  test("an OR with a conversation condition can still match", () => {
    const rule = [
      cond("message_type", "equal_to", ["incoming"], { query_operator: "or" }),
      cond("status", "equal_to", ["open"]),
    ];
    expect(matchesRule(rule, noMessage)).toBe(true);
  });
});

describe("rules that cannot be evaluated", () => {
  test.each([
    ["an unknown key", [cond("not a key", "equal_to", ["x"])], "not a key"],
    ["an unknown operator", [cond("status", "resembles", ["open"])], "resembles"],
    ["an operator the key does not take", [cond("status", "days_before", [3])], "days_before"],
    ["values of the wrong shape", [cond("status", "equal_to", "open")], "values"],
    [
      "a missing query_operator between conditions",
      [cond("status", "equal_to", ["open"]), cond("team_id", "equal_to", [3])],
      "query_operator",
    ],
    [
      "a query_operator that is not and/or",
      [cond("status", "equal_to", ["open"], { query_operator: "xor" }), cond("team_id", "equal_to", [3])],
      "query_operator",
    ],
    ["a condition that is not an object", ["status"], "not an object"],
    ["no conditions", [], "no conditions"],
  ] as [string, unknown[], string][])("%s: no match, with the reason", (_label, conditions, fragment) => {
    const result = evaluateRule(conditions, facts());
    expect(result.matched).toBe(false);
    expect(result.error).toContain(fragment);
    expect(matchesRule(conditions, facts())).toBe(false);
  });

  test("an invalid condition spoils the rule even when an earlier OR branch would match", () => {
    const rule = [cond("status", "equal_to", ["open"], { query_operator: "or" }), cond("bad key", "equal_to", ["x"])];
    expect(evaluateRule(rule, facts()).error).toContain("condition 1");
  });

  test("a stored value that is not a list", () => {
    expect(evaluateRule("conditions", facts()).error).not.toBeNull();
  });
});

describe("the spec's example rule", () => {
  // event message_created; content contains "refund"; action add_label ["billing"]
  const conditions = [
    { values: ["refund"], attribute_key: "content", filter_operator: "contains", query_operator: "and" },
  ];

  test("matches a message asking for a Refund", () => {
    expect(
      matchesRule(conditions, facts({ message: { message_type: "incoming", content: "Can I get a Refund?" } })),
    ).toBe(true);
  });

  test("does not match other messages", () => {
    expect(
      matchesRule(conditions, facts({ message: { message_type: "incoming", content: "Where is my parcel?" } })),
    ).toBe(false);
    expect(matchesRule(conditions, facts({ message: { message_type: "incoming", content: null } }))).toBe(false);
  });
});

describe("compileConditions", () => {
  test("compiles once, tests many facts", () => {
    const compiled = compileConditions([
      cond("team_id", "equal_to", [3], { query_operator: "and" }),
      cond("labels", "is_present"),
    ]);
    if (!compiled.ok) throw new Error(compiled.error);
    expect(compiled.test(facts())).toBe(true);
    expect(compiled.test(facts({ labels: [] }))).toBe(false);
    expect(compiled.test(facts({ conversation: { team_id: 4 } }))).toBe(false);
  });

  test("leaves the facts unchanged", () => {
    const f = facts();
    const before = JSON.stringify(f);
    expect(matchesRule([cond("status", "equal_to", ["open"])], f)).toBe(true);
    expect(JSON.stringify(f)).toBe(before);
  });
});
