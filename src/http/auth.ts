// Authentication for the account API. `accountScope` resolves the caller and the account from the
// `api_access_token` header or the web app's session cookie (plus the X-CSRF-Token header on
// changes) and the `:account_id` path parameter before the body is validated, so a caller who may
// not be here learns nothing from validation errors. `admin: true` on a route refuses
// non-administrators with 403, also before validation.
import { Elysia } from "elysia";
import { requireAdministrator, type AccountPrincipal, type AuthService } from "../domain/auth.service.ts";
import { credentialsOf } from "./browser.ts";

export function accountScope(auth: AuthService) {
  return new Elysia()
    .derive({ as: "scoped" }, ({ headers, params, request }) => ({
      principal: auth.accountCaller(
        credentialsOf(headers, request.method),
        (params as Record<string, string | undefined>).account_id,
        {
          method: request.method,
          path: new URL(request.url).pathname,
        },
      ),
    }))
    .macro({
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
  return new Elysia().derive({ as: "scoped" }, ({ headers, request }) => ({
    caller: auth.caller(credentialsOf(headers, request.method)),
  }));
}

/** Routes about the browser session itself (/auth/session, /auth/sign_out): the cookie only. */
export function sessionScope(auth: AuthService) {
  return new Elysia().derive({ as: "scoped" }, ({ headers, request }) => ({
    caller: auth.caller({ ...credentialsOf(headers, request.method), apiToken: null }),
  }));
}
