// A real IMAP server for the mail tests: Debian's Dovecot, started on 127.0.0.1 with a throwaway
// config, maildir and user, no TLS. Without Dovecot installed the IMAP tests say so and skip
// (CI installs dovecot-imapd, so they run there).
import { chmodSync, chownSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createServer } from "node:net";

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

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once("error", reject);
    s.listen(0, "127.0.0.1", () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}

/** Whether something accepts connections on the port (Dovecot forks its listener after start). */
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
      `log_path = ${dir}/dovecot.log`,
      `default_internal_user = ${me.internal}`,
      `default_internal_group = ${me.internalGroup}`,
      `default_login_user = ${me.login}`,
      "first_valid_uid = 0",
      "ssl = no",
      "disable_plaintext_auth = no",
      "auth_mechanisms = plain login",
      `mail_location = maildir:${dir}/mail/%u`,
      `passdb {\n  driver = passwd-file\n  args = ${dir}/users\n}`,
      `userdb {\n  driver = passwd-file\n  args = ${dir}/users\n}`,
      `service imap-login {\n  inet_listener imap {\n    address = 127.0.0.1\n    port = ${port}\n  }\n  inet_listener imaps {\n    port = 0\n  }\n}`,
      "service anvil {\n  chroot =\n}",
      "service imap-login {\n  chroot =\n}",
      "",
    ].join("\n"),
  );
  // The mail processes run as the mail user: it must own its home and maildir.
  mkdirSync(join(dir, "home"), { recursive: true });
  mkdirSync(join(dir, "mail"), { recursive: true });
  chownSync(join(dir, "home"), me.uid, me.gid);
  chownSync(join(dir, "mail"), me.uid, me.gid);
  const proc = Bun.spawn([BINARY, "-F", "-c", join(dir, "dovecot.conf")], { stdout: "pipe", stderr: "pipe" });
  // Poll the port: Dovecot reports no readiness signal of its own on stdout.
  for (let i = 0; i < 500 && !(await answers(port)); i++) {
    if (proc.exitCode !== null) {
      const log = existsSync(join(dir, "dovecot.log")) ? await Bun.file(join(dir, "dovecot.log")).text() : "";
      throw new Error(`dovecot exited ${proc.exitCode}: ${await new Response(proc.stderr).text()} ${log}`);
    }
    await Bun.sleep(10);
  }
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
