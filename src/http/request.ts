// The shared request layer: every route gets Chatwoot-style body and query handling from here.
import type { TSchema } from "@sinclair/typebox";
import { Elysia } from "elysia";
import { unlink } from "node:fs/promises";
import { UnauthorizedError } from "../domain/errors.ts";
import { type BodyLimits, fromEntries, readBody, refuseNul, shapeBody } from "./body.ts";
import { sessionTokenOf } from "./browser.ts";
import { withQueryParameters } from "./rails-conventions.ts";

/** Uploaded files still in the spool when their request ends (kept files were moved away). */
const spooledBy = new WeakMap<Request, string[]>();

/**
 * Bodies are parsed before routes authenticate, and a multipart body's files go to disk as they
 * arrive: a request that carries no credential at all is refused before a byte is spooled (it would
 * be a 401 anyway). The public API and the website chat authenticate contacts by their route, so
 * they may upload without a token.
 */
function mayUpload(request: Request): boolean {
  const path = new URL(request.url).pathname;
  if (path.startsWith("/public/api/") || path.startsWith("/api/v1/widget/")) return true;
  const h = request.headers;
  if (h.get("api_access_token") || h.get("api-access-token")) return true;
  return sessionTokenOf({ cookie: h.get("cookie") ?? undefined }) !== null;
}

/** Global body parser with the configured size limits (413 in the error envelope, not Bun's bare 413). */
export function requestParsing(limits: BodyLimits) {
  return new Elysia({ name: "parley-request" })
    .onParse({ as: "global" }, async ({ request, contentType }) => {
      if (request.method === "GET" || request.method === "HEAD") return;
      const type = request.headers.get("content-type") ?? contentType ?? "";
      if (type.toLowerCase().startsWith("multipart/") && !mayUpload(request)) throw new UnauthorizedError();
      const track = (path: string) => {
        const list = spooledBy.get(request);
        if (list) list.push(path);
        else spooledBy.set(request, [path]);
      };
      return withQueryParameters(request, await readBody(request, type, limits, track));
    })
    .onAfterResponse({ as: "global" }, ({ request }) => {
      const paths = spooledBy.get(request);
      if (!paths) return;
      spooledBy.delete(request);
      for (const path of paths) unlink(path).catch(() => {});
    })
    .onTransform({ as: "global" }, ({ params }) => {
      // As in bodies: no client means a NUL, and PostgreSQL's text cannot hold one, so a path
      // segment with one (an inbox identifier, a contact's source id) is refused by its name.
      refuseNul(params ?? {});
    })
    .onTransform({ as: "global" }, ({ request, query }) => {
      // Elysia keeps only the last of repeated `labels[]=a&labels[]=b`; re-read such queries with Rails' rules.
      const url = request.url;
      const q = url.indexOf("?");
      if (q < 0 || (!url.includes("%5B", q) && !url.includes("[", q))) return;
      const parsed = fromEntries(new URLSearchParams(url.slice(q + 1)).entries());
      for (const key of Object.keys(query)) delete (query as Record<string, unknown>)[key];
      Object.assign(query, parsed);
    });
}

/**
 * Route options for a body: the schema (validation + OpenAPI) and a transform that first lifts
 * fields nested under `resourceKey` and coerces form strings, so every route reads bodies alike.
 */
export function bodyOf<S extends TSchema>(schema: S, resourceKey?: string) {
  return {
    body: schema,
    // An arrow, not a method: Elysia reads a hook's source to see what it uses, and the method form,
    // once minified in the binary, made it print a warning on the first request of every route.
    transform: (ctx: { body: unknown }) => {
      ctx.body = shapeBody(ctx.body, schema, resourceKey);
    },
  };
}
