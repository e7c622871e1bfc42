// /api/v1/accounts/:account_id/labels — the account's labels (create). Every
// member lists them; administrators read one and change them.
import { Elysia, t } from "elysia";
import type { Deps } from "../deps.ts";
import { DEFAULT_LABEL_COLOR } from "../domain/labels.service.ts";
import { labelOf } from "../domain/presenters/label.presenter.ts";
import { whenReady } from "../lib/when-ready.ts";
import { accountScope } from "./auth.ts";
import { bodyOf } from "./request.ts";
import { AccountParams, Checked, errorResponses, Integer, Nullable, Text } from "./schemas.ts";

const Label = t.Object({
  id: Integer(),
  title: t.String({ description: "lower-cased; letters, digits, - and _; unique in the account" }),
  description: Nullable(t.String()),
  color: t.String({ description: "#RRGGBB" }),
  show_on_sidebar: t.Boolean(),
});

// Unchecked here: the service checks each field with Chatwoot-style messages.
const LabelBody = t.Object({
  title: t.Optional(
    Checked(
      t.String({
        maxLength: 255,
        description: "lower-cased; a letter or digit, then letters, digits, - or _ (2 characters at least)",
      }),
    ),
  ),
  description: t.Optional(Checked(Text(1000))),
  color: t.Optional(Checked(Nullable(t.String({ pattern: "^#[0-9a-fA-F]{6}$", default: DEFAULT_LABEL_COLOR })))),
  show_on_sidebar: t.Optional(Checked(t.Union([t.Boolean(), t.String({ enum: ["true", "false"] }), t.Null()]))),
});

const LabelParams = t.Object({ account_id: t.String(), id: t.String() });
const tags = ["labels"];

export function labelRoutes(d: Deps) {
  const labels = d.services.labels;
  return new Elysia({ prefix: "/api/v1/accounts/:account_id/labels" })
    .use(accountScope(d.services.auth))
    .get(
      "",
      ({ principal }) => whenReady(labels.list(principal.account.id), (rows) => ({ payload: rows.map(labelOf) })),
      {
        params: AccountParams,
        response: { 200: t.Object({ payload: t.Array(Label) }), ...errorResponses },
        detail: { tags, summary: "List the account's labels, by title" },
      },
    )
    .get("/:id", ({ principal, params }) => whenReady(labels.get(principal, params.id), labelOf), {
      admin: true,
      params: LabelParams,
      response: { 200: Label, ...errorResponses },
      detail: { tags, summary: "Show a label (administrators)" },
    })
    .post("", async ({ principal, body }) => labelOf(await labels.create(principal, body)), {
      admin: true,
      params: AccountParams,
      ...bodyOf(LabelBody, "label"),
      response: { 200: Label, ...errorResponses },
      detail: { tags, summary: "Create a label (administrators); answers the bare label" },
    })
    .patch("/:id", async ({ principal, params, body }) => labelOf(await labels.update(principal, params.id, body)), {
      admin: true,
      params: LabelParams,
      ...bodyOf(LabelBody, "label"),
      response: { 200: Label, ...errorResponses },
      detail: { tags, summary: "Update a label (administrators); a new title re-tags its conversations and contacts" },
    })
    .delete(
      "/:id",
      async ({ principal, params }) => (await labels.delete(principal, params.id), new Response(null, { status: 200 })),
      {
        admin: true,
        params: LabelParams,
        response: { 200: t.Void(), ...errorResponses },
        detail: { tags, summary: "Delete a label (administrators); its title is taken off conversations and contacts" },
      },
    );
}
