// The agents' web app: entry point. Served at /app by the server (src/http/web.routes.ts).
import { render } from "preact";
import { App } from "./components/App.tsx";
import { startLocale } from "./lib/i18n.ts";
import { startRouter } from "./lib/router.ts";
import { startTheme } from "./lib/theme.ts";
import { startTitle } from "./lib/title.ts";

startTheme();
startTitle();
startRouter();
// The first paint speaks the remembered language: its table comes first (English needs none).
void startLocale().finally(() => {
  const root = document.getElementById("app")!;
  // The page's "Loading Parley…" placeholder goes: Preact keeps a container's old children when the
  // first screen is not the same element (a password-reset link opens straight on its page).
  root.replaceChildren();
  render(<App />, root);
});
