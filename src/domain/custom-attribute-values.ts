// Values of defined custom attributes, checked against their definition when contacts and
// conversations are written: a number for number/currency/percent, a link for link, a date for
// date, one of the listed values for list, true/false for checkbox, and the definition's pattern
// for text. Keys without a definition are free, as in Chatwoot; null clears a value.
import type {
  AttributeDefinitionRow,
  AttributeModel,
  CustomAttributeDefinitionsRepo,
} from "../db/custom-attribute-definitions.repo.ts";
import type { Reads } from "../db/reads.ts";
import { FieldErrors } from "./errors.ts";

const isNumeric = (v: unknown) =>
  (typeof v === "number" && Number.isFinite(v)) || (typeof v === "string" && /^-?\d+(\.\d+)?$/.test(v.trim()));

function problem(d: AttributeDefinitionRow, v: unknown): string | null {
  switch (d.attribute_display_type) {
    case "number":
    case "currency":
    case "percent":
      return isNumeric(v) ? null : "must be a number";
    case "checkbox":
      return typeof v === "boolean" ? null : "must be true or false";
    case "date":
      return typeof v === "string" && /^\d{4}-\d{2}-\d{2}/.test(v) && !Number.isNaN(Date.parse(v))
        ? null
        : "must be a date (YYYY-MM-DD or ISO 8601)";
    case "link":
      return typeof v === "string" && /^https?:\/\/[^\s]+$/i.test(v)
        ? null
        : "must be a link starting with http:// or https://";
    case "list": {
      const allowed = JSON.parse(d.attribute_values) as string[];
      return typeof v === "string" && allowed.includes(v) ? null : `must be one of: ${allowed.join(", ")}`;
    }
    default: {
      if (typeof v !== "string" && typeof v !== "number") return "must be text";
      if (!d.regex_pattern) return null;
      return patternOf(d.regex_pattern).test(String(v))
        ? null
        : (d.regex_cue ?? `must match the pattern ${d.regex_pattern}`);
    }
  }
}

/** A stored pattern as a RegExp (checked when the definition was saved). */
export function patternOf(source: string): RegExp {
  return new RegExp(source, "u");
}

export class CustomAttributeValues {
  constructor(private readonly d: { customAttributeDefinitions: CustomAttributeDefinitionsRepo }) {}

  /** Throws a 422 naming each `custom_attributes.<key>` whose value its definition refuses. */
  *readCheck(
    accountId: number,
    model: AttributeModel,
    values: Record<string, unknown> | null | undefined,
  ): Reads<void> {
    if (!values) return;
    const keys = Object.keys(values);
    if (keys.length === 0) return;
    const errors = new FieldErrors();
    for (const key of keys) {
      const v = values[key];
      if (v === null || v === undefined || v === "") continue;
      const definition = yield* this.d.customAttributeDefinitions.readByKey(accountId, model, key);
      const wrong = definition && problem(definition, v);
      if (wrong) errors.add(`custom_attributes.${key}`, wrong, "invalid");
    }
    errors.throwIfAny();
  }
}
