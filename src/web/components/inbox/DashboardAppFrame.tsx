// A dashboard app beside the open conversation: its page in a sandboxed frame, told about the
// conversation the way Chatwoot tells it (lib/dashboard-apps.ts). The page is someone else's: the
// sandbox keeps it from navigating this window, and no referrer gives away the conversation's URL.
import { useEffect, useRef } from "preact/hooks";
import { appContext, type DashboardApp, FETCH_INFO, frameUrl } from "../../lib/dashboard-apps.ts";
import { t } from "../../lib/i18n.ts";
import { user } from "../../lib/session.ts";
import type { Conversation } from "../../lib/types.ts";

export function DashboardAppFrame({ app, conversation }: { app: DashboardApp; conversation: Conversation }) {
  const frame = useRef<HTMLIFrameElement>(null);
  // Live updates replace the conversation; a later fetch-info gets the newest one.
  const latest = useRef(conversation);
  latest.current = conversation;
  const post = () => {
    const me = user.peek();
    // "*" as Chatwoot sends it: apps are often served through redirects (http → https, a CDN) that
    // would make a fixed target origin drop the message.
    frame.current?.contentWindow?.postMessage(appContext(latest.current, me ?? null), "*");
  };
  useEffect(() => {
    const onMessage = (e: MessageEvent) => {
      if (e.source === frame.current?.contentWindow && e.data === FETCH_INFO) post();
    };
    window.addEventListener("message", onMessage);
    return () => window.removeEventListener("message", onMessage);
  }, []);
  const url = frameUrl(app);
  if (!url) return <p class="thread-empty">{t("apps.no_page")}</p>;
  return (
    <iframe
      // Another conversation is a fresh load, so the app starts from its context again.
      key={`${app.id}:${conversation.id}`}
      ref={frame}
      class="app-frame"
      src={url}
      title={app.title}
      sandbox="allow-scripts allow-forms allow-same-origin allow-popups"
      referrerpolicy="no-referrer"
      onLoad={post}
    />
  );
}
