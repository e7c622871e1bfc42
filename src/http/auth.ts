// Authentication for the account API. `accountScope` resolves the caller and the account from the
// `api_access_token` header or the web app's session cookie (plus the X-CSRF-Token header on
// changes) and the `:account_id` path parameter before the body is validated, so a caller who may
// not be here learns nothing from validation errors. `admin: true` on a route refuses
// non-administrators with 403, also before validation.
import { Elysia } from "elysia";
import { requireAdministrator, type AccountPrincipal, type AuthService } from "../domain/auth.service.ts";
import { credentialsOf } from "./browser.ts";

type Headers = Record<string, string | undefined>;

function callerOf(auth: AuthService, headers: Headers, params: unknown, request: Request) {
  const accountId = (params as Record<string, string | undefined>).account_id;
  const route = { method: request.method, path: new URL(request.url).pathname };
  return auth.accountCallerSoon(credentialsOf(headers, request.method), accountId, route);
}

export function accountScope(auth: AuthService) {
  // Elysia awaits a derive only if it is an async function (it reads the source). On PostgreSQL the
  // caller's lookup is awaited; on SQLite it answers in place and the derive stays synchronous,
  // since a promise per request costs SQLite's requests a measurable share (src/db/reads.ts). Both
  // name the context's parts they use: Elysia reads that from the source too, and a context passed
  // whole makes it prepare every part of every request (the query, the cookies).
  const derive = auth.callersAwait
    ? async ({ headers, params, request }: { headers: Headers; params: unknown; request: Request }) => ({
        principal: await callerOf(auth, headers, params, request),
      })
    : ({ headers, params, request }: { headers: Headers; params: unknown; request: Request }) => ({
        principal: callerOf(auth, headers, params, request) as AccountPrincipal,
      });
  return new Elysia().derive({ as: "scoped" }, derive).macro({
    admin: {
      // An arrow, as bodyOf's transform (src/http/request.ts) explains.
      transform: (ctx: { principal?: AccountPrincipal }) => {
        requireAdministrator(ctx.principal!);
      },
    },
  });
}

/** Routes outside an account (GET /api/v1/profile): the token's or the session's user. */
export function userScope(auth: AuthService) {
  // Awaited on PostgreSQL, in place on SQLite, as accountScope's.
  const derive = auth.callersAwait
    ? async ({ headers, request }: { headers: Headers; request: Request }) => ({
        caller: await auth.callerSoon(credentialsOf(headers, request.method)),
      })
    : ({ headers, request }: { headers: Headers; request: Request }) => ({
        caller: auth.caller(credentialsOf(headers, request.method)),
      });
  return new Elysia().derive({ as: "scoped" }, derive);
}

/** Routes about the browser session itself (/auth/session, /auth/sign_out): the cookie only. */
export function sessionScope(auth: AuthService) {
  const cookieOnly = (headers: Headers, method: string) => ({ ...credentialsOf(headers, method), apiToken: null });
  // Awaited on PostgreSQL, in place on SQLite, as userScope's.
  const derive = auth.callersAwait
    ? async ({ headers, request }: { headers: Headers; request: Request }) => ({
        caller: await auth.callerSoon(cookieOnly(headers, request.method)),
      })
    : ({ headers, request }: { headers: Headers; request: Request }) => ({
        caller: auth.caller(cookieOnly(headers, request.method)),
      });
  return new Elysia().derive({ as: "scoped" }, derive);
}
