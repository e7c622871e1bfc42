// Browser sign-in for HTTP tests: give a user a password, sign in, and carry the cookie and CSRF token.
import type { Harness, TestResponse } from "./harness.ts";

export const PASSWORD = "correct horse battery";

export interface BrowserSession {
  /** The Cookie header value to send back. */
  cookie: string;
  csrf: string;
  response: TestResponse;
}

export async function givePassword(h: Harness, userId: number, password = PASSWORD): Promise<void> {
  await h.deps.services.passwords.set(userId, password);
}

/** Signs in through POST /auth/sign_in; throws unless it answered 200. */
export async function signIn(
  h: Harness,
  email: string,
  password = PASSWORD,
  headers: Record<string, string> = {},
): Promise<BrowserSession> {
  const response = await h.request("POST", "/auth/sign_in", { body: { email, password }, headers });
  if (response.status !== 200) throw new Error(`sign-in failed: ${response.status} ${response.text}`);
  return { cookie: cookieOf(response), csrf: response.body.csrf_token, response };
}

/** `name=value` of the response's Set-Cookie. */
export function cookieOf(response: TestResponse): string {
  return (response.headers.get("set-cookie") ?? "").split(";")[0]!;
}
