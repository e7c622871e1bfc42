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
void startLocale().finally(() => render(<App />, document.getElementById("app")!));
