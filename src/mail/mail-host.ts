// The address a mail server is reached at, checked like a webhook target: loopback, private and
// link-local addresses are refused unless the operator allows them (PARLEY_ALLOW_PRIVATE_MAIL_HOSTS),
// so an account administrator cannot point Parley at services inside the server's network. The
// connection then goes to the checked address (with the name kept for TLS), not a second lookup.
import { lookup } from "node:dns/promises";
import { isAllowedAddress, parseIp } from "../lib/ip-ranges.ts";

export class MailHostError extends Error {
  code = "EHOSTBLOCKED";
}

export async function resolveMailHost(host: string, allowPrivate: boolean): Promise<string> {
  const bare = host.replace(/^\[|\]$/g, "");
  const address = parseIp(bare) ? bare : (await lookup(bare)).address;
  if (!isAllowedAddress(address, { allowPrivate }))
    throw new MailHostError(
      `${host} is a private or local address (${address}); set PARLEY_ALLOW_PRIVATE_MAIL_HOSTS=1 to allow it`,
    );
  return address;
}
