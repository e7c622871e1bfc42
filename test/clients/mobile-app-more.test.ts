// The Chatwoot mobile app, continued: its settings (availability, account switch), a chat's dashboard
// apps and macros, the list's and the notification inbox's sorting, and "Forgot password" — each as the app's own
// service sends it, asserting what the app reads back.
import { expect, test } from "bun:test";
import { makeAccount, makeMember } from "../helpers/factories.ts";
import { createHarness } from "../helpers/harness.ts";
import { mobileAppWorlds } from "../helpers/mobile-app.ts";
import { smtpUrlOf, startSmtpRecorder } from "../mail/smtp-recorder.ts";

const { agentWorld, serve } = mobileAppWorlds();

test("mobile app: the settings screen's availability toggle and account switch", async () => {
  const { h, a, agent, root, headers } = await agentWorld();
  const other = await makeAccount(h, "Second shop");
  await h.deps.services.accounts.addMember(other.accountId, agent.userId, "agent");
  // The app's API service sends these without the account prefix.
  const profileUrl = (path: string) => `${root}/api/v1/${path}`;
  // AuthService.updateAvailability: post('profile/availability', { profile: { availability, account_id: string } }).
  const busy = await fetch(profileUrl("profile/availability"), {
    method: "POST",
    headers,
    body: JSON.stringify({ profile: { availability: "busy", account_id: String(a.accountId) } }),
  });
  expect(busy.status).toBe(200);
  const user = (await busy.json()) as any;
  expect(user.accounts.map((x: any) => [x.id, x.availability])).toEqual([
    [a.accountId, "busy"],
    [other.accountId, "online"],
  ]);
  // AuthService.setActiveAccount: put('profile/set_active_account', { profile: { account_id } }); then GET profile.
  const switched = await fetch(profileUrl("profile/set_active_account"), {
    method: "PUT",
    headers,
    body: JSON.stringify({ profile: { account_id: other.accountId } }),
  });
  expect(switched.status).toBe(200);
  const profile = (await (await fetch(profileUrl("profile"), { headers })).json()) as any;
  expect(profile.account_id).toBe(other.accountId);
});

test("mobile app: the conversation screen lists the account's dashboard apps", async () => {
  const { a, base, headers } = await agentWorld();
  const made = await fetch(`${base}/dashboard_apps`, {
    method: "POST",
    headers: { ...headers, api_access_token: a.adminToken },
    body: JSON.stringify({
      dashboard_app: { title: "CRM", content: [{ type: "frame", url: "https://crm.example.com/lookup" }] },
    }),
  });
  expect(made.status).toBe(200);
  // DashboardAppService.index: apiService.get('dashboard_apps'), then response.data.map(transformDashboardApp).
  const r = await fetch(`${base}/dashboard_apps`, { headers });
  expect(r.status).toBe(200);
  const apps = ((await r.json()) as any[]).map((x) => ({ id: x.id, title: x.title, content: x.content }));
  expect(apps).toEqual([
    { id: expect.any(Number), title: "CRM", content: [{ type: "frame", url: "https://crm.example.com/lookup" }] },
  ]);
});

test("mobile app: macros listed in a chat and run on the selected conversations", async () => {
  const { a, inboxId, agent, base, headers } = await agentWorld();
  const admin = { ...headers, api_access_token: a.adminToken };
  const post = async (path: string, body: unknown, as = headers) =>
    fetch(`${base}${path}`, { method: "POST", headers: as, body: JSON.stringify(body) });
  const made = await post(
    "/macros",
    {
      name: "Hand over",
      visibility: "global",
      actions: [
        { action_name: "add_private_note", action_params: ["Handing over to billing"] },
        { action_name: "change_status", action_params: ["pending"] },
      ],
    },
    admin,
  );
  expect(made.status).toBe(200);
  const contact = ((await (await post("/contacts", { name: "Pat", email: "pat@example.com" })).json()) as any).payload
    .contact;
  const conv = (await (await post("/conversations", { inbox_id: inboxId, contact_id: contact.id })).json()) as any;

  // MacroService.index: get('macros'), then response.data.payload.map(transformMacro).
  const listed = ((await (await fetch(`${base}/macros`, { headers })).json()) as any).payload;
  expect(listed.map((m: any) => ({ id: m.id, name: m.name, visibility: m.visibility }))).toEqual([
    { id: expect.any(Number), name: "Hand over", visibility: "global" },
  ]);
  // MacroService.executeMacro: post(`macros/${macroId}/execute`, { conversation_ids }).
  const run = await post(`/macros/${listed[0].id}/execute`, { conversation_ids: [conv.id] });
  expect(run.status).toBe(200);
  const after = (await (await fetch(`${base}/conversations/${conv.id}`, { headers })).json()) as any;
  expect(after.status).toBe("pending");
  const notes = ((await (await fetch(`${base}/conversations/${conv.id}/messages`, { headers })).json()) as any).payload
    .filter((m: any) => m.private)
    .map((m: any) => ({ content: m.content, sender: m.sender?.id }));
  expect(notes).toEqual([{ content: "Handing over to billing", sender: agent.userId }]);
});

