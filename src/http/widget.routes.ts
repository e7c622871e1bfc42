// The website chat: its API (/api/v1/widget/*, with CORS preflights), the loader (/packs/js/sdk.js)
// and the chat page (/widget), as one plugin.
import { Elysia } from "elysia";
import type { Deps } from "../deps.ts";
import { widgetContactRoutes } from "./widget-contacts.routes.ts";
import { widgetConversationRoutes } from "./widget-conversations.routes.ts";
import { widgetPageRoutes } from "./widget-page.routes.ts";
import { widgetPreflight } from "./widget-scope.ts";

export function widgetRoutes(d: Deps) {
  return new Elysia({ name: "parley-widget" })
    .use(widgetPreflight(d))
    .use(widgetContactRoutes(d))
    .use(widgetConversationRoutes(d))
    .use(widgetPageRoutes(d));
}
