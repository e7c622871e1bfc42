// Contacts in and out as CSV (Chatwoot's contacts/import and contacts/export). Import follows
// Chatwoot's data import: a row updates the contact with the same identifier, email or phone number
// (in that order) or creates one; name, email, phone_number and identifier are contact fields,
// company (or company_name) and city go to additional attributes, every other column to custom
// attributes. Each row goes through the contacts service (validation, events, webhooks) on its own,
// so a bad row is reported and the others are kept. Chatwoot imports and exports in the background
// and mails the result; Parley has no mailer, so both answer at once (the export is the CSV itself).
import { isSpooledFile } from "../files/multipart.ts";
import { type ContactsExportRepo, EXPORT_BATCH } from "../db/contacts-export.repo.ts";
import type { ContactRow, ContactsRepo, UniqueField } from "../db/contacts.repo.ts";
import { readSoon } from "../db/reads.ts";
import { CsvError, formatCsv, parseCsv, unguarded } from "../lib/csv.ts";
import type { Acting } from "./acting.ts";
import type { ContactInput } from "./contact-input.ts";
import type { ContactsService } from "./contacts.service.ts";
import { AppError, ValidationError } from "./errors.ts";
import { normalisePhone } from "./validate.ts";

/** Rows one import may hold: a larger file is refused as a whole, before anything is written. */
export const IMPORT_MAX_ROWS = 10_000;

export interface ImportResult {
  total_records: number;
  processed_records: number;
  created_records: number;
  updated_records: number;
  failed_records: { row: number; errors: string[] }[];
}

const CONTACT_FIELDS = new Set(["name", "email", "phone_number", "identifier"]);
const ADDITIONAL = new Map([
  ["company", "company_name"],
  ["company_name", "company_name"],
  ["city", "city"],
]);

const EXPORT_COLUMNS: Record<string, (c: ContactRow) => string | number | boolean | null> = {
  id: (c) => c.id,
  name: (c) => c.name,
  email: (c) => c.email,
  phone_number: (c) => c.phone_number,
  identifier: (c) => c.identifier,
  company_name: (c) => c.company_name,
  blocked: (c) => c.blocked === 1,
  created_at: (c) => new Date(c.created_at * 1000).toISOString(),
  last_activity_at: (c) => (c.last_activity_at === null ? null : new Date(c.last_activity_at * 1000).toISOString()),
  additional_attributes: (c) => c.additional_attributes,
  custom_attributes: (c) => c.custom_attributes,
};
const DEFAULT_COLUMNS = ["id", "name", "email", "phone_number"];
/** The columns an export may ask for. */
export const EXPORT_COLUMN_NAMES = Object.keys(EXPORT_COLUMNS);

interface TransferDeps {
  contacts: ContactsRepo;
  contactsExport: ContactsExportRepo;
  contactsService: ContactsService;
}

function rowInput(header: string[], record: string[]): ContactInput {
  const input: ContactInput & Record<string, unknown> = {};
  const additional: Record<string, string> = {};
  const custom: Record<string, string> = {};
  header.forEach((column, i) => {
    const value = unguarded((record[i] ?? "").trim());
    if (!column || value === "") return;
    if (CONTACT_FIELDS.has(column)) input[column] = value;
    else if (ADDITIONAL.has(column)) additional[ADDITIONAL.get(column)!] = value;
    else custom[column] = value;
  });
  // Chatwoot's import reads a phone number without its + as one with it.
  if (typeof input.phone_number === "string" && /^\d/.test(input.phone_number))
    input.phone_number = `+${input.phone_number}`;
  if (Object.keys(additional).length) input.additional_attributes = additional;
  if (Object.keys(custom).length) input.custom_attributes = custom;
  return input;
}

export class ContactsTransferService {
  constructor(private readonly d: TransferDeps) {}

