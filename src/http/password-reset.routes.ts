// "Forgot your password?" in Chatwoot's shape (Devise's passwords controller): POST /auth/password
// asks for a link by mail, PUT /auth/password sets the new password with the link's token. The web
// app's page at /app/auth/password/edit and the mobile app's "Forgot password" screen call these.
// Using a link signs the browser in, as Chatwoot does: the answer is the sign-in's.
import { Elysia, t } from "elysia";
import type { Deps } from "../deps.ts";
import { clientIp, refuseCrossSite, sessionTokenOf } from "./browser.ts";
import { bodyOf } from "./request.ts";
import { Checked, errorResponses } from "./schemas.ts";
import { Session, startedSession } from "./sessions.routes.ts";

const tags = ["auth"];

const ResetRequest = t.Object({
  email: t.Optional(Checked(t.String({ format: "email", description: "the address the user signs in with" }))),
});

const ResetBody = t.Object({
  reset_password_token: t.Optional(Checked(t.String({ description: "the token of the mailed link" }))),
  password: t.Optional(Checked(t.String({ minLength: 8, maxLength: 256 }))),
  password_confirmation: t.Optional(Checked(t.String({ description: "if given, must equal password" }))),
});

export function passwordResetRoutes(d: Deps) {
  const { passwordResets, sessions } = d.services;
  return new Elysia({ prefix: "/auth" })
    .post(
      "/password",
      async ({ body, headers, request, server }) =>
        await passwordResets.request(body.email, clientIp(request, headers, server, d.config.trustProxy)),
      {
        ...bodyOf(ResetRequest),
        response: { 200: t.Object({ message: t.String() }), ...errorResponses },
        detail: {
          tags,
          security: [],
          summary:
            "Mail a password-reset link to the user with this address; the same answer whether or not there is one (503 when no mail server is configured; 429 past 5 requests per 30 minutes from one address or 5 an hour for one email)",
        },
      },
    )
    .put(
      "/password",
      async ({ body, headers, request, server, set }) => {
        refuseCrossSite(headers);
        const user = await passwordResets.complete(body);
        const s = await sessions.open(user, {
          ip: clientIp(request, headers, server, d.config.trustProxy),
          userAgent: headers["user-agent"] ?? null,
          replacing: sessionTokenOf(headers),
        });
        return startedSession(d, s, request, headers, set);
      },
      {
        ...bodyOf(ResetBody),
        response: {
          200: Session,
          ...errorResponses,
        },
        detail: {
          tags,
          security: [],
          summary:
            "Set a new password with a mailed link's token (once, within six hours); ends the user's other browser sessions and signs this one in",
        },
      },
    );
}
