// GET /files/:id/:name — an attachment's bytes behind a signed, expiring link (src/files/links.ts).
// Served so that nothing uploaded can act as a page of Parley's origin: images, audio, video and
// PDF inline with their sniffed type, everything else as a download; HTML, SVG and XML always as
// application/octet-stream downloads; nosniff and a sandboxing CSP on every answer. Single byte
// ranges work (audio and video players seek with them).
import { Elysia, t } from "elysia";
import type { Deps } from "../deps.ts";
import { safeName } from "../files/links.ts";
import { ACTIVE_TYPES } from "../files/sniff.ts";
import type { ByteRange } from "../files/store.ts";
import { errorResponse } from "./errors.ts";

const INLINE = /^(image|audio|video)\/|^application\/pdf$/;

/** One `bytes=` range against a size; undefined for none or several (then the whole file), null when unsatisfiable. */
export function parseRange(header: string | null, size: number): ByteRange | undefined | null {
  if (!header) return undefined;
  const m = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!m || (m[1] === "" && m[2] === "")) return undefined;
  if (m[1] === "") {
    const suffix = Number(m[2]);
    if (suffix === 0) return null;
    return { start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(m[1]);
  const end = m[2] === "" ? size - 1 : Math.min(Number(m[2]), size - 1);
  if (start >= size || end < start) return null;
  return { start, end };
}

function disposition(kind: "inline" | "attachment", filename: string): string {
  const name = safeName(filename);
  const ascii = name.replace(/[^\x20-\x7e]/g, "_").replace(/[%;]/g, "_");
  return `${kind}; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(name)}`;
}

export function fileRoutes(d: Deps) {
  const files = d.services.attachments;
  return new Elysia().get(
    "/files/:id/:name",
    async ({ params, query, request }) => {
      let unsatisfiable: number | null = null;
      const got = await files.download(params.id, query.expires, query.signature, (size) => {
        const r = parseRange(request.headers.get("range"), size);
        if (r === null) unsatisfiable = size;
        return r ?? undefined;
      });
      const { row } = got;
      if (unsatisfiable !== null) {
        return errorResponse(
          416,
          "Range Not Satisfiable",
          [{ field: "range", message: `the file has ${unsatisfiable} bytes`, code: "invalid" }],
          {
            "content-range": `bytes */${unsatisfiable}`,
          },
        );
      }
      const active = ACTIVE_TYPES.has(row.content_type);
      const type = active ? "application/octet-stream" : row.content_type;
      const headers: Record<string, string> = {
        "content-type": type,
        "content-disposition": disposition(!active && INLINE.test(type) ? "inline" : "attachment", row.filename),
        "x-content-type-options": "nosniff",
        "content-security-policy": "default-src 'none'; sandbox",
        "cache-control": "private, max-age=86400",
        "accept-ranges": "bytes",
      };
      if (got.range) {
        headers["content-range"] = `bytes ${got.range.start}-${got.range.end}/${row.file_size}`;
        headers["content-length"] = String(got.range.end - got.range.start + 1);
        return new Response(got.body, { status: 206, headers });
      }
      headers["content-length"] = String(row.file_size);
      return new Response(got.body, { status: 200, headers });
    },
    {
      params: t.Object({ id: t.String(), name: t.String() }),
      query: t.Object({ expires: t.Optional(t.String()), signature: t.Optional(t.String()) }),
      detail: {
        tags: ["attachments"],
        summary: "An attachment's file (the data_url of an attachment record: signed, expiring; Range supported)",
      },
    },
  );
}
