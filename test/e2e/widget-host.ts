// The website chat's browser world, embedded the way a customer embeds it: a host page on another origin
// (a second local port) with Chatwoot's snippet exactly as published, only BASE_URL changed; a stranger's
// page that frames the chat; a web_widget inbox with a pre-chat form and CSAT that allows only the host.
import { widgetAssets } from "../../src/http/widget-page.routes.ts";
import { launchChromium, startWebServer, type Chromium, type WebServer } from "./browser.ts";
import { accountApi, type AccountApi } from "./seed.ts";

/** Chatwoot's published embed snippet; only BASE_URL and the token differ. */
const snippet = (base: string, token: string) => `<script>
  (function(d,t){var BASE_URL="${base}";var g=d.createElement(t),s=d.getElementsByTagName(t)[0];
  g.src=BASE_URL+"/packs/js/sdk.js";g.defer=true;g.async=true;s.parentNode.insertBefore(g,s);
  g.onload=function(){window.chatwootSDK.run({websiteToken:'${token}',baseUrl:BASE_URL})}})(document,"script");
</script>`;

/** The customer's site: its own server, so its pages have their own origin. */
function hostSite(body: (token: string | null) => string) {
  const server = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    fetch: (req) => {
      // ?settings={…}: the page sets window.chatwootSettings before the snippet, as sites do.
      const url = new URL(req.url);
      const settings = url.searchParams.get("settings");
      const pre = settings ? `<script>window.chatwootSettings = ${JSON.stringify(JSON.parse(settings))};</script>` : "";
      return new Response(
        `<!doctype html><html><head><title>Shop</title></head><body><h1>Shop</h1>${pre}${body(url.searchParams.get("token"))}</body></html>`,
        { headers: { "content-type": "text/html" } },
      );
    },
  });
  return { origin: `http://127.0.0.1:${server.port}`, stop: () => server.stop(true) };
}

export type HostSite = ReturnType<typeof hostSite>;

export interface EmbeddedChat {
  server: WebServer;
  browser: Chromium;
  admin: AccountApi;
  /** The customer's site, whose origin the inbox allows; `?token=…` embeds another inbox of the site. */
  site: HostSite;
  /** A site the inbox does not allow, whose page frames the chat. */
  stranger: HostSite;
  inbox: { id: number; website_token: string; hmac_token: string };
  stop(): Promise<void>;
}

/** Starts the server, both sites, the inbox (the first administrator in it) and chromium. */
export async function startEmbeddedChat(): Promise<EmbeddedChat> {
  const w = {
    stop: async () => {
      await w.browser?.close();
      w.site?.stop();
      w.stranger?.stop();
      await w.server?.stop();
    },
  } as EmbeddedChat;
  try {
    const server = (w.server = await startWebServer());
    const admin = (w.admin = accountApi(server.base, server.first.account_id, server.first.api_access_token));
    let token = "";
    // ?token=…: another website inbox of the same site.
    const site = (w.site = hostSite((other) => snippet(server.base, other ?? token)));
    w.stranger = hostSite(() => `<iframe id="stolen" src="${server.base}/widget?website_token=${token}"></iframe>`);
    const inbox = (w.inbox = await admin.post("/inboxes", {
      name: "Shop chat",
      csat_survey_enabled: true,
      channel: {
        type: "web_widget",
        website_url: site.origin,
        allowed_origins: [site.origin],
        welcome_title: "Hello from Shop",
        pre_chat_form_enabled: true,
        pre_chat_form_options: {
          pre_chat_message: "Tell us who you are",
          pre_chat_fields: [
            {
              name: "fullName",
              label: "Full name",
              type: "text",
              field_type: "standard",
              required: true,
              enabled: true,
            },
            {
              name: "emailAddress",
              label: "Email",
              type: "email",
              field_type: "standard",
              required: false,
              enabled: true,
            },
          ],
        },
      },
    }));
    token = inbox.website_token;
    await admin.post("/inbox_members", { inbox_id: inbox.id, user_ids: [server.first.user_id] });
    await widgetAssets();
    w.browser = await launchChromium();
  } catch (e) {
    await w.stop();
    throw e;
  }
  return w;
}
