// Reads request bodies the way Chatwoot's Rails does, because clients written for it rely on that:
// JSON, url-encoded and multipart bodies alike; Rails-style keys (`a[b]`, `a[]`); fields nested
// under the resource key; strings coerced to the route schema's numbers and booleans.
import type { TSchema } from "@sinclair/typebox";
import { BadRequestError, PayloadTooLargeError, ValidationError } from "../domain/errors.ts";
import { boundaryOf, isSpooledFile, MultipartError, readMultipart, type SpooledFile } from "../files/multipart.ts";

export type Body = Record<string, unknown>;

/** How large a body may be, and where uploaded files wait while the request is read. */
export interface BodyLimits {
  /** Bytes of a JSON or form body, and of a multipart body's ordinary fields. */
  body: number;
  /** Files in multipart bodies: streamed to `uploads.spoolDir`, never held in memory. */
  uploads: UploadLimits;
}

export interface UploadLimits {
  spoolDir: string;
  fileBytes: number;
  totalBytes: number;
  files: number;
}

/**
 * Reads and parses a body, enforcing the byte limit before anything is decoded. Multipart bodies
 * are streamed: their files go to the spool directory (each path reported through `spooled`, so
 * the request's end can remove what nobody kept).
 */
export async function readBody(
  request: Request,
  contentType: string,
  limits: BodyLimits,
  spooled: (path: string) => void,
): Promise<unknown> {
  const type = contentType.split(";")[0]!.trim().toLowerCase();
  const declared = Number(request.headers.get("content-length") ?? "0");
  if (type === "multipart/form-data")
    return refuseNul(await readMultipartBody(request, contentType, declared, limits, spooled));
  if (declared > limits.body) throw new PayloadTooLargeError(limits.body);
  const bytes = await request.arrayBuffer();
  if (bytes.byteLength > limits.body) throw new PayloadTooLargeError(limits.body);
  if (bytes.byteLength === 0) return {};
  const text = new TextDecoder().decode(bytes);
  if (type === "application/x-www-form-urlencoded") return refuseNul(fromEntries(new URLSearchParams(text).entries()));
  // JSON is the default: Chatwoot clients send it, sometimes without a content type.
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new BadRequestError("Malformed JSON in request body", [
      { field: "body", message: error instanceof Error ? error.message : "is not valid JSON", code: "malformed" },
    ]);
  }
  // In JSON's text a NUL can only be the escape (a raw one is a syntax error): most bodies need no walk.
  return text.includes("\\u0000") ? refuseNul(json) : json;
}

async function readMultipartBody(
  request: Request,
  contentType: string,
  declared: number,
  limits: BodyLimits,
  spooled: (path: string) => void,
): Promise<Body> {
  const u = limits.uploads;
  // Fields and files together can never exceed both limits summed (plus the parts' headers).
  const ceiling = limits.body + u.totalBytes + 64 * 1024;
  if (declared > ceiling) throw new PayloadTooLargeError(ceiling);
  const boundary = boundaryOf(contentType);
  if (!boundary) throw malformed("the Content-Type has no boundary");
  if (!request.body) return {};
  try {
    const entries = await readMultipart(
      request.body,
      boundary,
      { fields: limits.body, file: u.fileBytes, total: u.totalBytes, files: u.files },
      u.spoolDir,
      spooled,
    );
    return fromEntries(entries);
  } catch (error) {
    if (!(error instanceof MultipartError)) throw error;
    if (error.kind === "too_large") throw new PayloadTooLargeError(error.limit, error.message, "attachments");
    throw malformed(error.message);
  }
}

/**
 * A NUL character in a body's text, in a value or a key, is a 422 naming the field: no client means
 * one, and PostgreSQL's text and jsonb cannot hold one, so a stored NUL would stop `parley copy` at
 * its row. Files are bytes, not text, and are not looked at. Iterative: JSON may nest deeper than
 * the stack.
 */
export function refuseNul<T>(body: T): T {
  const stack: [unknown, string][] = [[body, ""]];
  for (let next = stack.pop(); next; next = stack.pop()) {
    const [value, field] = next;
    if (typeof value === "string") {
      if (value.includes("\0")) throw ValidationError.of(field || "body", "must not contain NUL characters", "invalid");
      continue;
    }
    if (value === null || typeof value !== "object" || isSpooledFile(value)) continue;
    for (const [key, child] of Object.entries(value)) {
      if (key.includes("\0")) throw ValidationError.of(field || "body", "must not contain NUL characters", "invalid");
      stack.push([child, field ? `${field}.${key}` : key]);
    }
  }
  return body;
}

function malformed(message: string): BadRequestError {
  return new BadRequestError("Malformed multipart body", [{ field: "body", message, code: "malformed" }]);
}

const KEY = /^([^[\]]+)((?:\[[^[\]]*\])*)$/;

/** Builds a nested object from form entries with Rails' bracket rules. A repeated plain key: last wins. */
export function fromEntries(entries: Iterable<[string, string | File | SpooledFile]>): Body {
  const out: Body = {};
  for (const [rawKey, value] of entries) {
    const m = KEY.exec(rawKey);
    if (!m) {
      out[rawKey] = value;
      continue;
    }
    const path = [m[1]!, ...[...m[2]!.matchAll(/\[([^[\]]*)\]/g)].map((x) => x[1]!)];
    assign(out, path, value);
  }
  return out;
}

