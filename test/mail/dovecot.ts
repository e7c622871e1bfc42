// A real IMAP server for the mail tests: Debian's Dovecot, started on 127.0.0.1 with a throwaway
// config, maildir and user, no TLS. Without Dovecot installed the IMAP tests say so and skip
// (CI installs dovecot-imapd, so they run there).
import { chmodSync, chownSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { freePort } from "../helpers/free-port.ts";

const BINARY = ["/usr/sbin/dovecot", "/usr/local/sbin/dovecot"].find((p) => existsSync(p)) ?? null;

export const dovecotInstalled = BINARY !== null;
export const skipWithoutDovecot = dovecotInstalled
  ? ""
  : "Dovecot is not installed (apt-get install dovecot-imapd): the IMAP tests skip";

export interface Dovecot {
  host: string;
  port: number;
  user: string;
  password: string;
  stop(): Promise<void>;
}

/**
 * Reads Dovecot's log until the master reports "starting up" (or the log ends: it failed), then keeps
 * draining it in the background so a full pipe never blocks the server.
 */
async function startupLog(stderr: ReadableStream<Uint8Array>): Promise<string> {
  const reader = stderr.getReader();
  const decoder = new TextDecoder();
  let text = "";
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return text;
    text += decoder.decode(value, { stream: true });
    if (text.includes("starting up")) break;
  }
  void (async () => {
    while (!(await reader.read()).done) {}
  })();
  return text;
}

/** Whether the IMAP port accepts a connection (checked once, after the master said it is up). */
async function answers(port: number): Promise<boolean> {
  try {
    const socket = await Bun.connect({ hostname: "127.0.0.1", port, socket: { data() {} } });
    socket.end();
    return true;
  } catch {
    return false;
  }
}

export async function startDovecot(): Promise<Dovecot> {
  if (!BINARY) throw new Error(skipWithoutDovecot);
  const dir = mkdtempSync(join(tmpdir(), "parley-dovecot-"));
  // Dovecot's own users (auth, mail) read the users file and reach the maildir under it.
  chmodSync(dir, 0o755);
  const port = await freePort();
  const me = currentUser();
  const user = "support";
  const password = "app-password-1";
  writeFileSync(join(dir, "users"), `${user}:{PLAIN}${password}:${me.uid}:${me.gid}::${dir}/home/${user}\n`);
  writeFileSync(
    join(dir, "dovecot.conf"),
    [
      "protocols = imap",
      `listen = 127.0.0.1`,
      `base_dir = ${dir}/run`,
      `state_dir = ${dir}/state`,
      // Its log on stderr: the master says "starting up" once its listeners are bound (the readiness signal).
      "log_path = /dev/stderr",
      `default_internal_user = ${me.internal}`,
      `default_internal_group = ${me.internalGroup}`,
      `default_login_user = ${me.login}`,
      "first_valid_uid = 0",
      "ssl = no",
      "disable_plaintext_auth = no",
      "auth_mechanisms = plain login",
      // A refused login answers at once and costs later logins nothing: Dovecot's two-second failure
      // delay and its per-address penalty (below: up to 15 s for every login from 127.0.0.1) only slowed
      // the tests, past their time limit on a slow run.
      "auth_failure_delay = 0",
      `mail_location = maildir:${dir}/mail/%u`,
      `passdb {\n  driver = passwd-file\n  args = ${dir}/users\n}`,
      `userdb {\n  driver = passwd-file\n  args = ${dir}/users\n}`,
      `service imap-login {\n  inet_listener imap {\n    address = 127.0.0.1\n    port = ${port}\n  }\n  inet_listener imaps {\n    port = 0\n  }\n}`,
      "service anvil {\n  chroot =\n  unix_listener anvil-auth-penalty {\n    mode = 0\n  }\n}",
      "service imap-login {\n  chroot =\n}",
      "",
    ].join("\n"),
  );
  // The mail processes run as the mail user: it must own its home and maildir.
  mkdirSync(join(dir, "home"), { recursive: true });
  mkdirSync(join(dir, "mail"), { recursive: true });
  chownSync(join(dir, "home"), me.uid, me.gid);
  chownSync(join(dir, "mail"), me.uid, me.gid);
  const proc = Bun.spawn([BINARY, "-F", "-c", join(dir, "dovecot.conf")], { stdout: "ignore", stderr: "pipe" });
  const log = await startupLog(proc.stderr);
  if (!log.includes("starting up") || !(await answers(port)))
    throw new Error(`dovecot did not start (exit code ${proc.exitCode}): ${log}`);
  return {
    host: "127.0.0.1",
    port,
    user,
    password,
    async stop() {
      proc.kill("SIGTERM");
      await proc.exited;
      if (!process.env.KEEP_DOVECOT) rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * Who Dovecot's processes run as. As an ordinary user: that user throughout. As root (CI): Dovecot
 * refuses root for its login and mail processes, so the users its package made (dovecot, dovenull).
 */
function currentUser(): { internal: string; internalGroup: string; login: string; uid: number; gid: number } {
  const id = (...args: string[]) => new TextDecoder().decode(Bun.spawnSync(["id", ...args]).stdout).trim();
  if (id("-u") !== "0") {
    const name = id("-un");
    return { internal: name, internalGroup: id("-gn"), login: name, uid: Number(id("-u")), gid: Number(id("-g")) };
  }
  return {
    internal: "dovecot",
    internalGroup: id("-gn", "dovecot"),
    login: "dovenull",
    uid: Number(id("-u", "dovecot")),
    gid: Number(id("-g", "dovecot")),
  };
}
