// The website chat's files: the loader at /packs/js/sdk.js (Chatwoot's path, so the embed snippet
// works unchanged), the chat page at /widget?website_token=… with its scripts under
// /widget/assets/. The page carries the inbox's public settings in a JSON block (no inline
// script: the CSP allows only our files) and may be framed only by the inbox's allowed origins.
import { Elysia } from "elysia";
import type { Deps } from "../deps.ts";
import { channelAttributes } from "../domain/presenters/inbox.presenter.ts";
import { widgetChannelConfig } from "../domain/presenters/widget.presenter.ts";
import { embeddingOrigins } from "../domain/widget-settings.ts";
import widgetPage from "../widget/index.html";
import loaderSource from "../widget/sdk.js" with { type: "text" };
import { asset, assetsLoader } from "./web-assets.ts";
import { assetHandler, send } from "./web.routes.ts";

export const WIDGET_ASSETS_PATH = "/widget/assets/";
export const widgetAssets = assetsLoader(widgetPage, WIDGET_ASSETS_PATH);
const CONFIG_SLOT = "<!--parley-config-->";
const loader = asset(new TextEncoder().encode(loaderSource), "text/javascript; charset=utf-8");

/** The page's headers: frame-ancestors from the inbox's allowed origins (its own origin always). */
export function widgetPageHeaders(origins: readonly string[]): Record<string, string> {
  return {
    "cache-control": "no-store",
    "content-security-policy": [
      "default-src 'self'",
      "script-src 'self'",
      "style-src 'self'",
      "img-src 'self' data: https:",
      "connect-src 'self'",
      "object-src 'none'",
      "base-uri 'none'",
      "form-action 'none'",
      `frame-ancestors 'self'${origins.map((o) => ` ${o}`).join("")}`,
    ].join("; "),
    "referrer-policy": "no-referrer",
    "x-content-type-options": "nosniff",
  };
}

/** JSON that is safe inside <script type="application/json">: no "</script>", no comment openers. */
function embeddable(value: unknown): string {
  return JSON.stringify(value).replaceAll("<", "\\u003c").replaceAll(">", "\\u003e").replaceAll("&", "\\u0026");
}

export function widgetPageRoutes(d: Deps) {
  const hidden = { detail: { hide: true } };
  return new Elysia()
    .get(
      "/packs/js/sdk.js",
      ({ request }) =>
        send(loader, request, {
          "cache-control": "public, max-age=3600",
          "x-content-type-options": "nosniff",
          "access-control-allow-origin": "*",
        }),
      hidden,
    )
    .get(
      "/widget",
      async ({ query, request }) => {
        // Awaited: on PostgreSQL the inbox is read on the read pool (src/db/reads.ts).
        const inbox = await d.services.widget.inboxLater((query as Record<string, unknown>).website_token);
        const built = await widgetAssets();
        const config = widgetChannelConfig(inbox, d.services.widget.availability(inbox));
        const html = new TextDecoder()
          .decode(built.html.body)
          .replace(CONFIG_SLOT, `<script type="application/json" id="parley-config">${embeddable(config)}</script>`);
        return send(
          asset(new TextEncoder().encode(html), built.html.type),
          request,
          widgetPageHeaders(embeddingOrigins(channelAttributes(inbox))),
        );
      },
      hidden,
    )
    .get("/widget/assets/:name", assetHandler(widgetAssets), hidden);
}
