// The agents' web app: /app and every path under it answer the same page (the app routes in the
// browser), its scripts and styles come from /app/assets/. The page needs no session to load; it
// asks GET /auth/session and shows the sign-in form when there is none. /app/locales/<locale>.json
// are the translation tables of the languages other than English, fetched when a screen needs one.
import { Elysia } from "elysia";
import { NotFoundError } from "../domain/errors.ts";
import { asset, webAssets, type WebAsset, type WebAssets } from "./web-assets.ts";

const PAGE_HEADERS = {
  "cache-control": "no-cache",
  // Everything the app needs comes from this origin; nothing may frame it (clickjacking). The one
  // exception is frame-src: dashboard apps are pages on any http(s) site, which an administrator
  // adds and the conversation screen frames (sandboxed); without it default-src would block them.
  "content-security-policy":
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; frame-src 'self' https: http:; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'",
  "x-frame-options": "DENY",
  "referrer-policy": "same-origin",
  "x-content-type-options": "nosniff",
};

// File names carry a content hash: a new build means new names, so browsers may keep these forever.
const ASSET_HEADERS = { "cache-control": "public, max-age=31536000, immutable", "x-content-type-options": "nosniff" };

export function send(file: WebAsset, request: Request, headers: Record<string, string>): Response {
  const gzip = /\bgzip\b/.test(request.headers.get("accept-encoding") ?? "");
  return new Response(gzip ? file.gzip : file.body, {
    headers: {
      ...headers,
      "content-type": file.type,
      vary: "accept-encoding",
      ...(gzip ? { "content-encoding": "gzip" } : {}),
    },
  });
}

/** GET <assets path>/:name for one bundle's files (the web app's, the website chat's). */
export function assetHandler(assets: () => Promise<WebAssets>) {
  return async ({ params, request }: { params: { name: string }; request: Request }) => {
    const file = (await assets()).files.get(params.name);
    if (!file) throw new NotFoundError("Asset", "name", `no asset ${params.name}`);
    return send(file, request, ASSET_HEADERS);
  };
}

// Each is small and changes with a release: browsers ask again each time, and an ETag answers 304.
const LOCALE_HEADERS = { "cache-control": "no-cache", "x-content-type-options": "nosniff" };
type LocaleFile = WebAsset & { etag: string };
let locales: Promise<Map<string, LocaleFile>> | null = null;

/** Imported on the first request for one: ~300 KB of tables a server that nobody opens in Portuguese never loads. */
function localeFiles(): Promise<Map<string, LocaleFile>> {
  locales ??= Promise.all([import("../web/lib/locales/pt_BR/index.ts"), import("../web/lib/locales/es/index.ts")]).then(
    ([{ pt_BR }, { es }]) =>
      new Map(
        Object.entries({ pt_BR, es }).map(([name, table]) => {
          const body = new TextEncoder().encode(JSON.stringify(table));
          const etag = `"${Bun.hash(body).toString(36)}"`;
          return [`${name}.json`, { ...asset(body, "application/json;charset=utf-8"), etag }];
        }),
      ),
  );
  return locales;
}

async function localeHandler({ params, request }: { params: { name: string }; request: Request }) {
  const file = (await localeFiles()).get(params.name);
  if (!file) throw new NotFoundError("Locale", "name", `no translation table ${params.name}`);
  if (request.headers.get("if-none-match") === file.etag)
    return new Response(null, { status: 304, headers: { ...LOCALE_HEADERS, etag: file.etag } });
  return send(file, request, { ...LOCALE_HEADERS, etag: file.etag });
}

export function webRoutes() {
  const page = async ({ request }: { request: Request }) => send((await webAssets()).html, request, PAGE_HEADERS);
  const hidden = { detail: { hide: true } };
  return new Elysia()
    .get("/", ({ redirect }) => redirect("/app", 302), hidden)
    .get("/app", page, hidden)
    .get("/app/assets/:name", assetHandler(webAssets), hidden)
    .get("/app/locales/:name", localeHandler, hidden)
    .get("/app/*", page, hidden);
}
