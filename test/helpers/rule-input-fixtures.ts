// Rule bodies and conditions for automation tests, and a way to read the 422 items that
// validateRuleInput throws; plain data with no server behind it, so unit tests can use it.
import { expect } from "bun:test";
import { ValidationError, type FieldError } from "../../src/domain/errors.ts";
import { validateRuleInput, type RuleInput, type ValidateOptions } from "../../src/domain/automation-catalogue.ts";

// The seed spec's example rule: tag messages that mention a refund.
export const refundRule = () => ({
  name: "Refunds to billing",
  description: "Tag refund requests",
  event_name: "message_created",
  conditions: [{ attribute_key: "content", filter_operator: "contains", values: ["refund"], query_operator: null }],
  actions: [{ action_name: "add_label", action_params: ["billing"] }],
});

export const cond = (attribute_key: string, filter_operator: string, values?: unknown, extra: object = {}) => ({
  attribute_key,
  filter_operator,
  values,
  ...extra,
});

export const CREATE: ValidateOptions = { partial: false };
export const PATCH: ValidateOptions = { partial: true };

/** The 422 items a call throws, as [field, code] pairs (messages are checked where they matter). */
export function failures(input: RuleInput, options: ValidateOptions = CREATE): FieldError[] {
  try {
    validateRuleInput(input, options);
  } catch (e) {
    expect(e).toBeInstanceOf(ValidationError);
    expect((e as ValidationError).status).toBe(422);
    return (e as ValidationError).errors;
  }
  throw new Error("expected a ValidationError");
}
export const pairs = (errors: FieldError[]) => errors.map((e) => [e.field, e.code]);
export const withConditions = (...conditions: unknown[]) => ({ ...refundRule(), conditions });
export const withActions = (...actions: unknown[]) => ({ ...refundRule(), actions });
