// The website chat page (/widget?website_token=…), framed by the loader (/packs/js/sdk.js) or
// opened on its own (popout, mobile web views). Its own bundle: nothing of the agents' app.
import { render } from "preact";
import { App } from "./components/App.tsx";
import { readConfig } from "./lib/api.ts";

render(<App config={readConfig()} />, document.getElementById("chat")!);
