// Builds the WHERE clause of a Chatwoot-style filter (POST contacts/filter, conversations/filter)
// from conditions the domain has already validated (src/domain/filter-input.ts). Every value is a
// bound parameter; column expressions come only from the fixed maps below, and custom attribute
// keys go in as a bound JSON path, so no request text ever reaches the SQL.

export type FilterOp = "in" | "not_in" | "like_any" | "not_like_all" | "present" | "absent" | "gt" | "lt";
/** How values compare: case-insensitive text, exact values, numbers/dates, label membership. */
export type FilterCompare = "text" | "exact" | "number" | "labels";
export type FilterValue = string | number;

export interface FilterCondition {
  /** A standard attribute of the table's map, or a custom attribute key when `custom`. */
  attribute: string;
  custom: boolean;
  op: FilterOp;
  compare: FilterCompare;
  values: FilterValue[];
  /** How this condition joins the next one (the last one's is ignored). */
  join: "AND" | "OR";
}

export interface FilterTable {
  alias: string;
  columns: Record<string, string>;
  /** The label table and its foreign key, for `labels`. */
  labels: { table: string; key: string };
}

export const CONTACT_FILTER_TABLE: FilterTable = {
  alias: "c",
  columns: {
    name: "c.name",
    email: "c.email",
    phone_number: "c.phone_number",
    identifier: "c.identifier",
    country_code: "json_extract(c.additional_attributes, '$.country_code')",
    city: "json_extract(c.additional_attributes, '$.city')",
    company: "c.company_name",
    created_at: "c.created_at",
    last_activity_at: "c.last_activity_at",
    blocked: "c.blocked",
  },
  labels: { table: "contact_labels", key: "contact_id" },
};

export const CONVERSATION_FILTER_TABLE: FilterTable = {
  alias: "v",
  columns: {
    status: "v.status",
    assignee_id: "v.assignee_id",
    inbox_id: "v.inbox_id",
    team_id: "v.team_id",
    priority: "v.priority",
    display_id: "v.display_id",
    // Parley has no campaigns: no conversation belongs to one.
    campaign_id: "NULL",
    browser_language: "json_extract(v.additional_attributes, '$.browser_language')",
    referer: "json_extract(v.additional_attributes, '$.referer')",
    created_at: "v.created_at",
    last_activity_at: "v.last_activity_at",
  },
  labels: { table: "conversation_labels", key: "conversation_id" },
};

export interface SqlFragment {
  sql: string;
  params: FilterValue[];
}

/** `n` positional placeholders for an IN list: "?, ?, ?". */
export const marks = (n: number) => Array.from({ length: n }, () => "?").join(", ");
/** `term` as a LIKE pattern (with ESCAPE '\\') that matches it anywhere, its own % and _ taken literally. */
export const containsPattern = (term: string) => `%${term.replace(/[\\%_]/g, (ch) => `\\${ch}`)}%`;

/** Where the engines' SQL differs: a custom attribute's JSON (SQLite's json_extract answers typed values). */
export type FilterDialect = "sqlite" | "postgres";

function expression(table: FilterTable, c: FilterCondition, params: FilterValue[], dialect: FilterDialect): string {
  if (c.custom && dialect === "postgres") {
    const attrs = `(${table.alias}.custom_attributes::jsonb)`;
    if (c.compare !== "number") {
      params.push(c.attribute);
      return `(${attrs} ->> ?)`;
    }
    // A number compares as a number only where the attribute holds one (SQLite's typed json_extract).
    params.push(c.attribute, c.attribute);
    return `(CASE WHEN jsonb_typeof(${attrs} -> ?) = 'number' THEN (${attrs} ->> ?)::float8 END)`;
  }
  if (c.custom) {
    params.push(`$."${c.attribute}"`);
    return `json_extract(${table.alias}.custom_attributes, ?)`;
  }
  const column = table.columns[c.attribute];
  if (!column) throw new Error(`filter attribute without a column: ${c.attribute}`);
  return column;
}

