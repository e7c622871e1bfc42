// writeTx alone and with group commit: writes of one event-loop turn share a commit, each request's
// writes stay all-or-nothing, other connections see nothing before the commit, and no HTTP
// response leaves before the commit of what it reports (a failed commit answers 503).
import { describe, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { TwoWayStatement } from "../../src/db/reads.ts";
import { createHarness } from "../helpers/harness.ts";
import { counting, fileDatabases, turn } from "../helpers/tx-fixtures.ts";
import { makeAccount } from "../helpers/factories.ts";

const fileDb = fileDatabases();

describe("writeTx without grouping", () => {
  test("each call commits on its own; a throwing body writes nothing", () => {
    const { db } = fileDb();
    const { writeTx, commits, calls } = counting(db, false);
    writeTx.now(() => db.run("INSERT INTO t VALUES (1)"));
    expect(db.inTransaction).toBe(false);
    expect(() =>
      writeTx.now(
        () => (
          db.run("INSERT INTO t VALUES (2)"),
          (() => {
            throw new Error("no");
          })()
        ),
      ),
    ).toThrow("no");
    expect(db.query("SELECT x FROM t").all()).toEqual([{ x: 1 }]);
    expect(calls).toEqual({ commits: 1, rollbacks: 1 });
    expect(commits.settled()).toBeNull();
  });
});

describe("the awaited form", () => {
  test("writeTx answers the body's result, or rejects with its error and writes nothing; a nested call joins", async () => {
    const { db } = fileDb();
    const { writeTx, calls } = counting(db, false);
    const inserted = writeTx(() => (db.run("INSERT INTO t VALUES (1)"), "one"));
    expect(db.inTransaction).toBe(false); // the body ran and committed before writeTx answered
    expect(await inserted).toBe("one");
    const failed = writeTx(() => {
      db.run("INSERT INTO t VALUES (2)");
      throw new Error("no");
    });
    await expect(failed).rejects.toThrow("no");
    await writeTx(() => {
      db.run("INSERT INTO t VALUES (3)");
      writeTx.now(() => db.run("INSERT INTO t VALUES (4)"));
    });
    expect(db.query("SELECT x FROM t ORDER BY x").all()).toEqual([{ x: 1 }, { x: 3 }, { x: 4 }]);
    expect(calls).toEqual({ commits: 2, rollbacks: 1 });
  });
});

describe("group commit", () => {
  test("writes of one turn share one commit; other connections see them only after it", async () => {
    const { db, path } = fileDb();
    const { writeTx, commits, calls } = counting(db, true);
    const other = new Database(path, { readonly: true });
    writeTx.now(() => db.run("INSERT INTO t VALUES (1)"));
    writeTx.now(() => db.run("INSERT INTO t VALUES (2)"));
    expect(db.inTransaction).toBe(true);
    expect(db.query("SELECT count(*) AS n FROM t").get()).toEqual({ n: 2 }); // this connection reads its own writes
    expect(other.query("SELECT count(*) AS n FROM t").get()).toEqual({ n: 0 });
    const settled = commits.settled();
    expect(settled).toBeInstanceOf(Promise);
    await settled;
    expect(db.inTransaction).toBe(false);
    expect(other.query("SELECT count(*) AS n FROM t").get()).toEqual({ n: 2 });
    expect(calls).toEqual({ commits: 1, rollbacks: 0 });
    expect(commits.settled()).toBeNull();
    other.close();
  });

  test("a failing body undoes only its own writes; the group still commits the rest", async () => {
    const { db } = fileDb();
    const { writeTx, commits, calls } = counting(db, true);
    writeTx.now(() => db.run("INSERT INTO t VALUES (1)"));
    expect(() =>
      writeTx.now(() => {
        db.run("INSERT INTO t VALUES (2)");
        throw new Error("refused");
      }),
    ).toThrow("refused");
    writeTx.now(() => db.run("INSERT INTO t VALUES (3)"));
    await commits.settled();
    expect(db.query("SELECT x FROM t ORDER BY x").all()).toEqual([{ x: 1 }, { x: 3 }]);
    expect(calls).toEqual({ commits: 1, rollbacks: 0 });
  });

  test("an asynchronous body is refused and writes nothing", async () => {
    const { db } = fileDb();
    const { writeTx, commits } = counting(db, true);
    expect(() => writeTx.now(() => (db.run("INSERT INTO t VALUES (1)"), Promise.resolve(1)))).toThrow(
      "must be synchronous",
    );
    await commits.settled();
    expect(db.query("SELECT count(*) AS n FROM t").get()).toEqual({ n: 0 });
  });

  test("a failed commit rolls the whole group back and rejects settled()", async () => {
    const { db } = fileDb();
    db.run("CREATE TABLE parent (id INTEGER PRIMARY KEY)");
    db.run("CREATE TABLE child (parent_id INTEGER NOT NULL REFERENCES parent(id) DEFERRABLE INITIALLY DEFERRED)");
    const { writeTx, commits, calls } = counting(db, true);
    writeTx.now(() => db.run("INSERT INTO t VALUES (1)"));
    writeTx.now(() => db.run("INSERT INTO child VALUES (99)")); // checked only at COMMIT
    await expect(commits.settled()!).rejects.toThrow("FOREIGN KEY constraint failed");
    expect(db.inTransaction).toBe(false);
    expect(db.query("SELECT count(*) AS n FROM t").get()).toEqual({ n: 0 });
    expect(calls).toEqual({ commits: 0, rollbacks: 1 });
  });

  test("a setImmediate queued inside a writeTx runs after the commit (how the webhook deliverer wakes)", async () => {
    const { db } = fileDb();
    const { writeTx } = counting(db, true);
    writeTx.now(() => db.run("INSERT INTO t VALUES (1)"));
    const seen = await new Promise<boolean>((ok) => writeTx.now(() => setImmediate(() => ok(db.inTransaction))));
    expect(seen).toBe(false);
  });

  test("flush() commits at once (shutdown)", () => {
    const { db } = fileDb();
    const { writeTx, commits, calls } = counting(db, true);
    writeTx.now(() => db.run("INSERT INTO t VALUES (1)"));
    commits.flush();
    expect(db.inTransaction).toBe(false);
    expect(calls.commits).toBe(1);
    commits.flush(); // nothing open: a no-op
    expect(calls.commits).toBe(1);
  });
});

describe("responses wait for the commit", () => {
  test("a write's response arrives after its commit", async () => {
    const h = createHarness();
    const a = await makeAccount(h, "Acme");
    const r = await h.request("PATCH", `/api/v1/accounts/${a.accountId}`, {
      token: a.adminToken,
      body: { name: "Acme Renamed" },
    });
    expect(r.status).toBe(200);
    expect(h.deps.db.inTransaction).toBe(false);
    expect(h.deps.db.query("SELECT name FROM accounts WHERE id = ?").get(a.accountId)).toEqual({
      name: "Acme Renamed",
    });
  });

  test("when the group's commit fails, the response is a 503 and nothing is written", async () => {
    const h = createHarness();
    const a = await makeAccount(h, "Acme");
    h.deps.db.run("CREATE TABLE parent (id INTEGER PRIMARY KEY)");
    h.deps.db.run(
      "CREATE TABLE child (parent_id INTEGER NOT NULL REFERENCES parent(id) DEFERRABLE INITIALLY DEFERRED)",
    );
    await turn(); // the account is committed in a group of its own
    // The request's own body writes a row whose deferred constraint fails at COMMIT: the group's
    // commit is refused (SQLite's group of the turn; PostgreSQL's awaited group on its own connection).
    const platform = h.deps.repos.platform;
    const update = platform.updateUserSteps.bind(platform);
    const orphan = new TwoWayStatement(h.deps.db, "INSERT INTO child (parent_id) VALUES (1)");
    platform.updateUserSteps = function* (...args: Parameters<typeof update>) {
      yield orphan.write([]);
      return yield* update(...args);
    };
    const r = await h.request("PUT", "/api/v1/profile", { token: a.adminToken, body: { name: "Lost Name" } });
    platform.updateUserSteps = update;
    expect(r.status).toBe(503);
    expect(r.headers.get("retry-after")).toBe("1");
    expect(r.body).toEqual({
      description: "The change could not be saved",
      error: "The change could not be saved",
      errors: [{ field: "database", message: "commit failed; try again", code: "unavailable" }],
    });
    expect(h.deps.db.query("SELECT name FROM users WHERE id = ?").get(a.adminId)).toEqual({ name: "Admin" });
  });
});
