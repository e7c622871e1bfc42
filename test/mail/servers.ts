// The two mail servers of the mail tests, started once per test file: Dovecot (IMAP) and a
// recording SMTP server; and the inbox settings that point an email inbox at them.
import { afterAll, beforeAll } from "bun:test";
import { dovecotInstalled, startDovecot, type Dovecot } from "./dovecot.ts";
import { startSmtpRecorder, type SmtpRecorder } from "./smtp-recorder.ts";

export interface MailServers {
  dovecot: Dovecot;
  smtp: SmtpRecorder;
}

/** Starts both before the file's tests (when Dovecot is installed) and stops them after. */
export function mailServers(): MailServers {
  const servers = {} as MailServers;
  beforeAll(async () => {
    if (!dovecotInstalled) return;
    servers.dovecot = await startDovecot();
    servers.smtp = await startSmtpRecorder();
  });
  afterAll(async () => {
    await servers.dovecot?.stop();
    await servers.smtp?.close();
  });
  return servers;
}

/** An email inbox's `channel` reading `dovecot` (no TLS) and, when given, sending through `smtp`. */
export function emailChannel(
  dovecot: Dovecot,
  smtp: { port: number; user: string; password: string } | null,
  over: Record<string, unknown> = {},
) {
  return {
    type: "email",
    email: "support@acme.test",
    imap_enabled: true,
    imap_address: "127.0.0.1",
    imap_port: dovecot.port,
    imap_login: dovecot.user,
    imap_password: dovecot.password,
    imap_enable_ssl: false,
    ...(smtp
      ? {
          smtp_enabled: true,
          smtp_address: "127.0.0.1",
          smtp_port: smtp.port,
          smtp_login: smtp.user,
          smtp_password: smtp.password,
          smtp_enable_starttls_auto: false,
        }
      : {}),
    ...over,
  };
}
