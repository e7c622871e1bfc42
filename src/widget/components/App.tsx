// The chat page: the header, then the pre-chat form (before the first message, when the inbox
// asks for one) or the thread and the composer. Framed, it opens and closes as the loader says;
// on its own (popout, mobile web views) it is always open and keeps the token in localStorage.
import { useEffect, useMemo, useState } from "preact/hooks";
import type { ChannelConfig } from "../lib/api.ts";
import { isFramed, listen, tell } from "../lib/bridge.ts";
import { isRtl, stringsFor } from "../lib/i18n.ts";
import { ChatSession } from "../lib/session.ts";
import { Composer } from "./Composer.tsx";
import { Header } from "./Header.tsx";
import { PreChatForm, preChatFields } from "./PreChatForm.tsx";
import { Thread } from "./Thread.tsx";

const params = new URLSearchParams(location.search);
const storageKey = (websiteToken: string) => `cw_conversation_${websiteToken}`;

function storedToken(websiteToken: string): string | null {
  try {
    return params.get("cw_conversation") || localStorage.getItem(storageKey(websiteToken));
  } catch {
    return params.get("cw_conversation");
  }
}

function applyLook(locale: string | null, dark: string) {
  const root = document.documentElement;
  root.lang = (locale ?? "en").replace("_", "-");
  root.dir = isRtl(locale) ? "rtl" : "ltr";
  const wantsDark = dark === "dark" || (dark === "auto" && matchMedia("(prefers-color-scheme: dark)").matches);
  root.classList.toggle("dark", wantsDark);
}

export function App({ config }: { config: ChannelConfig }) {
  const [, redraw] = useState(0);
  const [locale, setLocale] = useState<string | null>(params.get("locale") || navigator.language);
  const session = useMemo(
    () =>
      new ChatSession(
        config,
        () => redraw((n) => n + 1),
        (token) => {
          tell("token", { token });
          try {
            if (!isFramed()) localStorage.setItem(storageKey(config.website_token), token);
          } catch {
            /* storage may be blocked: the thread then lasts as long as the page */
          }
        },
      ),
    [config],
  );
  const t = stringsFor(locale);

  useEffect(() => {
    document.documentElement.style.setProperty("--brand", config.widget_color);
    applyLook(locale, "light");
    // resume() takes the token before anything else asks who the visitor is (setOpen would start a new one).
    if (!isFramed()) {
      void session.resume(storedToken(config.website_token));
      session.setOpen(true);
    }
    listen((c) => {
      if (c.type === "init") {
        const s = c.data.settings ?? {};
        if (s.locale) setLocale(String(s.locale));
        applyLook(s.locale ?? locale, String(s.darkMode ?? "light"));
        void session.resume(c.data.token || null).then(() => tell("ready", { color: config.widget_color }));
        if (c.data.open) session.setOpen(true);
      } else if (c.type === "toggle") session.setOpen(c.data.open === true);
      else if (c.type === "set-locale") {
        setLocale(String(c.data.locale));
        applyLook(String(c.data.locale), document.documentElement.classList.contains("dark") ? "dark" : "light");
      } else if (c.type === "set-dark-mode") applyLook(locale, String(c.data.darkMode));
      else void session.command(c.type, c.data);
    });
  }, [session]);

  const s = session.state;
  const fields = preChatFields(config);
  const needsForm = !s.conversation && config.pre_chat_form_enabled && fields.length > 0;
  return (
    <main class="chat" aria-label={config.website_name}>
      <Header config={config} t={t} locale={locale} framed={isFramed()} onClose={() => tell("close")} />
      {needsForm ? (
        <PreChatForm config={config} fields={fields} t={t} session={session} />
      ) : (
        <>
          <Thread config={config} state={s} t={t} session={session} />
          <Composer t={t} session={session} disabled={s.sending} />
        </>
      )}
      {s.error && (
        <p class="error" role="alert">
          {s.error}
        </p>
      )}
    </main>
  );
}
