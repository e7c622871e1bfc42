// /api/v1/accounts/:account_id/custom_attribute_definitions (Chatwoot's): the list is a bare array
// (`?attribute_model=` contact_attribute/1 or conversation_attribute/0), create/show/update answer
// the record, delete answers 204. Members read; administrators write.
import { Elysia, t } from "elysia";
import type { AttributeDefinitionRow } from "../db/custom-attribute-definitions.repo.ts";
import type { Deps } from "../deps.ts";
import { DISPLAY_TYPES } from "../domain/custom-attribute-definitions.service.ts";
import { isoFromSeconds } from "../lib/clock.ts";
import { whenReady } from "../lib/when-ready.ts";
import { accountScope } from "./auth.ts";
import { bodyOf } from "./request.ts";
import { AccountParams, Checked, errorResponses, Integer, Nullable, PlainInteger, Text } from "./schemas.ts";

const Definition = t.Object({
  id: Integer(),
  attribute_display_name: t.String(),
  attribute_display_type: t.String({ description: "text, number, currency, percent, link, date, list or checkbox" }),
  attribute_description: Nullable(t.String()),
  attribute_key: t.String(),
  regex_pattern: Nullable(t.String()),
  regex_cue: Nullable(t.String()),
  attribute_values: t.Array(t.String()),
  attribute_model: t.String({ description: "conversation_attribute or contact_attribute" }),
  default_value: Nullable(t.String()),
  created_at: Nullable(t.String()),
  updated_at: Nullable(t.String()),
});

// Unchecked on purpose: the service checks each field with Chatwoot-style messages.
const Body = t.Object({
  attribute_display_name: t.Optional(Checked(t.String({ minLength: 1, maxLength: 255 }))),
  attribute_display_type: t.Optional(
    Checked(
      t.Union(
        [t.String({ enum: [...DISPLAY_TYPES] }), PlainInteger({ minimum: 0, maximum: DISPLAY_TYPES.length - 1 })],
        {
          description: "a name, or its index in the list; default text",
        },
      ),
    ),
  ),
  attribute_description: t.Optional(Checked(Text(1000))),
  attribute_key: t.Optional(
    Checked(t.String({ maxLength: 255, description: "letters, numbers, dots, dashes and underscores; unique" })),
  ),
  attribute_model: t.Optional(
    Checked(
      t.Union(
        [t.String({ enum: ["conversation_attribute", "contact_attribute", "0", "1"] }), PlainInteger({ enum: [0, 1] })],
        {
          description: "default conversation_attribute",
        },
      ),
    ),
  ),
  attribute_values: t.Optional(Checked(t.Array(t.String({ minLength: 1 }), { description: "a list's options" }))),
  regex_pattern: t.Optional(Checked(Text(500, "a regular expression values must match"))),
  regex_cue: t.Optional(Checked(Text(255, "the hint shown when a value does not match"))),
  default_value: t.Optional(Checked(Nullable(t.Union([t.String(), t.Number(), t.Boolean()])))),
});
const IdParams = t.Object({ account_id: t.String(), id: t.String() });
const tags = ["custom attributes"];

export const definitionOf = (r: AttributeDefinitionRow) => ({
  id: r.id,
  attribute_display_name: r.attribute_display_name,
  attribute_display_type: r.attribute_display_type,
  attribute_description: r.attribute_description,
  attribute_key: r.attribute_key,
  regex_pattern: r.regex_pattern,
  regex_cue: r.regex_cue,
  attribute_values: JSON.parse(r.attribute_values) as string[],
  attribute_model: r.attribute_model,
  default_value: r.default_value,
  created_at: isoFromSeconds(r.created_at),
  updated_at: isoFromSeconds(r.updated_at),
});

export function customAttributeDefinitionRoutes(d: Deps) {
  const svc = d.services.customAttributeDefinitions;
  const options = (summary: string) => ({
    params: IdParams,
    response: { 200: Definition, ...errorResponses },
    detail: { tags, summary },
  });
  return new Elysia({ prefix: "/api/v1/accounts/:account_id/custom_attribute_definitions" })
    .use(accountScope(d.services.auth))
    .get(
      "",
      ({ principal, query }) => whenReady(svc.list(principal, query.attribute_model), (rows) => rows.map(definitionOf)),
      {
        params: AccountParams,
        query: t.Object({
          attribute_model: t.Optional(
            t.String({ description: "contact_attribute (1) or conversation_attribute (0); both when absent" }),
          ),
        }),
        response: { 200: t.Array(Definition), ...errorResponses },
        detail: { tags, summary: "The account's custom attribute definitions" },
      },
    )
    .post("", async ({ principal, body }) => definitionOf(await svc.create(principal, body)), {
      params: AccountParams,
      ...bodyOf(Body, "custom_attribute_definition"),
      response: { 200: Definition, ...errorResponses },
      detail: { tags, summary: "Define a custom attribute (administrators)" },
    })
    .get(
      "/:id",
      ({ principal, params }) => whenReady(svc.show(principal, params.id), definitionOf),
      options("One custom attribute definition"),
    )
    .patch("/:id", async ({ principal, params, body }) => definitionOf(await svc.update(principal, params.id, body)), {
      ...options("Change a custom attribute definition (administrators)"),
      ...bodyOf(Body, "custom_attribute_definition"),
    })
    .delete(
      "/:id",
      async ({ principal, params, set }) => {
        await svc.delete(principal, params.id);
        set.status = 204;
      },
      {
        params: IdParams,
        detail: { tags, summary: "Delete a custom attribute definition (administrators; values already written stay)" },
      },
    );
}
