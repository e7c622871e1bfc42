// The website chat scenarios need a web_widget inbox and visitors with conversations. The seed has
// neither, so the runner makes them over HTTP on the running server before those scenarios: one
// inbox (found again by name on the next run) and VISITORS visitors, each with an open conversation
// (writes rotate over them: the flood guard allows 200 messages a minute per conversation).
import type { WidgetInfo } from "./scenarios.ts";

const INBOX_NAME = "Bench website";
const VISITORS = 400;

interface Seed {
  account_id: number;
  api_access_token: string;
}

export async function widgetSetup(origin: string, s: Seed): Promise<WidgetInfo> {
  const admin = { api_access_token: s.api_access_token, "content-type": "application/json" };
  const api = `${origin}/api/v1/accounts/${s.account_id}`;
  const inboxes = (await (await fetch(`${api}/inboxes`, { headers: admin })).json()) as {
    payload: { name: string; website_token?: string }[];
  };
  let token = inboxes.payload.find((i) => i.name === INBOX_NAME)?.website_token;
  if (!token) {
    const created = await fetch(`${api}/inboxes`, {
      method: "POST",
      headers: admin,
      body: JSON.stringify({ name: INBOX_NAME, channel: { type: "web_widget", website_url: "https://bench.example" } }),
    });
    token = ((await created.json()) as { website_token?: string }).website_token;
  }
  if (!token) throw new Error("could not make the bench's website inbox");
  const widget = `${origin}/api/v1/widget`;
  const visitors: string[] = [];
  for (let i = 0; i < VISITORS; i += 50) {
    const batch = Array.from({ length: Math.min(50, VISITORS - i) }, async () => {
      const config = (await (await fetch(`${widget}/config?website_token=${token}`, { method: "POST" })).json()) as {
        auth_token: string;
      };
      const first = await fetch(`${widget}/messages?website_token=${token}`, {
        method: "POST",
        headers: { "x-auth-token": config.auth_token, "content-type": "application/json" },
        body: JSON.stringify({ message: { content: "Hello, I have a question" } }),
      });
      if (first.status !== 200) throw new Error(`widget visitor setup: ${first.status} ${await first.text()}`);
      return config.auth_token;
    });
    visitors.push(...(await Promise.all(batch)));
  }
  return { websiteToken: token, visitors };
}
