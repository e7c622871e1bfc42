// Files across a crash and into a backup, with the real server process. The server is killed
// (SIGKILL, by the PARLEY_TEST_CRASH_AT_COMMIT hook) just before it commits an upload's message:
// the file was already durable, the row never commits, so after a restart no row lacks its file
// (the orphan file waits for the sweep). `parley backup` then copies the files its copy refers to
// (SQLite; on PostgreSQL, where backups are pg_dump's, the crash part runs alone).
import { afterAll, describe, expect, test } from "bun:test";
import { existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { serverDatabase } from "../helpers/server-database.ts";
import { serveProcess } from "../helpers/server-process.ts";
import { runCli } from "../../src/cli.ts";
import { pdfFile, pngFile } from "../helpers/files.ts";

const dir = mkdtempSync(join(tmpdir(), "parley-files-crash-"));
const installation = serverDatabase(dir, "files");
const { storage } = installation;
const procs: Bun.Subprocess[] = [];
afterAll(() => {
  for (const p of procs) p.kill("SIGKILL");
  rmSync(dir, { recursive: true, force: true });
});

const serve = (env: Record<string, string> = {}) =>
  serveProcess(installation.target, { ...installation.env, ...env }, procs);

function upload(base: string, token: string, conversationId: number, bytes: Uint8Array, filename: string) {
  const form = new FormData();
  form.append("content", filename);
  form.append("attachments[]", new File([new Uint8Array(bytes)], filename));
  return fetch(`${base}/api/v1/accounts/1/conversations/${conversationId}/messages`, {
    method: "POST",
    headers: { api_access_token: token },
    body: form,
  });
}

const storedKeys = () =>
  readdirSync(storage)
    .filter((d) => /^[0-9a-f]{2}$/.test(d))
    .flatMap((d) => readdirSync(join(storage, d)));

describe("attachments across kill -9, and in a backup", () => {
  test("no row without its file after a crash between file and commit; the backup carries the files", async () => {
    const first = await serve();
    const token = first.token!;
    const api = async (path: string, body: unknown) =>
      (
        await fetch(`${first.base}/api/v1/accounts/1${path}`, {
          method: "POST",
          headers: { api_access_token: token, "content-type": "application/json" },
          body: JSON.stringify(body),
        })
      ).json() as Promise<any>;
    const inbox = await api("/inboxes", { name: "API", channel: { type: "api" } });
    const contact = await api("/contacts", { name: "File Sender", email: "files@example.com", inbox_id: inbox.id });
    const conversation = await api("/conversations", { inbox_id: inbox.id, contact_id: contact.payload.contact.id });
    const kept = await upload(first.base, token, conversation.id, pngFile(20, 10), "kept.png");
    expect(kept.status).toBe(200);
    first.proc.kill("SIGTERM");
    await first.proc.exited;

    // The next server dies at its first commit with events: the upload's.
    const second = await serve({ PARLEY_TEST_CRASH_AT_COMMIT: "1" });
    const lost = await upload(second.base, token, conversation.id, pdfFile("never committed"), "lost.pdf").catch(
      () => null,
    );
    expect(lost).toBeNull();
    expect(await second.proc.exited).not.toBe(0);

    const check = installation.open();
    const rows = check.query("SELECT storage_key, filename FROM attachments ORDER BY id").all() as {
      storage_key: string;
      filename: string;
    }[];
    check.close();
    expect(rows.map((r) => r.filename)).toEqual(["kept.png"]);
    for (const r of rows) expect(existsSync(join(storage, r.storage_key.slice(0, 2), r.storage_key))).toBe(true);
    expect(storedKeys()).toHaveLength(2); // kept.png, and lost.pdf's bytes left for the sweep
    if (installation.onPostgres) return;

    const out: string[] = [];
    const to = join(dir, "copy.db");
    expect(
      await runCli(["backup", "--db", installation.target, "--to", to], {
        out: (l) => void out.push(l),
        err: (l) => void out.push(l),
      }),
    ).toBe(0);
    expect(out).toContain(`1 attachment file(s) copied to ${to}.files`);
    // The server made the mail password key on its first start: the backup carries it too.
    expect(out).toContain(
      `secret key copied to ${to}.key (it opens the email inboxes' passwords: keep it with the copy)`,
    );
    const key = rows[0]!.storage_key;
    expect(
      Buffer.from(await Bun.file(join(`${to}.files`, key.slice(0, 2), key)).arrayBuffer()).equals(
        Buffer.from(pngFile(20, 10)),
      ),
    ).toBe(true);
  });
});
