// The address a mail server is reached at, checked like a webhook target (src/lib/ssrf.ts): loopback,
// private and link-local addresses are refused unless the operator allows them
// (PARLEY_ALLOW_PRIVATE_MAIL_HOSTS), so an account administrator cannot point Parley at services inside
// the server's network. The connection then goes to the checked address (with the name kept for TLS),
// not a second lookup.
import { BlockedTargetError, resolveHost } from "../lib/ssrf.ts";

export class MailHostError extends Error {
  code = "EHOSTBLOCKED";
}

export async function resolveMailHost(host: string, allowPrivate: boolean): Promise<string> {
  try {
    return (await resolveHost(host, { allowPrivate })).address;
  } catch (error) {
    if (!(error instanceof BlockedTargetError)) throw error;
    throw new MailHostError(
      `${host} is a private or local address (${error.address}); set PARLEY_ALLOW_PRIVATE_MAIL_HOSTS=1 to allow it`,
    );
  }
}
