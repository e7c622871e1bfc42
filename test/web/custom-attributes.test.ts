// The contact form's custom attributes: stored values as text rows, and the rows back as changes.
import { describe, expect, test } from "bun:test";
import { attributeChanges, attributeRows, attributeText } from "../../src/web/lib/custom-attributes.ts";

const stored = { plan: "gold", seats: 12, trial: false, tags: ["a", "b"], note: null };

describe("custom attributes in the contact form", () => {
  test("stored values read as text", () => {
    expect(attributeRows(stored)).toEqual([
      { key: "plan", value: "gold" },
      { key: "seats", value: "12" },
      { key: "trial", value: "false" },
      { key: "tags", value: '["a","b"]' },
      { key: "note", value: "" },
    ]);
    expect(attributeText({ a: 1 })).toBe('{"a":1}');
  });

  test("nothing edited: nothing to send", () => {
    expect(attributeChanges(stored, attributeRows(stored))).toEqual({ set: {}, remove: [], errors: {} });
  });

  test("an edited value is sent as typed, untouched ones keep their type, dropped keys are removed", () => {
    const rows = [
      { key: "plan", value: "platinum" },
      { key: "seats", value: "12" },
      { key: " region ", value: "EU" },
      { key: "", value: "" },
    ];
    expect(attributeChanges(stored, rows)).toEqual({
      set: { plan: "platinum", region: "EU" },
      remove: ["trial", "tags", "note"],
      errors: {},
    });
  });

  test("a renamed key is a new key and a removed one", () => {
    expect(attributeChanges({ plan: "gold" }, [{ key: "tier", value: "gold" }])).toEqual({
      set: { tier: "gold" },
      remove: ["plan"],
      errors: {},
    });
  });

  test("a value without a name, and a name used twice, are refused by row", () => {
    const rows = [
      { key: "", value: "orphan" },
      { key: "plan", value: "a" },
      { key: "plan ", value: "b" },
    ];
    expect(attributeChanges({}, rows).errors).toEqual({ 0: "Key can't be blank", 2: "Key plan is used twice" });
  });
});
