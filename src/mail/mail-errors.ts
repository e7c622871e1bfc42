// What went wrong talking to a mail server, in words an administrator can act on (shown on the
// inbox as last_error and by "test connection"), and whether an SMTP failure is worth retrying.

interface MailError {
  code?: string;
  responseCode?: number;
  response?: string;
  authenticationFailed?: boolean;
  serverResponseCode?: string;
  responseText?: string;
  message?: string;
}

export function describeMailError(error: unknown, server: string): string {
  const e = (typeof error === "object" && error !== null ? error : { message: String(error) }) as MailError;
  // nodemailer wraps socket errors (code ESOCKET, the cause in the message): look at both.
  const text = `${e.code ?? ""} ${e.message ?? ""}`;
  const code = /ECONNREFUSED|ENOTFOUND|EAI_AGAIN|ETIMEDOUT|ECONNRESET/.exec(text)?.[0] ?? e.code ?? "";
  if (
    e.authenticationFailed ||
    code === "EAUTH" ||
    e.responseCode === 535 ||
    e.serverResponseCode === "AUTHENTICATIONFAILED"
  )
    return `${server} refused the login and password${e.responseText || e.response ? `: ${e.responseText ?? e.response}` : ""}`;
  if (code === "ECONNREFUSED") return `${server} refused the connection (is the port right, and the server running?)`;
  if (code === "ENOTFOUND" || code === "EAI_AGAIN") return `${server}: no such host`;
  if (code === "ETIMEDOUT" || code === "ETIMEOUT" || code === "ConnectionTimeout")
    return `${server} did not answer in time`;
  if (code === "ECONNRESET" || code === "ClosedAfterConnectText" || code === "NoConnection")
    return `${server} closed the connection`;
  if (/certificate|self.signed|tls|ssl/i.test(`${code} ${e.message ?? ""}`))
    return `${server}: secure connection failed (${e.message ?? code}); check the TLS settings and the certificate`;
  // imapflow: "Command failed", with the server's own words in responseText (a missing folder…).
  // Dovecot appends its timings ("(0.001 + 0.000 secs).") and a trace tag ("[vm:…]"): not the admin's business.
  if (e.responseText)
    return `${server}: ${e.responseText.replace(/\s*\[[^\]]*\]\s*$/, "").replace(/\s*\([\d.+ ]*secs\)\.?$/, "")}`;
  if (e.responseCode) return `${server} answered ${e.responseCode}: ${e.response ?? e.message ?? ""}`.trim();
  return `${server}: ${e.message ?? (code || "unknown error")}`;
}

/** SMTP: a 5xx answer (a refused address, a refused login) will not change by waiting. */
export function isPermanentSmtpFailure(error: unknown): boolean {
  const e = (typeof error === "object" && error !== null ? error : {}) as MailError;
  return (typeof e.responseCode === "number" && e.responseCode >= 500 && e.responseCode < 600) || e.code === "EAUTH";
}

/**
 * What a failed SMTP send of a queued mail leads to: give up (the server refused it for good, or
 * this was the last allowed attempt) or try again at `retryAt`. `attempts` counts the one that just
 * failed.
 */
export function afterFailedSend(
  error: unknown,
  server: string,
  attempts: number,
  now: number,
): { reason: string; retryAt: number | null } {
  const reason = describeMailError(error, server);
  if (isPermanentSmtpFailure(error) || attempts >= MAX_SEND_ATTEMPTS) return { reason, retryAt: null };
  return { reason, retryAt: now + retryDelaySeconds(attempts) };
}

export const MAX_SEND_ATTEMPTS = 10;

/** 30 s, 1, 2, 4 … minutes, at most an hour. */
export function retryDelaySeconds(attempts: number): number {
  return Math.min(3600, 30 * 2 ** Math.max(0, attempts - 1));
}