test("mobile app: the list's sort choice (latest, created at, priority) as getConversations sends it", async () => {
  const { inboxId, base, headers } = await agentWorld();
  const post = async (path: string, body: unknown) =>
    (await (await fetch(`${base}${path}`, { method: "POST", headers, body: JSON.stringify(body) })).json()) as any;
  const contact = (await post("/contacts", { name: "Pat", email: "pat@example.com" })).payload.contact;
  const made: number[] = [];
  for (const priority of [null, "high", "low"]) {
    const conv = await post("/conversations", { inbox_id: inboxId, contact_id: contact.id });
    if (priority) await post(`/conversations/${conv.id}/toggle_priority`, { priority });
    made.push(conv.id);
  }
  // params {inbox_id: null, assignee_type, status, page, sort_by}: axios leaves the null out.
  const page = async (sortBy: string) => {
    const r = await fetch(`${base}/conversations?assignee_type=all&status=open&page=1&sort_by=${sortBy}`, { headers });
    expect(r.status).toBe(200);
    return ((await r.json()) as any).data.payload.map((c: any) => c.id);
  };
  expect(await page("sort_on_created_at")).toEqual(made);
  expect(await page("sort_on_priority")).toEqual([made[1], made[2], made[0]]);
  expect((await page("latest")).sort()).toEqual([...made].sort());
});

test("mobile app: the Forgot password screen, as AuthService.resetPassword posts it signed out", async () => {
  const recorder = await startSmtpRecorder();
  try {
    const h = createHarness({ env: { PARLEY_SMTP_URL: smtpUrlOf(recorder) } });
    const a = await makeAccount(h);
    const agent = await makeMember(h, a.accountId, "agent", "Mo Bile");
    const root = serve(h).base;
    // Signed out there is no account_id, so the app's interceptor leaves the path as given:
    // post('auth/password', { email }) against the installation URL, no credentials.
    const r = await fetch(`${root}/auth/password`, {
      method: "POST",
      headers: { "Content-Type": "application/json", Accept: "application/json, text/plain, */*" },
      body: JSON.stringify({ email: agent.email }),
    });
    expect(r.status).toBe(200); // the app's thunk is fulfilled only on a 2xx
    expect(((await r.json()) as { message: string }).message).toContain("Request for password reset is successful");
    await h.deps.mail.resetSender.drain();
    expect((await recorder.mail(1)).to).toEqual([agent.email]);
  } finally {
    await recorder.close();
  }
});

test("mobile app: registering the phone for push after sign-in, and removing it on sign-out", async () => {
  const { h, agent, root, headers } = await agentWorld();
  // SettingsService.saveDeviceDetails: post('notification_subscriptions', pushData) — a non-account route.
  const saved = await fetch(`${root}/api/v1/notification_subscriptions`, {
    method: "POST",
    headers,
    body: JSON.stringify({
      subscription_type: "fcm",
      subscription_attributes: {
        deviceName: "Apple iPhone15,2",
        devicePlatform: "iOS",
        apiLevel: "-1",
        brandName: "Apple",
        buildNumber: "412",
        push_token: "fcm-token-1",
        device_id: "A1B2C3",
      },
    }),
  });
  expect(saved.status).toBe(200); // the thunk is fulfilled only on a 2xx
  expect(((await saved.json()) as { identifier: string }).identifier).toBe("A1B2C3");
  expect(h.deps.repos.push.subscriptionsOf(agent.userId).map((s) => s.push_token)).toEqual(["fcm-token-1"]);
  // SettingsService.removeDevice: delete('notification_subscriptions', { data: { push_token } }).
  const removed = await fetch(`${root}/api/v1/notification_subscriptions`, {
    method: "DELETE",
    headers,
    body: JSON.stringify({ push_token: "fcm-token-1" }),
  });
  expect(removed.status).toBe(200);
  expect(h.deps.repos.push.subscriptionsOf(agent.userId)).toEqual([]);
});
