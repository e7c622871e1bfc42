// The one place errors become responses. Every error, whatever raised it, leaves in the spec's
// envelope {description, errors[{field, message, code}]} plus Chatwoot's `error` key (docs/compatibility.md #3).
import type { TSchema } from "@sinclair/typebox";
import { Value } from "@sinclair/typebox/value";
import { Elysia } from "elysia";
import { AppError, type FieldError } from "../domain/errors.ts";
import { errorFields, type Logger } from "../lib/logger.ts";

export function errorBody(description: string, errors: FieldError[], extra: Record<string, unknown> = {}): string {
  return JSON.stringify({ description, error: description, errors, ...extra });
}

export function errorResponse(
  status: number,
  description: string,
  errors: FieldError[],
  headers: Record<string, string> = {},
  extra?: Record<string, unknown>,
): Response {
  return new Response(errorBody(description, errors, extra), {
    status,
    headers: { "content-type": "application/json; charset=utf-8", ...headers },
  });
}

interface TypeBoxIssue {
  path?: string;
  message?: string;
  summary?: string;
  type?: number;
}

interface ElysiaValidationError {
  all?: TypeBoxIssue[];
  type?: string;
  value?: unknown;
  validator?: { schema?: TSchema; Schema?: () => TSchema };
}

/** Every issue of the value against the route's schema (Elysia's compiled checker misses some, e.g. a string given for a record). */
function issuesOf(error: ElysiaValidationError): TypeBoxIssue[] {
  const v = error.validator;
  const schema = v?.schema ?? (typeof v?.Schema === "function" ? v.Schema() : undefined);
  if (schema && typeof schema === "object" && "type" in schema) {
    try {
      return [...Value.Errors(schema, error.value)].map((e) => ({ path: e.path, message: e.message }));
    } catch {
      /* fall back to Elysia's list */
    }
  }
  return error.all ?? [];
}

/** Turns Elysia's validation failure into one item per bad field, named like `contact.email`. */
export function validationItems(error: ElysiaValidationError): FieldError[] {
  const seen = new Set<string>();
  const items: FieldError[] = [];
  for (const issue of issuesOf(error)) {
    const field = (issue.path ?? "").replace(/^\//, "").replace(/\//g, ".") || error.type || "body";
    if (seen.has(field)) continue;
    seen.add(field);
    const message = issue.message ?? issue.summary ?? "is invalid";
    const code = /required/i.test(message) ? "required" : "invalid";
    items.push({ field, message, code });
  }
  return items.length ? items : [{ field: error.type ?? "body", message: "is invalid", code: "invalid" }];
}

/** A group's commit was refused (a deferred constraint, a lost race): nothing of the change stays; try again. */
export function commitFailedResponse(): Response {
  return errorResponse(
    503,
    "The change could not be saved",
    [{ field: "database", message: "commit failed; try again", code: "unavailable" }],
    { "retry-after": "1" },
  );
}

export function errorHandling(logger: Logger) {
  return new Elysia({ name: "parley-errors" })
    .onRequest(({ set }) => {
      set.headers["x-request-id"] = crypto.randomUUID();
    })
    .onError({ as: "global" }, ({ code, error, set, request, path }) => {
      // Errors thrown by our body parser arrive wrapped in Elysia's ParseError: unwrap them.
      const cause = (error as { cause?: unknown }).cause;
      const app = error instanceof AppError ? error : cause instanceof AppError ? cause : null;
      if (app) return errorResponse(app.status, app.description, app.errors, app.headers, app.extra);
      const requestId = String(set.headers["x-request-id"] ?? crypto.randomUUID());
      // An awaited body's group whose COMMIT PostgreSQL refused (src/db/awaited-writes.ts): as SQLite's (commit-wait.ts).
      if ((error as { commitRefused?: unknown }).commitRefused === true) {
        logger.error("group commit failed", { request_id: requestId, path, ...errorFields(error) });
        return commitFailedResponse();
      }
      // PostgreSQL out of reach for a moment (restarted, failed over): the next request reconnects.
      // Or a statement past its deadline (PARLEY_DB_TIMEOUT_MS): the next may find the lock let go.
      if ((error as { databaseUnavailable?: unknown }).databaseUnavailable === true) {
        logger.warn("database unavailable", { request_id: requestId, path, ...errorFields(error) });
        const { code: sqlState, message: text } = error as { code?: unknown; message?: unknown };
        const late = sqlState === "57014" || /did not answer/.test(String(text));
        const message = late
          ? "the database did not answer in time; try again"
          : "the connection to the database was lost; try again";
        return errorResponse(
          503,
          "The database is unavailable",
          [{ field: "database", message, code: "unavailable" }],
          { "retry-after": "1", "x-request-id": requestId },
        );
      }
      switch (code) {
        case "VALIDATION": {
          const v = error as unknown as ElysiaValidationError;
          if (v.type === "response") break; // our own output failed its schema: a bug, reported as 500 below
          return errorResponse(422, "Validation failed", validationItems(v));
        }
        case "NOT_FOUND":
          return errorResponse(404, "Route not found", [
            { field: "path", message: `no route ${request.method} ${path}`, code: "not_found" },
          ]);
        case "PARSE":
          return errorResponse(400, "Malformed request body", [
            { field: "body", message: "could not be parsed", code: "malformed" },
          ]);
        case "INVALID_COOKIE_SIGNATURE":
          return errorResponse(401, "Invalid session", [
            { field: "cookie", message: "signature does not match", code: "unauthorized" },
          ]);
      }
      logger.error("unhandled error", {
        request_id: requestId,
        method: request.method,
        path,
        code: String(code),
        ...errorFields(error),
      });
      return errorResponse(
        500,
        "Internal server error",
        [{ field: "request_id", message: `reference ${requestId}`, code: "internal" }],
        {
          "x-request-id": requestId,
        },
      );
    });
}
