// A throwaway PostgreSQL for tests: the server from Debian's packages (`apt-get install postgresql`,
// as .ci/run does), a data directory under /tmp, listening on 127.0.0.1 only with fsync off, gone
// with stop(). When PostgreSQL is not installed, startPostgres() returns the reason instead, so a
// test can say why it skips. initdb refuses to run as root: as root, the server runs as the
// `postgres` user the package creates.
import { afterAll } from "bun:test";
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { freePort } from "./free-port.ts";

export interface Postgres {
  /** postgres://postgres@127.0.0.1:PORT/postgres */
  url: string;
  /** A fresh database on this server; its URL. */
  createDatabase(name: string): Promise<string>;
  /**
   * Stops the server (every connection is ended, as in a restart for an upgrade) and starts it
   * again. A fast stop, not an immediate one: with this server's fsync and synchronous_commit off, a
   * crash would lose the last commits, which is this throwaway server's trade, not Parley's.
   */
  restart(): Promise<void>;
  stop(): Promise<void>;
}

function binDir(): string | null {
  const root = "/usr/lib/postgresql";
  if (!existsSync(root)) return null;
  const versions = readdirSync(root)
    .filter((v) => existsSync(join(root, v, "bin/initdb")))
    .sort((a, b) => Number(b) - Number(a));
  return versions[0] ? join(root, versions[0], "bin") : null;
}

function postgresUser(): { uid: number; gid: number } | null {
  if (process.getuid?.() !== 0) return null;
  const line = Bun.spawnSync(["getent", "passwd", "postgres"]).stdout.toString().trim();
  const [, , uid, gid] = line.split(":");
  if (!uid || !gid) throw new Error("running as root, and there is no postgres user to run PostgreSQL as");
  return { uid: Number(uid), gid: Number(gid) };
}

async function run(cmd: string[], asPostgres: boolean): Promise<void> {
  const full = asPostgres ? ["runuser", "-u", "postgres", "--", ...cmd] : cmd;
  const p = Bun.spawn(full, { stdout: "pipe", stderr: "pipe" });
  const [code, out, err] = await Promise.all([p.exited, new Response(p.stdout).text(), new Response(p.stderr).text()]);
  if (code !== 0) throw new Error(`${cmd[0]} failed (${code}): ${err || out}`);
}

/** A running server, or why there cannot be one here. */
export async function startPostgres(): Promise<Postgres | { skip: string }> {
  const bin = binDir();
  if (!bin) return { skip: "PostgreSQL is not installed (apt-get install postgresql)" };
  const owner = postgresUser();
  const dir = mkdtempSync(join(tmpdir(), "parley-pg-"));
  if (owner) chownSync(dir, owner.uid, owner.gid);
  const data = join(dir, "data");
  const port = await freePort();
  const asPostgres = owner !== null;
  await run(
    [join(bin, "initdb"), "-D", data, "-U", "postgres", "-A", "trust", "--no-sync", "-E", "UTF8", "--locale=C.UTF-8"],
    asPostgres,
  );
  // Connections: a run keeps up to 48 harness databases open (test-database.ts), each with the
  // bridge's reserved connection, a listener's, and up to ten of the read pool (src/db/async-reads.ts).
  const options = `-h 127.0.0.1 -p ${port} -k ${dir} -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=600`;
  await run([join(bin, "pg_ctl"), "-D", data, "-o", options, "-w", "-l", join(dir, "log"), "start"], asPostgres);
  const url = `postgres://postgres@127.0.0.1:${port}/postgres`;
  return {
    url,
    async createDatabase(name: string) {
      if (!/^[a-z_][a-z0-9_]*$/.test(name)) throw new Error(`not a database name: ${name}`);
      const sql = new Bun.SQL(url);
      try {
        await sql.unsafe(`CREATE DATABASE ${name}`);
      } finally {
        await sql.close();
      }
      return `postgres://postgres@127.0.0.1:${port}/${name}`;
    },
    async restart() {
      // With -l the server's output goes to the log, so pg_ctl's own output ends when it returns.
      await run([join(bin, "pg_ctl"), "-D", data, "-m", "fast", "-w", "-l", join(dir, "log"), "restart"], asPostgres);
    },
    async stop() {
      await run([join(bin, "pg_ctl"), "-D", data, "-m", "immediate", "-w", "stop"], asPostgres).catch(() => {});
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * One server for a test file, stopped after it; without PostgreSQL, the reason (said once, for
 * `describe.skipIf(skip !== null)`) instead.
 */
export async function postgresForFile(what: string): Promise<{ server: Postgres | null; skip: string | null }> {
  const pg = await startPostgres();
  if ("skip" in pg) {
    console.warn(`${what}: skipped — ${pg.skip}`);
    return { server: null, skip: pg.skip };
  }
  afterAll(() => pg.stop());
  return { server: pg, skip: null };
}
