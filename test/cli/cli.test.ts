import { describe, expect, test } from "bun:test";
import { existsSync, mkdtempSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseFlags, UsageError } from "../../src/cli/args.ts";
import { firstLine } from "../../src/cli/secret.ts";
import { runCli } from "../../src/cli.ts";
import { openDatabase } from "../../src/db/open.ts";
import { capture } from "../helpers/cli.ts";

const tmpDb = () => join(mkdtempSync(join(tmpdir(), "parley-cli-")), "p.db");

describe("flag parsing", () => {
  const spec = { db: { type: "string", help: "", required: true }, json: { type: "boolean", help: "" } } as const;
  test("--x value, --x=value and booleans", () => {
    expect(parseFlags("t", spec, ["--db", "a.db", "--json"])).toEqual({ db: "a.db", json: true });
    expect(parseFlags("t", spec, ["--db=b.db"])).toEqual({ db: "b.db" });
  });
  test("unknown flags, missing values and missing required flags are usage errors", () => {
    expect(() => parseFlags("t", spec, ["--db", "a", "--nope"])).toThrow(
      new UsageError('unknown flag --nope for "t" (see parley t --help)'),
    );
    expect(() => parseFlags("t", spec, ["--db"])).toThrow(new UsageError("--db needs a value"));
    expect(() => parseFlags("t", spec, ["--db", "--json"])).toThrow(new UsageError("--db needs a value"));
    expect(() => parseFlags("t", spec, [])).toThrow(new UsageError('--db is required for "t" (see parley t --help)'));
    expect(() => parseFlags("t", spec, ["--db", "a", "stray"])).toThrow(UsageError);
  });
});

