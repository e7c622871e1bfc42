// `parley platform-token`: creates a platform app and prints its token for /platform/api/v1, once.
import { command, dbRequired, jsonFlag } from "./commands.ts";
import { withDeps } from "./context.ts";

export const platformToken = command(
  "platform-token",
  "create a platform app and print its token for /platform/api/v1 (shown once)",
  {
    db: dbRequired,
    name: { type: "string", help: 'a name to recognise the app by (default "Platform app")' },
    json: jsonFlag,
  },
  async (f, io) => {
    const r = await withDeps(f.db, (d) => d.services.platform.createApp(f.name));
    if (f.json) io.out(JSON.stringify(r));
    else io.out(`Created platform app ${r.platform_app_id}.\nPlatform API token (shown once): ${r.api_access_token}`);
    return 0;
  },
);
