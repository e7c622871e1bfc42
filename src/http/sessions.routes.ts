// Browser sign-in for the web app, in Chatwoot's shape where it has one: POST /auth/sign_in answers
// {data: <user>} like devise_token_auth, but the credential is an httpOnly session cookie (never
// readable by scripts) and `access_token` is null (API tokens are stored hashed; see `parley token`).
import { whenReady } from "../lib/when-ready.ts";
import { Elysia, t } from "elysia";
import { profileOf } from "../domain/presenters/user.presenter.ts";
import type { Deps } from "../deps.ts";
import type { SignedIn } from "../domain/sessions.service.ts";
import { csrfTokenFor } from "../lib/tokens.ts";
import { sessionScope } from "./auth.ts";
import { clearedSessionCookie, clientIp, isHttps, refuseCrossSite, sessionCookie, sessionTokenOf } from "./browser.ts";
import { bodyOf } from "./request.ts";
import { errorResponses, Integer, Profile } from "./schemas.ts";

const SignIn = t.Object({
  email: t.String({ maxLength: 254 }),
  password: t.String({ maxLength: 256 }),
});

export const Session = t.Object({
  data: Profile,
  csrf_token: t.String({
    description: "send it as X-CSRF-Token on every non-GET request authenticated by the session cookie",
  }),
  expires_at: Integer({ description: "Unix seconds; each use moves it forward" }),
});

/**
 * The signed-in user as the web app reads it (read again: a sign-in may have just changed it). On
 * PostgreSQL read on the read pool, awaited: the session's body has committed by then.
 */
function profile(d: Deps, userId: number) {
  return whenReady(d.services.accounts.userWithAccountsSoon(userId), ({ user, accounts }) =>
    profileOf(user, accounts, null, (accountId) => d.realtime.presence.isOnline(accountId, userId)),
  );
}

/** What a new browser session answers (sign-in, a used password-reset link): the cookie and `Session`. */
export function startedSession(
  d: Deps,
  s: SignedIn,
  request: Request,
  headers: Record<string, string | undefined>,
  set: { headers: Record<string, unknown> },
) {
  set.headers["set-cookie"] = sessionCookie(s.token, isHttps(request, headers, d.config.trustProxy));
  set.headers["cache-control"] = "no-store";
  return whenReady(profile(d, s.user.id), (data) => ({ data, csrf_token: s.csrfToken, expires_at: s.expiresAt }));
}

export function sessionRoutes(d: Deps) {
  const { sessions, auth } = d.services;
  const trustProxy = d.config.trustProxy;
  return new Elysia({ prefix: "/auth" })
    .post(
      "/sign_in",
      async ({ body, headers, request, server, set }) => {
        refuseCrossSite(headers);
        const ip = clientIp(request, headers, server, trustProxy);
        const userAgent = headers["user-agent"] ?? null;
        const s = await sessions.signIn({ ...body, ip, userAgent, replacing: sessionTokenOf(headers) });
        return startedSession(d, s, request, headers, set);
      },
      {
        ...bodyOf(SignIn),
        response: { 200: Session, ...errorResponses },
        detail: { tags: ["auth"], summary: "Sign in with email and password; sets the session cookie", security: [] },
      },
    )
    .use(sessionScope(auth))
    .get(
      "/session",
      ({ caller, headers, set }) => {
        set.headers["cache-control"] = "no-store";
        return whenReady(profile(d, caller.user.id), (data) => ({
          data,
          csrf_token: csrfTokenFor(sessionTokenOf(headers)!),
          expires_at: caller.session!.expires_at,
        }));
      },
      {
        response: { 200: Session, 401: errorResponses[401] },
        detail: {
          tags: ["auth"],
          summary: "The signed-in user and the session's CSRF token (session cookie only)",
          security: [],
        },
      },
    )
    .delete(
      "/sign_out",
      async ({ caller, headers, request, set }) => {
        await sessions.signOut(caller.session!.id);
        set.headers["set-cookie"] = clearedSessionCookie(isHttps(request, headers, trustProxy));
        return { success: true };
      },
      {
        response: { 200: t.Object({ success: t.Boolean() }), 401: errorResponses[401], 403: errorResponses[403] },
        detail: { tags: ["auth"], summary: "End the browser session (needs X-CSRF-Token)", security: [] },
      },
    )
    .delete(
      "/sessions",
      async ({ caller, headers, request, set }) => {
        const ended = await d.services.credentials.signOutEverywhere(caller.user.id);
        set.headers["set-cookie"] = clearedSessionCookie(isHttps(request, headers, trustProxy));
        return { success: true, sessions_ended: ended };
      },
      {
        response: {
          200: t.Object({ success: t.Boolean(), sessions_ended: Integer() }),
          401: errorResponses[401],
          403: errorResponses[403],
        },
        detail: {
          tags: ["auth"],
          summary:
            "Sign out everywhere: end every browser session of the user and close their realtime sockets (needs X-CSRF-Token)",
          security: [],
        },
      },
    );
}
