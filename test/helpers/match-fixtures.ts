// Facts for the automation matcher's unit tests: one known conversation, contact and message at a
// fixed now, with overrides per test.
import { expect } from "bun:test";
import {
  evaluateRule,
  type ContactFacts,
  type ConversationFacts,
  type Facts,
  type MessageFacts,
} from "../../src/domain/automation-match.ts";

export const NOW = 1_700_000_000; // 2023-11-14T22:13:20Z
export const DAY = 86_400;

export interface FactsOverrides {
  conversation?: Partial<ConversationFacts>;
  contact?: Partial<ContactFacts>;
  message?: MessageFacts | null;
  labels?: string[];
  changed_attributes?: Facts["changed_attributes"];
}

/** An open, high-priority conversation in inbox 1, team 3, assigned to user 5, ten days old. */
export function facts(o: FactsOverrides = {}): Facts {
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

/** Whether the single condition `c` matches `f`; an evaluation error fails the test. */
export const one = (c: object, f: Facts = facts()) => {
  const result = evaluateRule([c], f);
  expect(result.error).toBeNull();
  return result.matched;
};
