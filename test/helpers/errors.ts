// Pure-function tests of validation: run the code, expect a 422 ValidationError, look at its items.
import { expect } from "bun:test";
import { type FieldError, ValidationError } from "../../src/domain/errors.ts";

/** Runs fn, expecting a ValidationError; returns its field errors. */
export function errorsOf(fn: () => unknown): FieldError[] {
  try {
    fn();
  } catch (e) {
    if (e instanceof ValidationError) {
      expect(e.status).toBe(422);
      return e.errors;
    }
    throw e;
  }
  throw new Error("expected a ValidationError");
}
