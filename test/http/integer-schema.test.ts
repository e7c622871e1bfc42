// The routes' Integer: Elysia's t.Integer with its check compiled on first use. Same published
// schema, same decoding of numbers and numeric strings, same ValidationError past its bounds.
import { describe, expect, test } from "bun:test";
import { Value } from "@sinclair/typebox/value";
import { t, ValidationError } from "elysia";
import { Integer } from "../../src/http/schemas.ts";

describe("Integer", () => {
  test("publishes exactly the schema t.Integer publishes", () => {
    for (const options of [undefined, { minimum: 1 }, { description: "the conversation's display id" }]) {
      expect(JSON.stringify(Integer(options))).toBe(JSON.stringify(t.Integer(options)));
    }
  });

  test("decodes integers and integer strings to numbers, and rejects the rest", () => {
    const schema = Integer();
    expect(Value.Decode(schema, 12)).toBe(12);
    expect(Value.Decode(schema, "12")).toBe(12);
    expect(Value.Decode(schema, "-3")).toBe(-3);
    expect(Value.Check(schema, "12.5")).toBe(false);
    expect(Value.Check(schema, 12.5)).toBe(false);
    expect(Value.Check(schema, "twelve")).toBe(false);
    expect(Value.Check(schema, null)).toBe(false);
  });

  test("a numeric string outside the bounds fails its first decode with Elysia's ValidationError", () => {
    const schema = Integer({ minimum: 1, maximum: 10 });
    expect(Value.Check(schema, "0")).toBe(true); // the string arm takes any integer string…
    let thrown: unknown;
    try {
      Value.Decode(schema, "0");
    } catch (error) {
      thrown = error;
    }
    // …and the decode checks the bounds, as t.Integer's does (TypeBox wraps a decode's error).
    const cause = (thrown as { error?: unknown }).error ?? thrown;
    expect(cause).toBeInstanceOf(ValidationError);
    expect(Value.Decode(schema, "10")).toBe(10);
    expect(() => Value.Decode(schema, "11")).toThrow();
  });
});