function labelsCondition(
  table: FilterTable,
  c: FilterCondition,
  params: FilterValue[],
  accountId: number,
  labelsFrom: LabelsFrom,
): string {
  const base = `SELECT 1 FROM ${table.labels.table} l WHERE l.${table.labels.key} = ${table.alias}.id`;
  switch (c.op) {
    case "in":
      if (labelsFrom === "labels") {
        // A membership list: the planner starts from the label's rows (the (account_id, title) index).
        params.push(accountId, ...c.values);
        return `${table.alias}.id IN (SELECT l.${table.labels.key} FROM ${table.labels.table} l WHERE l.account_id = ? AND l.title IN (${marks(c.values.length)}))`;
      }
      // A per-row test: the planner walks the records in their index order and checks each.
      params.push(...c.values);
      return `EXISTS (${base} AND l.title IN (${marks(c.values.length)}))`;
    case "not_in":
      params.push(...c.values);
      return `NOT EXISTS (${base} AND l.title IN (${marks(c.values.length)}))`;
    case "present":
      return `EXISTS (${base})`;
    case "absent":
      return `NOT EXISTS (${base})`;
    default:
      throw new Error(`labels cannot be filtered with ${c.op}`);
  }
}

function condition(
  table: FilterTable,
  c: FilterCondition,
  params: FilterValue[],
  accountId: number,
  labelsFrom: LabelsFrom,
  dialect: FilterDialect,
): string {
  if (c.compare === "labels") return labelsCondition(table, c, params, accountId, labelsFrom);
  const p: FilterValue[] = [];
  const e = expression(table, c, p, dialect);
  // The expression's own parameter (a custom key's path) is repeated wherever the expression is.
  const use = () => (params.push(...p), e);
  const text = c.compare === "text";
  switch (c.op) {
    case "in":
    case "not_in": {
      // Parameters are pushed in the order their marks appear in the SQL.
      // Unlike Chatwoot's SQL, a record without the value counts as "not equal".
      const nullCheck = c.op === "not_in" ? `${use()} IS NULL OR NOT ` : "";
      const lhs = text ? `LOWER(${use()})` : use();
      params.push(...c.values.map((v) => (text && typeof v === "string" ? v.toLowerCase() : v)));
      const list = `${lhs} IN (${marks(c.values.length)})`;
      return c.op === "in" ? list : `(${nullCheck}${list})`;
    }
    case "like_any": {
      const parts = c.values.map((v) => {
        const lhs = use();
        params.push(containsPattern(String(v)));
        return `${lhs} LIKE ? ESCAPE '\\'`;
      });
      return `(${parts.join(" OR ")})`;
    }
    case "not_like_all": {
      const nullCheck = `${use()} IS NULL`;
      const parts = c.values.map((v) => {
        const lhs = use();
        params.push(containsPattern(String(v)));
        return `${lhs} NOT LIKE ? ESCAPE '\\'`;
      });
      return `(${nullCheck} OR (${parts.join(" AND ")}))`;
    }
    case "present": {
      const a = use();
      const b = use();
      // As text: an integer column is never '' (PostgreSQL will not read '' as a number).
      return `(${a} IS NOT NULL AND CAST(${b} AS TEXT) <> '')`;
    }
    case "absent": {
      const a = use();
      const b = use();
      return `(${a} IS NULL OR CAST(${b} AS TEXT) = '')`;
    }
    case "gt":
    case "lt": {
      const lhs = use();
      params.push(c.values[0]!);
      return `${lhs} ${c.op === "gt" ? ">" : "<"} ?`;
    }
  }
}

/**
 * The conditions chained as Chatwoot chains them: each condition's query_operator joins it to the
 * next, and SQL's precedence (AND before OR) decides the grouping, so `a AND b OR c` is `(a AND b) OR c`.
 */
/**
 * How `labels equal_to` is written: "labels" lets the query start from the label's rows (best when
 * few records carry it, and for counting); "records" tests each record while walking an ordered
 * index (best for a page when matches are dense). src/db/record-filters.repo.ts picks per query.
 */
export type LabelsFrom = "labels" | "records";

export function filterWhere(
  table: FilterTable,
  accountId: number,
  conditions: readonly FilterCondition[],
  labelsFrom: LabelsFrom = "labels",
  dialect: FilterDialect = "sqlite",
): SqlFragment {
  const params: FilterValue[] = [];
  let sql = "";
  conditions.forEach((c, i) => {
    sql += `(${condition(table, c, params, accountId, labelsFrom, dialect)})`;
    if (i < conditions.length - 1) sql += ` ${c.join} `;
  });
  return { sql: `(${sql})`, params };
}
