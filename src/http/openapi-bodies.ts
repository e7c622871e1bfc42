// The OpenAPI document's request bodies. @elysiajs/openapi lists a body's media types from a route's
// parsers, and ours is one global function (src/http/request.ts: JSON, url-encoded and multipart
// alike, Rails-style), which it cannot read: every body came out as `content: {}`. This fills each
// such body with the route's own schema under the three media types the parser accepts.
import { Elysia } from "elysia";
import { DOCUMENTED } from "./schemas.ts";

interface RouteLike {
  method: string;
  path: string;
  hooks?: { body?: unknown };
}

interface Operation {
  parameters?: { schema?: unknown }[];
  requestBody?: { content?: Record<string, unknown> };
  responses?: Record<string, { description?: string; content?: Record<string, unknown> }>;
}

type Doc = { paths?: Record<string, Record<string, Operation>> };

const MEDIA = ["application/json", "application/x-www-form-urlencoded", "multipart/form-data"] as const;

/**
 * A response declared empty (`t.Null()`, `t.Void()`) comes out as `content: {type: "null"}`, which
 * is no media-type map: such a response has a description and no content.
 */
function repairEmptyResponses(doc: Doc): void {
  for (const ops of Object.values(doc.paths ?? {})) {
    for (const op of Object.values(ops)) {
      for (const [status, r] of Object.entries(op.responses ?? {})) {
        if (r.content && typeof r.content.type === "string")
          op.responses![status] = { description: r.description ?? "No content" };
      }
    }
  }
}

/** A plain JSON schema with every `Checked` field replaced by the schema it documents. */
function published(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(published);
  if (node === null || typeof node !== "object") return node;
  const obj = node as Record<string, unknown>;
  if (DOCUMENTED in obj) return published(obj[DOCUMENTED]);
  return Object.fromEntries(Object.entries(obj).map(([k, v]) => [k, published(v)]));
}

/** Parameters and responses carry `Checked` fields too (query parameters the service reads itself). */
function publishDocumented(doc: Doc): void {
  for (const ops of Object.values(doc.paths ?? {})) {
    for (const op of Object.values(ops)) {
      for (const p of op.parameters ?? []) if (p.schema) p.schema = published(p.schema);
      for (const r of Object.values(op.responses ?? {}))
        for (const c of Object.values(r.content ?? {}) as { schema?: unknown }[])
          if (c.schema) c.schema = published(c.schema);
    }
  }
}

export function fillRequestBodies(doc: Doc, routes: readonly RouteLike[]): Doc {
  repairEmptyResponses(doc);
  publishDocumented(doc);
  for (const route of routes) {
    const schema = route.hooks?.body;
    if (!schema) continue;
    const op = doc.paths?.[route.path.replace(/:([^/]+)/g, "{$1}")]?.[route.method.toLowerCase()];
    if (!op?.requestBody || Object.keys(op.requestBody.content ?? {}).length > 0) continue;
    // JSON round trip: the document must hold plain JSON Schema, not TypeBox's symbol-keyed objects.
    const plain = published(JSON.parse(JSON.stringify(schema)));
    op.requestBody.content = Object.fromEntries(MEDIA.map((m) => [m, { schema: plain }]));
  }
  return doc;
}

/** Patches the served document (once per document object; the plugin caches it). */
export function openapiRequestBodies(holder: { app?: { routes: RouteLike[] } }, path = "/openapi/json") {
  const done = new WeakSet<object>();
  return new Elysia({ name: "parley-openapi-bodies" }).onAfterHandle({ as: "global" }, ({ request, response }) => {
    if (!response || typeof response !== "object" || done.has(response) || new URL(request.url).pathname !== path)
      return;
    done.add(response);
    fillRequestBodies(response as Doc, holder.app!.routes);
  });
}
