// Several `parley serve` processes on one database of a test's PostgreSQL (helpers/postgres.ts),
// no balancer: the test picks the process for each request. The first process to start makes the
// first account, holds the background lease, and prints the token every process accepts.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Postgres } from "./postgres.ts";
import { type ServerProcess, serveProcess } from "./server-process.ts";

export interface Cluster {
  url: string;
  token: string;
  processes: ServerProcess[];
  /** An account API call (account 1) through process `p`. */
  call(p: ServerProcess, method: string, path: string, body?: unknown): Promise<{ status: number; body: any }>;
}

export async function startCluster(
  server: Postgres,
  procs: Bun.Subprocess[],
  name: string,
  count: number,
  more: Record<string, string> = {},
): Promise<Cluster> {
  const url = await server.createDatabase(name);
  const env = {
    PARLEY_SECRET_KEY: "shared by every process of this installation",
    PARLEY_STORAGE: mkdtempSync(join(tmpdir(), "parley-processes-")),
    PARLEY_ALLOW_PRIVATE_WEBHOOKS: "1",
    ...more,
  };
  const first = await serveProcess(url, env, procs);
  const rest: ServerProcess[] = [];
  for (let i = 1; i < count; i++) rest.push(await serveProcess(url, env, procs));
  const token = first.token!;
  const call = async (p: ServerProcess, method: string, path: string, body?: unknown) => {
    const r = await fetch(`${p.base}/api/v1/accounts/1${path}`, {
      method,
      headers: { api_access_token: token, "content-type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: r.status, body: (await r.json()) as any };
  };
  return { url, token, processes: [first, ...rest], call };
}
