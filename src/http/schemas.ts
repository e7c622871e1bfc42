// TypeBox schemas shared by many routes. They validate, whitelist output, and feed /openapi/json.
import { type IntegerOptions, type TAny, type TInteger, type TSchema, Type } from "@sinclair/typebox";
import { t } from "elysia";
import { compile } from "elysia/type-system/utils";

export const ErrorBody = t.Object(
  {
    description: t.String(),
    error: t.String(),
    errors: t.Array(t.Object({ field: t.String(), message: t.String(), code: t.String() })),
  },
  { description: "The error envelope every error response carries" },
);

/**
 * Any JSON value: checks nothing, cleans nothing, and (like the `t.Any()` it replaces) types as
 * `any`, so presenters' interfaces still fit; the JSON types are spelled out so the OpenAPI
 * document says "any JSON value" instead of showing an empty schema.
 */
export const JsonValue = t.Any({
  type: ["string", "number", "boolean", "object", "array", "null"],
  description: "any JSON value",
});

/** Free-form JSON object (custom and additional attributes): any keys, any JSON values. */
export const Attributes = t.Record(t.String(), JsonValue, { description: "free-form JSON object" });

/** Where a body field's published schema waits for src/http/openapi-bodies.ts to swap it in. */
export const DOCUMENTED = "x-parley-documented";

/**
 * A body field the service validates itself, answering 422 with its own field names and messages
 * (Chatwoot's): Elysia must let any value through, and src/http/body.ts must not coerce it, so the
 * route checks nothing here (TypeBox's Any) while the OpenAPI document shows `doc`, what Chatwoot
 * accepts there.
 */
export function Checked(doc: TSchema): TAny {
  return t.Any({ [DOCUMENTED]: doc });
}

/** `runtime`, validating and coercing as it always did, published in the OpenAPI document as `doc`. */
export function Documented<S extends TSchema>(runtime: S, doc: TSchema): S {
  return { ...runtime, [DOCUMENTED]: doc };
}

/**
 * Elysia's `t.Integer` (an integer, or a string of one, decoded to a number), with its range check
 * compiled when a value is first decoded rather than when the schema is declared: Elysia compiles
 * it eagerly, and the routes' ~190 integer fields made that 3.5 ms of every start (issue 16).
 * Same schema, same decoding, same ValidationError.
 */
export function Integer(options?: IntegerOptions): TInteger {
  let checker: ReturnType<typeof compile<TInteger>> | undefined;
  return t
    .Transform(t.Union([t.String({ format: "integer", default: 0 }), Type.Integer(options)], options))
    .Decode((value) => {
      const n = +value;
      checker ??= compile(Type.Integer(options));
      if (!checker.Check(n)) throw checker.Error(n);
      return n;
    })
    .Encode((value) => value) as unknown as TInteger;
}

export const Nullable = <T extends Parameters<typeof t.Union>[0][number]>(schema: T) => t.Union([schema, t.Null()]);

export const errorResponses = {
  400: ErrorBody,
  401: ErrorBody,
  403: ErrorBody,
  404: ErrorBody,
  413: ErrorBody,
  422: ErrorBody,
  429: ErrorBody,
};

export const AccountParams = t.Object({ account_id: t.String({ description: "numeric account id" }) });

/** The spec's Agent record. */
export const Agent = t.Object({
  id: Integer(),
  account_id: Integer(),
  availability_status: t.String(),
  auto_offline: t.Boolean(),
  confirmed: t.Boolean(),
  email: t.String(),
  provider: t.String(),
  available_name: t.String(),
  name: t.String(),
  role: t.String(),
  thumbnail: t.String(),
  custom_role_id: Nullable(Integer()),
});

/** Chatwoot's user partial: GET /api/v1/profile, and `data` of POST /auth/sign_in. */
export const Profile = t.Object({
  id: Integer(),
  access_token: Nullable(t.String()),
  account_id: Nullable(Integer()),
  available_name: t.String(),
  avatar_url: t.String(),
  confirmed: t.Boolean(),
  display_name: Nullable(t.String()),
  message_signature: Nullable(t.String()),
  email: t.String(),
  name: t.String(),
  provider: t.String(),
  pubsub_token: t.String(),
  role: Nullable(t.String()),
  ui_settings: t.Record(t.String(), JsonValue, { description: "the web app's settings, free-form" }),
  uid: t.String(),
  type: t.String(),
  accounts: t.Array(
    t.Object({
      id: Integer(),
      name: t.String(),
      status: t.String(),
      active_at: Nullable(t.String({ description: "ISO 8601: when the user last made this account active" })),
      role: t.String(),
      permissions: t.Array(t.String()),
      availability: t.String(),
      availability_status: t.String(),
      auto_offline: t.Boolean(),
    }),
  ),
});

/**
 * A plain JSON integer for published shapes (Elysia's t.Integer publishes as "integer or numeric
 * string", which is what it accepts, not what Chatwoot documents).
 */
export const PlainInteger = (options?: IntegerOptions) => Type.Integer(options);

/** Published shape of an optional text field: trimmed, at most `max` characters; null or "" clears it. */
export const Text = (max: number, description?: string) =>
  Nullable(t.String({ maxLength: max, ...(description ? { description } : {}) }));

/** Published shape of a label list: an array of titles, or one comma-separated string. */
export const LabelTitles = t.Union(
  [t.Array(t.String({ maxLength: 255 })), t.String({ description: "comma-separated titles" }), t.Null()],
  { description: "label titles (the list replaces the current one)" },
);

/** Published shape of a list of custom attribute keys to remove. */
export const AttributeKeys = t.Union(
  [t.Array(t.String()), t.String({ description: "comma-separated keys" }), t.Null()],
  {
    description: "custom attribute keys to remove",
  },
);
