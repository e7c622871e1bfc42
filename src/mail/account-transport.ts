// A connection to the installation's own SMTP server (PARLEY_SMTP_URL), for the mail Parley sends its
// users: password-reset links, invitations, notifications. Made per send, as the email inboxes'
// transports are: mail to agents is rare enough that a kept connection would mostly sit idle.
import type { AccountMailConfig } from "../config-mail.ts";

export async function accountTransport(c: AccountMailConfig) {
  // Loaded on first use, as for the email inboxes (src/mail/smtp-sender.ts).
  const nodemailer = (await import("nodemailer")).default;
  return nodemailer.createTransport({
    host: c.host,
    port: c.port,
    secure: c.secure,
    ...(c.user ? { auth: { user: c.user, pass: c.password ?? "" } } : {}),
    tls: { servername: c.host },
    connectionTimeout: 15_000,
    greetingTimeout: 15_000,
    socketTimeout: 60_000,
  });
}
