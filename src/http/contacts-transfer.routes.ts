// /api/v1/accounts/:account_id/contacts/import and /export — contacts in and out as CSV
// (administrators, as in Chatwoot). See src/domain/contacts-transfer.service.ts for the rules.
import { Elysia, t } from "elysia";
import type { Deps } from "../deps.ts";
import { actingAs } from "../domain/acting.ts";
import { EXPORT_COLUMN_NAMES } from "../domain/contacts-transfer.service.ts";
import { accountScope } from "./auth.ts";
import { bodyOf } from "./request.ts";
import { AccountParams, Checked, errorResponses, Integer } from "./schemas.ts";

const tags = ["contacts"];

const ImportResult = t.Object({
  data_import: t.Object({
    total_records: Integer(),
    processed_records: Integer(),
    created_records: Integer(),
    updated_records: Integer(),
    failed_records: t.Array(t.Object({ row: Integer(), errors: t.Array(t.String()) })),
  }),
});

/** A file name safe in a Content-Disposition header: letters, digits, dashes and underscores only. */
const fileName = (account: { id: number; name: string }) =>
  `${account.name.replace(/[^\w-]+/g, "_")}_${account.id}_contacts.csv`;

export function contactTransferRoutes(d: Deps) {
  const transfer = d.services.contactsTransfer;
  return new Elysia({ prefix: "/api/v1/accounts/:account_id/contacts" })
    .use(accountScope(d.services.auth))
    .post(
      "/import",
      async ({ principal, body }) => ({ data_import: await transfer.import(actingAs(principal), body.import_file) }),
      {
        admin: true,
        params: AccountParams,
        ...bodyOf(
          t.Object({
            import_file: t.Optional(
              Checked(t.String({ format: "binary", description: "the CSV file (multipart/form-data)" })),
            ),
          }),
        ),
        response: { 200: ImportResult, ...errorResponses },
        detail: {
          tags,
          summary: "Import contacts from a CSV file (administrators)",
          description:
            "Header row: name, email, phone_number, identifier, company, city; other columns become custom attributes. A row updates the contact with the same identifier, email or phone number, or creates one.",
        },
      },
    )
    .post(
      "/export",
      async ({ principal, body }) =>
        new Response(await transfer.exportCsv(principal.account.id, body.column_names), {
          headers: {
            "content-type": "text/csv; charset=utf-8",
            "content-disposition": `attachment; filename="${fileName(principal.account)}"`,
          },
        }),
      {
        admin: true,
        params: AccountParams,
        ...bodyOf(
          t.Object({
            column_names: t.Optional(
              Checked(
                t.Union(
                  [
                    t.Array(t.String({ enum: EXPORT_COLUMN_NAMES })),
                    t.String({ description: "comma-separated names" }),
                  ],
                  { description: "columns to export (default id, name, email, phone_number)" },
                ),
              ),
            ),
          }),
        ),
        detail: {
          tags,
          summary: "Export every contact of the account as CSV (administrators; answered at once, not mailed)",
        },
      },
    );
}
