// The harness's app listening on 127.0.0.1 (a free port), for clients that speak real HTTP
// (axios inside @figuro/chatwoot-sdk, fetch in the n8n/Activepieces/mobile replays).
import type { Harness } from "./harness.ts";

export interface ServedHttp {
  base: string;
  stop(): Promise<void>;
}

export function serveHttp(h: Harness): ServedHttp {
  h.app.listen({ port: 0, hostname: "127.0.0.1" });
  const base = `http://127.0.0.1:${h.app.server!.port}`;
  h.deps.files.links.setBase(base); // attachment links point at this server
  return {
    base,
    async stop() {
      h.deps.realtime.shutdown();
      await h.app.stop(true);
    },
  };
}

/** For a test file: `serve(h)` starts the app, and every server started is stopped after each test. */
export function servedEach(afterEach: (fn: () => Promise<void>) => void): (h: Harness) => ServedHttp {
  let current: ServedHttp | null = null;
  afterEach(async () => {
    await current?.stop();
    current = null;
  });
  return (h) => (current = serveHttp(h));
}
