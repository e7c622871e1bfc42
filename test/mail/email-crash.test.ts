// Mail across kill -9: the real server process reads a Dovecot mailbox of 30 new mails and is
// killed (PARLEY_TEST_CRASH_AT_COMMIT) in the middle of filing them. After the restart every mail is
// filed exactly once: the checkpoint and the Message-IDs commit with the messages they describe.
// Runs on the engine under test.
import { afterAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { serverDatabase } from "../helpers/server-database.ts";
import { serveProcess } from "../helpers/server-process.ts";
import { startReceiver } from "../helpers/webhooks.ts";
import { dovecotInstalled, skipWithoutDovecot, startDovecot, type Dovecot } from "./dovecot.ts";
import { deliver } from "./mailbox.ts";
import { emailChannel } from "./servers.ts";

if (!dovecotInstalled) console.warn(skipWithoutDovecot);

const MAILS = 30;
const dir = mkdtempSync(join(tmpdir(), "parley-mail-crash-"));
const db = serverDatabase(dir, "mail");
const procs: Bun.Subprocess[] = [];
let dovecot: Dovecot | null = null;
afterAll(async () => {
  for (const p of procs) p.kill("SIGKILL");
  await dovecot?.stop();
  rmSync(dir, { recursive: true, force: true });
});

const env = {
  ...db.env,
  PARLEY_ALLOW_PRIVATE_MAIL_HOSTS: "1",
  PARLEY_ALLOW_PRIVATE_WEBHOOKS: "1",
  PARLEY_MAIL_POLL_SECONDS: "1",
};

function count(sql: string): number {
  const d = db.open();
  try {
    return (d.query(sql).get() as { n: number }).n;
  } finally {
    d.close();
  }
}

describe.skipIf(!dovecotInstalled)("email inboxes across kill -9", () => {
  test("a crash in the middle of filing: after the restart every mail is filed exactly once", async () => {
    dovecot = await startDovecot();
    const folder = "crash";
    // Every conversation_created webhook is the signal that a mail was filed.
    const filed = new Set<number>();
    let allFiled: () => void;
    const done = new Promise<void>((resolve) => {
      allFiled = resolve;
    });
    const receiver = startReceiver((_n, req) => {
      if (req.json.event === "conversation_created") filed.add(req.json.id);
      if (filed.size === MAILS) allFiled();
      return 200;
    });

    const first = await serveProcess(db.target, env, procs);
    const api = async (path: string, body: unknown) =>
      (
        await fetch(`${first.base}/api/v1/accounts/1${path}`, {
          method: "POST",
          headers: { api_access_token: first.token!, "content-type": "application/json" },
          body: JSON.stringify(body),
        })
      ).json() as Promise<any>;
    await api("/webhooks", { url: receiver.url, subscriptions: ["conversation_created"] });
    await deliver(dovecot, folder); // the folder, empty, before IMAP is turned on
    const inbox = await api("/inboxes", {
      name: "Support",
      channel: emailChannel(dovecot, null, { imap_folder: folder }),
    });
    expect(inbox.channel_type).toBe("Channel::Email");
    first.proc.kill("SIGTERM");
    await first.proc.exited;

    await deliver(
      dovecot,
      folder,
      ...Array.from({ length: MAILS }, (_, i) => ({
        from: `customer${i}@example.com`,
        subject: `Mail ${i}`,
        messageId: `<mail-${i}@example.com>`,
      })),
    );
    // The 6th commit that carries events is one of the mails being filed: the process dies before it.
    const crashing = await serveProcess(db.target, { ...env, PARLEY_TEST_CRASH_AT_COMMIT: "6" }, procs);
    expect(await crashing.exited).not.toBe(0);
    const before = count("SELECT count(*) AS n FROM conversations");
    expect(before).toBeGreaterThan(0);
    expect(before).toBeLessThan(MAILS);
    expect(count("SELECT last_uid AS n FROM email_channels")).toBe(before);

    await serveProcess(db.target, env, procs);
    await done;
    expect(count("SELECT count(*) AS n FROM conversations")).toBe(MAILS);
    expect(count("SELECT count(*) AS n FROM messages WHERE message_type = 0")).toBe(MAILS);
    expect(count("SELECT count(DISTINCT header_id) AS n FROM email_message_ids WHERE direction = 'in'")).toBe(MAILS);
    expect(count("SELECT count(*) AS n FROM contacts WHERE email LIKE 'customer%'")).toBe(MAILS);
    expect(count("SELECT last_uid AS n FROM email_channels")).toBe(MAILS);
    await receiver.stop();
  }, 60_000);
});
