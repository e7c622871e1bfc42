// Custom attribute definitions (Chatwoot's): members list and read them; administrators create,
// change and delete them. A key is letters, digits, dots, dashes and underscores, unique per model
// in the account, and never one of the model's standard attributes.
import type {
  AttributeDefinitionFields,
  AttributeDefinitionRow,
  AttributeModel,
  CustomAttributeDefinitionsRepo,
} from "../db/custom-attribute-definitions.repo.ts";
import { type Reads, readSoon } from "../db/reads.ts";
import type { WriteTx } from "../db/tx.ts";
import { unixSeconds, type Clock } from "../lib/clock.ts";
import { requireAdministrator, type AccountPrincipal } from "./auth.service.ts";
import { FieldErrors, ValidationError } from "./errors.ts";
import { patternOf } from "./custom-attribute-values.ts";
import { readRecordAt } from "./path-record.ts";
import { optionalString, requiredString } from "./validate.ts";

export const DISPLAY_TYPES = ["text", "number", "currency", "percent", "link", "date", "list", "checkbox"] as const;
const MODELS: Record<string, AttributeModel> = {
  conversation_attribute: "conversation_attribute",
  contact_attribute: "contact_attribute",
  "0": "conversation_attribute",
  "1": "contact_attribute",
};
/** What an unknown definition's 404 names ("no custom attribute definition 7 in this account"). */
const DEFINITION = "Custom attribute definition";
const KEY = /^[\p{L}\p{N}_.-]+$/u;
/** Chatwoot's STANDARD_ATTRIBUTES: a definition may not shadow them. */
const STANDARD: Record<AttributeModel, readonly string[]> = {
  conversation_attribute: [
    "status",
    "priority",
    "assignee_id",
    "inbox_id",
    "team_id",
    "display_id",
    "campaign_id",
    "labels",
    "browser_language",
    "country_code",
    "referer",
    "created_at",
    "last_activity_at",
  ],
  contact_attribute: [
    "name",
    "email",
    "phone_number",
    "identifier",
    "country_code",
    "city",
    "company_name",
    "created_at",
    "last_activity_at",
    "referer",
    "blocked",
  ],
};

export interface DefinitionInput {
  attribute_display_name?: unknown;
  attribute_display_type?: unknown;
  attribute_description?: unknown;
  attribute_key?: unknown;
  attribute_model?: unknown;
  attribute_values?: unknown;
  regex_pattern?: unknown;
  regex_cue?: unknown;
  default_value?: unknown;
}

/** `attribute_model` as Chatwoot takes it (name or enum number); null when absent. */
export function attributeModelOf(raw: unknown): AttributeModel | null {
  if (raw === undefined || raw === null || raw === "") return null;
  const model = MODELS[String(raw)];
  if (!model)
    throw ValidationError.of(
      "attribute_model",
      "must be conversation_attribute (0) or contact_attribute (1)",
      "invalid",
    );
  return model;
}

export class CustomAttributeDefinitionsService {
  constructor(
    private readonly d: { customAttributeDefinitions: CustomAttributeDefinitionsRepo; writeTx: WriteTx; clock: Clock },
  ) {}

  /** Read-only: awaited on PostgreSQL (src/db/reads.ts readSoon), in place on SQLite. */
  list(p: AccountPrincipal, model: unknown): AttributeDefinitionRow[] | Promise<AttributeDefinitionRow[]> {
    return readSoon(this.d.customAttributeDefinitions.readList(p.account.id, attributeModelOf(model)));
  }

  /** One definition, read-only: awaited on PostgreSQL. */
  show(p: AccountPrincipal, rawId: unknown): AttributeDefinitionRow | Promise<AttributeDefinitionRow> {
    return readSoon(this.readExisting(p, rawId));
  }

  async create(p: AccountPrincipal, input: DefinitionInput): Promise<AttributeDefinitionRow> {
    requireAdministrator(p);
    const { customAttributeDefinitions: definitions, clock } = this.d;
    const self = this;
    return await this.d.writeTx.steps(function* () {
      const f = yield* self.readFields(p.account.id, input, null);
      const id = yield* definitions.insertSteps(p.account.id, f, unixSeconds(clock));
      return (yield* definitions.readById(p.account.id, id))!;
    });
  }

  async update(p: AccountPrincipal, rawId: unknown, input: DefinitionInput): Promise<AttributeDefinitionRow> {
    requireAdministrator(p);
    const { customAttributeDefinitions: definitions, clock } = this.d;
    const self = this;
    return await this.d.writeTx.steps(function* () {
      const current = yield* self.readExisting(p, rawId);
      yield* definitions.updateSteps(
        current.id,
        yield* self.readFields(p.account.id, input, current),
        unixSeconds(clock),
      );
      return (yield* definitions.readById(p.account.id, current.id))!;
    });
  }

