// Activity message texts (Chatwoot's en locale) and the small value parsers behind conversation routes.
import { describe, expect, test } from "bun:test";
import { actingAsAutomation, actingAsContact, actingAsSystem, type Acting } from "../../src/domain/acting.ts";
import {
  assigneeActivity,
  labelActivity,
  priorityActivity,
  statusActivity,
  teamActivity,
} from "../../src/domain/activity-messages.ts";
import { optionalId, priorityValue, timeValue } from "../../src/domain/conversation-input.ts";
import { ValidationError } from "../../src/domain/errors.ts";

const account = { id: 1, name: "Acme" };
const user: Acting = { account, actor: { type: "user", id: 7 }, user: null, role: "agent", name: "Ann" };

describe("activity messages", () => {
  test("status changes by a user, automation, a contact and the system", () => {
    expect(statusActivity(user, "resolved")).toBe("Conversation was marked resolved by Ann");
    expect(statusActivity(user, "open")).toBe("Conversation was reopened by Ann");
    expect(statusActivity(user, "pending")).toBe("Conversation was marked as pending by Ann");
    expect(statusActivity(user, "snoozed")).toBe("Conversation was snoozed by Ann");
    expect(statusActivity(actingAsAutomation(account, 3), "resolved")).toBe(
      "Conversation was marked resolved by Automation System",
    );
    expect(statusActivity(actingAsContact(account, { id: 2, name: "carla DIAZ" }), "resolved")).toBe(
      "Conversation was resolved by Carla diaz",
    );
    expect(statusActivity(actingAsContact(account, { id: 2, name: "Carla" }), "open")).toBeNull();
    expect(statusActivity(actingAsSystem(account), "open")).toBeNull();
  });

  test("assignments, teams, labels, priority", () => {
    expect(assigneeActivity(user, { id: 7, name: "Ann" })).toBe("Ann self-assigned this conversation");
    expect(assigneeActivity(user, { id: 8, name: "Bo" })).toBe("Assigned to Bo by Ann");
    expect(assigneeActivity(user, null)).toBe("Conversation unassigned by Ann");
    expect(teamActivity(user, "sales", null, null)).toBe("Assigned to sales by Ann");
    expect(teamActivity(user, "sales", null, "Bo")).toBe("Assigned to Bo via sales by Ann");
    expect(teamActivity(user, null, "sales", null)).toBe("Unassigned from sales by Ann");
    expect(labelActivity(user, "added", ["a", "b"])).toBe("Ann added a, b");
    expect(labelActivity(user, "removed", [])).toBeNull();
    expect(priorityActivity(user, null, "high")).toBe("Ann set the priority to high");
    expect(priorityActivity(user, "high", "low")).toBe("Ann changed the priority from high to low");
    expect(priorityActivity(user, "low", null)).toBe("Ann removed the priority");
    expect(priorityActivity(actingAsSystem(account), "low", null)).toBeNull();
  });
});

describe("value parsers", () => {
  test("timeValue: ISO 8601 with or without zone, Unix seconds as number or digits; junk is a 422", () => {
    expect(timeValue("t", "2026-01-06T10:00:00Z")).toBe(1767693600);
    expect(timeValue("t", "2026-01-06T12:00:00+02:00")).toBe(1767693600);
    expect(timeValue("t", "1767693600")).toBe(1767693600);
    expect(timeValue("t", 1767693600)).toBe(1767693600);
    expect(timeValue("t", "")).toBeNull();
    for (const bad of ["tomorrow", "2026-13-45T00:00:00Z", -5, {}])
      expect(() => timeValue("t", bad)).toThrow(ValidationError);
  });

  test("priorityValue and optionalId", () => {
    expect(priorityValue("urgent")).toBe("urgent");
    expect(priorityValue("")).toBeNull();
    expect(() => priorityValue("HIGH")).toThrow(ValidationError);
    expect(optionalId("x", undefined)).toBeUndefined();
    expect(optionalId("x", null)).toBeNull();
    expect(optionalId("x", "12")).toBe(12);
    expect(() => optionalId("x", "1.5")).toThrow(ValidationError);
  });
});
