// The filter SQL builder: both ways of writing `labels equal_to` select the same rows, values are
// bound (never spliced), and AND binds before OR.
import { expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { CONVERSATION_FILTER_TABLE, filterWhere, type FilterCondition } from "../../src/db/filter-sql.ts";

function db() {
  const d = new Database(":memory:");
  d.exec(`CREATE TABLE conversations (id INTEGER PRIMARY KEY, account_id INT, status TEXT, custom_attributes TEXT DEFAULT '{}');
          CREATE TABLE conversation_labels (conversation_id INT, account_id INT, title TEXT);`);
  for (let i = 1; i <= 40; i++) {
    d.query("INSERT INTO conversations (id, account_id, status) VALUES (?, ?, ?)").run(
      i,
      i <= 30 ? 1 : 2,
      i % 2 ? "open" : "resolved",
    );
    if (i % 3 === 0) d.query("INSERT INTO conversation_labels VALUES (?, ?, 'billing')").run(i, i <= 30 ? 1 : 2);
  }
  return d;
}

const ids = (d: Database, conditions: FilterCondition[], from: "labels" | "records") => {
  const w = filterWhere(CONVERSATION_FILTER_TABLE, 1, conditions, from);
  return (
    d.query(`SELECT v.id FROM conversations v WHERE v.account_id = 1 AND ${w.sql} ORDER BY v.id`).all(...w.params) as {
      id: number;
    }[]
  ).map((r) => r.id);
};

test("labels equal_to: the label-first and record-first forms agree and stay in the account", () => {
  const d = db();
  const conditions: FilterCondition[] = [
    { attribute: "status", custom: false, op: "in", compare: "exact", values: ["open"], join: "AND" },
    { attribute: "labels", custom: false, op: "in", compare: "labels", values: ["billing"], join: "AND" },
  ];
  expect(ids(d, conditions, "labels")).toEqual([3, 9, 15, 21, 27]);
  expect(ids(d, conditions, "records")).toEqual([3, 9, 15, 21, 27]);
});

test("values are bound parameters, and a custom key is a bound JSON path", () => {
  const w = filterWhere(CONVERSATION_FILTER_TABLE, 1, [
    { attribute: "status", custom: false, op: "in", compare: "exact", values: ["open') OR 1=1 --"], join: "OR" },
    { attribute: "plan", custom: true, op: "like_any", compare: "text", values: ["50%_off"], join: "AND" },
  ]);
  expect(w.sql).not.toContain("1=1");
  expect(w.sql).not.toContain("plan");
  expect(w.params).toEqual(["open') OR 1=1 --", '$."plan"', "%50\\%\\_off%"]);
  expect(
    ids(
      db(),
      [{ attribute: "status", custom: false, op: "in", compare: "exact", values: ["open') OR 1=1 --"], join: "AND" }],
      "labels",
    ),
  ).toEqual([]);
});

test("AND binds before OR", () => {
  const d = db();
  // status open AND labelled billing OR status resolved → (open ∧ billing) ∨ resolved
  const conditions: FilterCondition[] = [
    { attribute: "status", custom: false, op: "in", compare: "exact", values: ["open"], join: "AND" },
    { attribute: "labels", custom: false, op: "in", compare: "labels", values: ["billing"], join: "OR" },
    { attribute: "status", custom: false, op: "in", compare: "exact", values: ["resolved"], join: "AND" },
  ];
  const expected = [3, 9, 15, 21, 27, ...Array.from({ length: 15 }, (_, i) => (i + 1) * 2)].sort((a, b) => a - b);
  expect(ids(d, conditions, "records")).toEqual(expected);
});