  async delete(p: AccountPrincipal, rawId: unknown): Promise<void> {
    requireAdministrator(p);
    const { customAttributeDefinitions: definitions } = this.d;
    const self = this;
    await this.d.writeTx.steps(function* () {
      yield* definitions.deleteSteps((yield* self.readExisting(p, rawId)).id);
    });
  }

  /** The definition the path names, or its 404, as a step of a read or a write. */
  private readExisting(p: AccountPrincipal, rawId: unknown): Reads<AttributeDefinitionRow> {
    const { customAttributeDefinitions } = this.d;
    return readRecordAt(DEFINITION, rawId, (id) => customAttributeDefinitions.readById(p.account.id, id));
  }

  private *readFields(
    accountId: number,
    input: DefinitionInput,
    current: AttributeDefinitionRow | null,
  ): Reads<AttributeDefinitionFields> {
    const errors = new FieldErrors();
    const has = (k: keyof DefinitionInput) => input[k] !== undefined;
    const model = has("attribute_model") ? attributeModelOf(input.attribute_model) : null;
    const attributeModel = model ?? current?.attribute_model ?? "conversation_attribute";
    const name =
      has("attribute_display_name") || !current
        ? requiredString(errors, "attribute_display_name", input.attribute_display_name)
        : current.attribute_display_name;
    const key =
      has("attribute_key") || !current
        ? requiredString(errors, "attribute_key", input.attribute_key)
        : current.attribute_key;
    if (key !== undefined && !KEY.test(key))
      errors.add("attribute_key", "may only contain letters, numbers, dots, dashes and underscores", "invalid");
    else if (key !== undefined && !current && STANDARD[attributeModel].includes(key))
      errors.add("attribute_key", `is a standard ${attributeModel.replace("_attribute", "")} attribute`, "taken");
    let type = current?.attribute_display_type ?? "text";
    if (has("attribute_display_type")) {
      const raw = input.attribute_display_type;
      const byNumber =
        typeof raw === "number" || (typeof raw === "string" && /^\d$/.test(raw))
          ? DISPLAY_TYPES[Number(raw)]
          : undefined;
      if (byNumber) type = byNumber;
      else if (typeof raw === "string" && (DISPLAY_TYPES as readonly string[]).includes(raw)) type = raw;
      else errors.add("attribute_display_type", `must be one of: ${DISPLAY_TYPES.join(", ")}`, "invalid");
    }
    let values = current?.attribute_values ?? "[]";
    if (has("attribute_values")) {
      const v = input.attribute_values;
      if (!Array.isArray(v) || v.some((x) => typeof x !== "string" || x.trim() === ""))
        errors.add("attribute_values", "must be a list of texts", "invalid");
      else values = JSON.stringify([...new Set(v.map((x: string) => x.trim()))]);
    }
    if (type === "list" && JSON.parse(values).length === 0)
      errors.add("attribute_values", "can't be empty for a list", "required");
    const description = has("attribute_description")
      ? optionalString(errors, "attribute_description", input.attribute_description, 1000)
      : (current?.attribute_description ?? null);
    const pattern = has("regex_pattern")
      ? optionalString(errors, "regex_pattern", input.regex_pattern, 500)
      : (current?.regex_pattern ?? null);
    if (pattern) {
      try {
        patternOf(pattern);
      } catch {
        errors.add("regex_pattern", "is not a valid regular expression", "invalid");
      }
    }
    const cue = has("regex_cue")
      ? optionalString(errors, "regex_cue", input.regex_cue, 255)
      : (current?.regex_cue ?? null);
    const defaultValue = has("default_value")
      ? input.default_value === null
        ? null
        : String(input.default_value)
      : (current?.default_value ?? null);
    errors.throwIfAny();
    const clash = yield* this.d.customAttributeDefinitions.readByKey(accountId, attributeModel, key!);
    if (clash && clash.id !== current?.id) throw ValidationError.of("attribute_key", "has already been taken", "taken");
    return {
      attribute_model: attributeModel,
      attribute_key: key!,
      attribute_display_name: name!,
      attribute_display_type: type,
      attribute_description: description ?? null,
      attribute_values: values,
      regex_pattern: pattern ?? null,
      regex_cue: cue ?? null,
      default_value: defaultValue,
    };
  }
}