function assign(target: Body, path: string[], value: unknown): void {
  let node: Record<string, unknown> | unknown[] = target;
  for (let i = 0; i < path.length; i++) {
    const key = path[i]!;
    const last = i === path.length - 1;
    const nextIsArray = !last && path[i + 1] === "";
    if (key === "" && Array.isArray(node)) {
      if (last) node.push(value);
      else {
        const child = {};
        node.push(child);
        node = child;
      }
      continue;
    }
    if (key === "__proto__" || key === "constructor" || key === "prototype") return;
    const obj = node as Record<string, unknown>;
    if (last) obj[key] = value;
    else {
      const existing = obj[key];
      const fits = nextIsArray
        ? Array.isArray(existing)
        : existing !== null && typeof existing === "object" && !Array.isArray(existing);
      if (!fits) obj[key] = nextIsArray ? [] : {};
      node = obj[key] as Record<string, unknown> | unknown[];
    }
  }
}

/**
 * Shapes a parsed body for a route's schema: lifts fields nested under `resourceKey`
 * (`{"label": {...}}`), parses JSON text given for object/array fields, and converts strings to
 * the numbers and booleans the schema asks for. Validation then runs on the result.
 */
export function shapeBody(body: unknown, schema: TSchema, resourceKey?: string): unknown {
  if (body === null || body === undefined || typeof body !== "object" || Array.isArray(body)) return body ?? {};
  let shaped = body as Body;
  if (resourceKey) {
    const nested = shaped[resourceKey];
    if (
      nested !== null &&
      typeof nested === "object" &&
      !Array.isArray(nested) &&
      !schemaHasProperty(schema, resourceKey)
    ) {
      const { [resourceKey]: _, ...rest } = shaped;
      shaped = { ...rest, ...(nested as Body) };
    }
  }
  return coerce(schema, parseJsonFields(shaped, schema));
}

const TRUE = new Set(["true", "1", "t", "on", "yes"]);
const FALSE = new Set(["false", "0", "f", "off", "no"]);

/**
 * Converts form strings to the numbers and booleans the schema asks for, recursing into objects
 * and arrays. Deliberately narrow (TypeBox's Value.Convert would turn "abc" into {"0":"a",...} for
 * a record field): anything it cannot convert is left for validation to report by field name.
 */
export function coerce(schema: TSchema | undefined, value: unknown): unknown {
  if (!schema || value === undefined || value === null) return value;
  const variants = (schema.anyOf ?? schema.oneOf) as TSchema[] | undefined;
  if (variants) {
    if (value === "" && variants.some((v) => v.type === "null")) return null;
    for (const v of variants) {
      const c = coerce(v, value);
      if (c !== value) return c;
    }
    return value;
  }
  switch (schema.type) {
    case "integer":
    case "number":
      if (typeof value === "string" && /^-?\d+(\.\d+)?$/.test(value.trim())) return Number(value.trim());
      return value;
    case "boolean":
      if (typeof value === "string") {
        const v = value.trim().toLowerCase();
        if (TRUE.has(v)) return true;
        if (FALSE.has(v)) return false;
      }
      return value;
    case "null":
      return value === "" || value === "null" ? null : value;
    case "array":
      return Array.isArray(value) ? value.map((item) => coerce(schema.items as TSchema, item)) : value;
    case "object": {
      const props = schema.properties as Record<string, TSchema> | undefined;
      if (!props || typeof value !== "object" || Array.isArray(value)) return value;
      const out: Body = { ...(value as Body) };
      for (const [key, sub] of Object.entries(props)) if (key in out) out[key] = coerce(sub, out[key]);
      return out;
    }
    default:
      return value;
  }
}

function schemaHasProperty(schema: TSchema, key: string): boolean {
  return Boolean((schema as { properties?: Record<string, unknown> }).properties?.[key]);
}

function wantsStructure(schema: TSchema | undefined): boolean {
  if (!schema) return false;
  if (schema.type === "object" || schema.type === "array") return true;
  const variants = (schema.anyOf ?? schema.oneOf) as TSchema[] | undefined;
  return Boolean(variants?.some((s) => s.type === "object" || s.type === "array"));
}

function parseJsonFields(body: Body, schema: TSchema): Body {
  const props = (schema as { properties?: Record<string, TSchema> }).properties;
  if (!props) return body;
  let copy: Body | null = null;
  for (const [key, value] of Object.entries(body)) {
    if (typeof value !== "string" || !wantsStructure(props[key])) continue;
    const trimmed = value.trim();
    if (!trimmed.startsWith("{") && !trimmed.startsWith("[")) continue;
    try {
      copy ??= { ...body };
      copy[key] = JSON.parse(trimmed);
    } catch {
      // Left as a string: validation reports the field with its name.
    }
  }
  return copy ?? body;
}

/** Query strings: `labels[]=a&labels[]=b` arrive as key `labels[]`; expose them as `labels`. */
export function shapeQuery(query: Record<string, unknown>): void {
  for (const key of Object.keys(query)) {
    if (!key.endsWith("[]")) continue;
    const base = key.slice(0, -2);
    const value = query[key];
    const list = Array.isArray(value) ? value : [value];
    const prior = query[base];
    query[base] = prior === undefined ? list : [...(Array.isArray(prior) ? prior : [prior]), ...list];
    delete query[key];
  }
}