describe("parley commands", () => {
  test("bootstrap --json prints exactly one JSON line; again with another account creates another", async () => {
    const db = tmpDb();
    const c = capture();
    expect(
      await runCli(
        ["bootstrap", "--db", db, "--account", "Acme", "--name", "Ann", "--email", "ann@acme.test", "--json"],
        c.io,
      ),
    ).toBe(0);
    expect(c.out).toHaveLength(1);
    const first = JSON.parse(c.out[0]!);
    expect(first).toEqual({
      account_id: 1,
      user_id: 1,
      api_access_token: expect.stringMatching(/^[1-9A-HJ-NP-Za-km-z]{32}$/),
    });
    const c2 = capture();
    expect(
      await runCli(
        ["bootstrap", "--db", db, "--account", "Globex", "--name", "Ann", "--email", "ann@acme.test", "--json"],
        c2.io,
      ),
    ).toBe(0);
    expect(JSON.parse(c2.out[0]!)).toMatchObject({ account_id: 2, user_id: 1 });
  });

  test("bootstrap with a bad email is a clear error with exit 2", async () => {
    const c = capture();
    expect(
      await runCli(["bootstrap", "--db", tmpDb(), "--account", "A", "--name", "N", "--email", "not-an-email"], c.io),
    ).toBe(2);
    expect(c.err[0]).toBe("parley bootstrap: email is not a valid email address: email is not a valid email address");
  });

  test("token issues a new working token; unknown email exits 2", async () => {
    const db = tmpDb();
    await runCli(
      ["bootstrap", "--db", db, "--account", "A", "--name", "N", "--email", "n@a.test", "--json"],
      capture().io,
    );
    const c = capture();
    expect(await runCli(["token", "--db", db, "--email", "N@A.test", "--json"], c.io)).toBe(0);
    expect(JSON.parse(c.out[0]!)).toEqual({ user_id: 1, api_access_token: expect.any(String) });
    const bad = capture();
    expect(await runCli(["token", "--db", db, "--email", "who@a.test"], bad.io)).toBe(2);
    expect(bad.err[0]).toContain("User not found");
  });

  test("password sets an argon2id hash from --password or the secret reader; short passwords and unknown users exit 2", async () => {
    const db = tmpDb();
    await runCli(["bootstrap", "--db", db, "--account", "A", "--name", "N", "--email", "n@a.test"], capture().io);
    const hashOf = () => {
      const d = openDatabase(db);
      const row = d.query("SELECT password_hash FROM users WHERE id = 1").get() as { password_hash: string | null };
      d.close();
      return row.password_hash;
    };
    expect(hashOf()).toBeNull();
    const c = capture();
    expect(await runCli(["password", "--db", db, "--email", "N@a.test", "--password", "long enough"], c.io)).toBe(0);
    expect(c.out).toEqual(["Password set for user 1; 0 browser session(s) ended."]);
    const first = hashOf();
    expect(first).toStartWith("$argon2id$");
    expect(await Bun.password.verify("long enough", first!)).toBe(true);

    const prompts: string[] = [];
    const piped = capture();
    const io = { ...piped.io, readSecret: async (p: string) => (prompts.push(p), "from the reader") };
    expect(await runCli(["password", "--db", db, "--email", "n@a.test"], io)).toBe(0);
    expect(prompts).toEqual(["New password (at least 8 characters): "]);
    expect(await Bun.password.verify("from the reader", hashOf()!)).toBe(true);

    const short = capture();
    expect(await runCli(["password", "--db", db, "--email", "n@a.test", "--password", "short"], short.io)).toBe(2);
    expect(short.err[0]).toBe(
      "parley password: password is too short (minimum is 8 characters): password is too short (minimum is 8 characters)",
    );
    const unknown = capture();
    expect(
      await runCli(["password", "--db", db, "--email", "who@a.test", "--password", "long enough"], unknown.io),
    ).toBe(2);
    expect(unknown.err[0]).toContain("User not found");
    expect(await Bun.password.verify("from the reader", hashOf()!)).toBe(true);
  }, 20_000);

  test("piped stdin gives its first line as the secret", () => {
    expect(firstLine("s3cret pass\nignored\n")).toBe("s3cret pass");
    expect(firstLine("crlf line\r\n")).toBe("crlf line");
    expect(firstLine("")).toBe("");
  });

  test("migrate reports what it applied, then that it is up to date", async () => {
    const db = tmpDb();
    const c = capture();
    expect(await runCli(["migrate", "--db", db], c.io)).toBe(0);
    expect(c.out[0]).toMatch(/^applied migrations 1(, \d+)*; schema version \d+$/);
    const c2 = capture();
    await runCli(["migrate", "--db", db], c2.io);
    expect(c2.out[0]).toMatch(/^schema is up to date \(version \d+\)$/);
  });

  test("backup writes a consistent copy and refuses to overwrite", async () => {
    const db = tmpDb();
    await runCli(["bootstrap", "--db", db, "--account", "Copied", "--name", "N", "--email", "n@a.test"], capture().io);
    const to = `${db}.bak`;
    expect(await runCli(["backup", "--db", db, "--to", to], capture().io)).toBe(0);
    expect(existsSync(to)).toBe(true);
    const copy = openDatabase(to);
    expect(copy.query("SELECT name FROM accounts").all()).toEqual([{ name: "Copied" }]);
    copy.close();
    const again = capture();
    expect(await runCli(["backup", "--db", db, "--to", to], again.io)).toBe(2);
    expect(again.err[0]).toContain("already exists");
  });

  test("backup copies the key that opens the email inboxes' passwords, readable by the owner only", async () => {
    const db = tmpDb();
    await runCli(["bootstrap", "--db", db, "--account", "Keyed", "--name", "N", "--email", "k@a.test"], capture().io);
    writeFileSync(`${db}.key`, "the-key\n", { mode: 0o600 });
    const to = `${db}.bak`;
    const c = capture();
    expect(await runCli(["backup", "--db", db, "--to", to], c.io)).toBe(0);
    expect(readFileSync(`${to}.key`, "utf8")).toBe("the-key\n");
    expect(statSync(`${to}.key`).mode & 0o777).toBe(0o600);
    expect(c.out).toContain(
      `secret key copied to ${to}.key (it opens the email inboxes' passwords: keep it with the copy)`,
    );
  });

  test("help, version, --help per command, unknown command", async () => {
    const h = capture();
    expect(await runCli(["help"], h.io)).toBe(0);
    for (const name of ["serve", "bootstrap", "migrate", "token", "password", "backup", "version"])
      expect(h.out.join("\n")).toContain(name);
    const v = capture();
    await runCli(["version"], v.io);
    expect(v.out[0]).toMatch(/^parley \d+\.\d+\.\d+ \(bun 1\.\d+\.\d+\)$/);
    const ch = capture();
    expect(await runCli(["bootstrap", "--help"], ch.io)).toBe(0);
    expect(ch.out[0]).toContain("parley bootstrap");
    expect(ch.out.join("\n")).toContain("--email EMAIL");
    const u = capture();
    expect(await runCli(["frobnicate"], u.io)).toBe(2);
    expect(u.err[0]).toBe('parley: unknown command "frobnicate" (run "parley help")');
  });
});
