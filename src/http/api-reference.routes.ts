// GET /docs/api: a readable API reference, rendered on the server from the OpenAPI document
// (/openapi/json), so it works offline and from inside the binary: operations by tag, with their
// parameters, body fields and answers. No scripts; every text from the document is escaped.
import { Elysia } from "elysia";

type Schema = { properties?: Record<string, { description?: string; type?: unknown }>; required?: string[] };
type Op = {
  summary?: string;
  tags?: string[];
  parameters?: { name: string; in: string; required?: boolean; description?: string }[];
  requestBody?: { content?: Record<string, { schema?: Schema }> };
  responses?: Record<string, unknown>;
};
type Doc = { info?: { title?: string; version?: string }; paths?: Record<string, Record<string, Op>> };

const esc = (s: unknown) => String(s ?? "").replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

function operationHtml(method: string, path: string, op: Op): string {
  const params = (op.parameters ?? []).map(
    (p) =>
      `<li><code>${esc(p.name)}</code> (${esc(p.in)}${p.required ? ", required" : ""})${p.description ? ` — ${esc(p.description)}` : ""}</li>`,
  );
  const body = op.requestBody?.content?.["application/json"]?.schema?.properties ?? {};
  const fields = Object.entries(body).map(
    ([k, v]) => `<li><code>${esc(k)}</code>${v.description ? ` — ${esc(v.description)}` : ""}</li>`,
  );
  const answers = Object.keys(op.responses ?? {}).join(", ");
  return `<section><h3><span class="m">${esc(method.toUpperCase())}</span> <code>${esc(path)}</code></h3>
<p>${esc(op.summary)}</p>
${params.length ? `<p>Parameters</p><ul>${params.join("")}</ul>` : ""}
${fields.length ? `<p>Body fields (JSON, form or multipart)</p><ul>${fields.join("")}</ul>` : ""}
${answers ? `<p>Answers: ${esc(answers)}</p>` : ""}</section>`;
}

export function renderReference(doc: Doc): string {
  const byTag = new Map<string, string[]>();
  for (const [path, ops] of Object.entries(doc.paths ?? {})) {
    for (const [method, op] of Object.entries(ops)) {
      const tag = op.tags?.[0] ?? "other";
      if (!byTag.has(tag)) byTag.set(tag, []);
      byTag.get(tag)!.push(operationHtml(method, path, op));
    }
  }
  const tags = [...byTag.keys()].sort();
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${esc(doc.info?.title)} reference</title>
<style>body{font:15px/1.5 system-ui,sans-serif;max-width:60rem;margin:auto;padding:1rem}code{font-size:.9em}h3{font-size:1rem;margin:1.2rem 0 .2rem}.m{display:inline-block;min-width:4.5rem}section{border-top:1px solid #ddd}nav a{margin-right:.6rem}</style></head>
<body><h1>${esc(doc.info?.title)} ${esc(doc.info?.version)}</h1>
<p>The machine-readable document: <a href="/openapi/json">/openapi/json</a>. Authenticate with the <code>api_access_token</code> header.</p>
<nav>${tags.map((t) => `<a href="#${esc(t.replace(/\s+/g, "-"))}">${esc(t)}</a>`).join("")}</nav>
${tags.map((t) => `<h2 id="${esc(t.replace(/\s+/g, "-"))}">${esc(t)}</h2>${byTag.get(t)!.join("\n")}`).join("\n")}
</body></html>`;
}

export function apiReferenceRoutes(holder: { app?: { handle(r: Request): Promise<Response> } }) {
  let page: string | null = null;
  return new Elysia().get(
    "/docs/api",
    async () => {
      page ??= renderReference(
        (await (await holder.app!.handle(new Request("http://localhost/openapi/json"))).json()) as Doc,
      );
      return new Response(page, {
        headers: {
          "content-type": "text/html; charset=utf-8",
          "content-security-policy":
            "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
          "x-content-type-options": "nosniff",
        },
      });
    },
    { detail: { tags: ["system"], summary: "A readable API reference (HTML, from the OpenAPI document)" } },
  );
}
