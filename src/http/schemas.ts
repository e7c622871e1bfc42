// TypeBox schemas shared by many routes. They validate, whitelist output, and feed /openapi/json.
import { t } from "elysia";

export const ErrorBody = t.Object(
  {
    description: t.String(),
    error: t.String(),
    errors: t.Array(t.Object({ field: t.String(), message: t.String(), code: t.String() })),
  },
  { description: "The error envelope every error response carries" },
);

/** Free-form JSON object (custom and additional attributes). */
export const Attributes = t.Record(t.String(), t.Any());

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
  id: t.Integer(),
  account_id: t.Integer(),
  availability_status: t.String(),
  auto_offline: t.Boolean(),
  confirmed: t.Boolean(),
  email: t.String(),
  provider: t.String(),
  available_name: t.String(),
  name: t.String(),
  role: t.String(),
  thumbnail: t.String(),
  custom_role_id: Nullable(t.Integer()),
});

/** Chatwoot's user partial: GET /api/v1/profile, and `data` of POST /auth/sign_in. */
export const Profile = t.Object({
  id: t.Integer(),
  access_token: Nullable(t.String()),
  account_id: Nullable(t.Integer()),
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
  ui_settings: t.Record(t.String(), t.Any()),
  uid: t.String(),
  type: t.String(),
  accounts: t.Array(
    t.Object({
      id: t.Integer(),
      name: t.String(),
      status: t.String(),
      active_at: Nullable(t.Integer()),
      role: t.String(),
      permissions: t.Array(t.String()),
      availability: t.String(),
      availability_status: t.String(),
      auto_offline: t.Boolean(),
    }),
  ),
});