  async import(a: Acting, file: unknown): Promise<ImportResult> {
    // Uploaded files arrive spooled to disk (src/files/multipart.ts); a Blob is accepted too.
    const blob = isSpooledFile(file) ? Bun.file(file.path) : file;
    if (!(blob instanceof Blob) || blob.size === 0)
      throw ValidationError.of("import_file", "must be a CSV file with a header row", "required");
    let records: string[][];
    try {
      records = parseCsv(await blob.text());
    } catch (error) {
      if (error instanceof CsvError)
        throw ValidationError.of("import_file", `is not valid CSV: ${error.message}`, "invalid");
      throw error;
    }
    const [head, ...rows] = records;
    const header = (head ?? []).map((h) => h.trim().toLowerCase());
    if (!header.some((h) => CONTACT_FIELDS.has(h))) {
      throw ValidationError.of(
        "import_file",
        "needs a header row naming at least one of name, email, phone_number, identifier",
        "invalid",
      );
    }
    if (rows.length > IMPORT_MAX_ROWS)
      throw ValidationError.of(
        "import_file",
        `has ${rows.length} rows; at most ${IMPORT_MAX_ROWS} per import`,
        "too_long",
      );
    const result: ImportResult = {
      total_records: rows.length,
      processed_records: 0,
      created_records: 0,
      updated_records: 0,
      failed_records: [],
    };
    for (const [i, record] of rows.entries()) {
      try {
        const input = rowInput(header, record);
        const existing = await this.existing(a.account.id, input);
        if (existing === null) await this.d.contactsService.create(a, input), result.created_records++;
        else await this.d.contactsService.update(a, existing, input), result.updated_records++;
        result.processed_records++;
      } catch (error) {
        if (!(error instanceof AppError) || error.status >= 500) throw error;
        const errors = error.errors.length ? error.errors.map((e) => `${e.field} ${e.message}`) : [error.description];
        result.failed_records.push({ row: i + 2, errors }); // row 1 is the header
      }
    }
    return result;
  }

  /** The contact a row updates: by identifier, then email, then phone number (Chatwoot's order). */
  private async existing(accountId: number, input: ContactInput): Promise<number | null> {
    const text = (v: unknown) => (typeof v === "string" ? v : null);
    const holder = (field: UniqueField, value: string) =>
      readSoon(this.d.contacts.readHolderOf(accountId, field, value));
    const identifier = text(input.identifier);
    const email = text(input.email)?.toLowerCase() ?? null;
    const phone = text(input.phone_number);
    return (
      (identifier && (await holder("identifier", identifier))) ||
      (email && (await holder("email", email))) ||
      (phone && (await holder("phone_number", normalisePhone(phone)))) ||
      null
    );
  }

  /** The account's contacts as CSV, with the chosen columns (default id, name, email, phone_number). */
  async exportCsv(accountId: number, columnNames: unknown): Promise<string> {
    const columns = this.columns(columnNames);
    const records: (string | number | boolean | null)[][] = [columns];
    for (let after = 0; ; ) {
      const batch = await readSoon(this.d.contactsExport.readBatch(accountId, after));
      for (const c of batch) records.push(columns.map((col) => EXPORT_COLUMNS[col]!(c)));
      if (batch.length < EXPORT_BATCH) break;
      after = batch.at(-1)!.id;
    }
    return formatCsv(records);
  }

  private columns(raw: unknown): string[] {
    if (raw === undefined || raw === null || raw === "" || (Array.isArray(raw) && raw.length === 0))
      return DEFAULT_COLUMNS;
    const list = Array.isArray(raw) ? raw : typeof raw === "string" ? raw.split(",") : null;
    if (!list || list.some((c) => typeof c !== "string"))
      throw ValidationError.of("column_names", "must be a list of column names", "invalid");
    const names = (list as string[]).map((c) => c.trim());
    const unknown = names.filter((c) => !(c in EXPORT_COLUMNS));
    if (unknown.length)
      throw ValidationError.of(
        "column_names",
        `has unknown columns: ${unknown.join(", ")}; choose from ${Object.keys(EXPORT_COLUMNS).join(", ")}`,
        "invalid",
      );
    return [...new Set(names)];
  }
}
