// Read-only routes on PostgreSQL as an agent sees them: the lists limited to the agent's inboxes
// (conversations, their counts, a contact's conversations, search, the conversation filter, CSAT
// answers), a conversation's files, a team with its members, a custom attribute and the
// notification settings send nothing through the synchronous bridge in place; their statements go to
// the read pool. PostgreSQL only.
import { describe, expect, test } from "bun:test";
import { blockingDuring } from "../helpers/bridge-calls.ts";
import { world } from "../helpers/conversation-fixtures.ts";
import { makeMember } from "../helpers/factories.ts";
import { download, pdfFile, postMultipart } from "../helpers/files.ts";
import { agentResolves, messagesPath, newContact, openConversation, publicWorld } from "../helpers/public-fixtures.ts";
import { TEST_ENGINE } from "../helpers/test-database.ts";
import { widgetWorld } from "../helpers/widget-fixtures.ts";

describe.skipIf(TEST_ENGINE !== "postgres")("an agent's views on PostgreSQL wait on nothing in place", () => {
  test("conversations, counts, a contact's, search, filter, CSAT answers and files: all awaited", async () => {
    const w = await publicWorld({ csat_survey_enabled: true });
    const outsider = await makeMember(w.h, w.a.accountId, "agent", "Otto Outsider");
    const c = await newContact(w, { name: "Carla", email: "carla@example.com" });
    const conv = await openConversation(w, c);
    const filed = await postMultipart(
      w.h,
      `${w.api}/conversations/${conv.id}/messages`,
      [
        { name: "content", value: "Your invoice" },
        { name: "attachments[]", value: { bytes: pdfFile(), filename: "invoice.pdf", type: "application/pdf" } },
      ],
      w.agent.token,
    );
    expect(filed.status).toBe(200);
    await agentResolves(w, conv.id, w.agent.token);
    const survey = (await w.h.request("GET", messagesPath(w, c, conv.id))).body.at(-1);
    const answered = await w.h.request("PATCH", `${messagesPath(w, c, conv.id)}/${survey.id}`, {
      body: { submitted_values: { csat_survey_response: { rating: 4, feedback_message: "Quick" } } },
    });
    expect(answered.status).toBe(200);
    await w.h.deps.bus.drain();
    w.h.deps.commits.flush();

    const read = async (path: string, token = w.agent.token, body?: unknown) => {
      const res = await w.h.app.handle(
        new Request(`http://localhost${w.api}${path}`, {
          method: body === undefined ? "GET" : "POST",
          headers: { api_access_token: token, "content-type": "application/json" },
          body: body === undefined ? undefined : JSON.stringify(body),
        }),
      );
      return { status: res.status, body: (await res.json()) as any };
    };
    const resolved = [
      { attribute_key: "status", filter_operator: "equal_to", values: ["resolved"], query_operator: null },
    ];
    const answers: unknown[] = [];
    const blocking = await blockingDuring(async () => {
      const list = await read("/conversations?status=all");
      answers.push([list.status, list.body.data.meta.all_count, list.body.data.payload.map((x: any) => x.id)]);
      const inInbox = await read(`/conversations?status=all&inbox_id=${w.inbox.id}`);
      answers.push([inInbox.status, inInbox.body.data.payload.map((x: any) => x.id)]);
      answers.push((await read(`/conversations?inbox_id=${w.inbox.id}`, outsider.token)).status);
      answers.push((await read("/conversations?team_id=999")).status);
      answers.push((await read("/conversations/meta?status=all")).body.meta.all_count);
      answers.push((await read("/conversations/meta?status=all", outsider.token)).body.meta.all_count);
      const ofContact = await read(`/contacts/${c.id}/conversations`);
      answers.push([ofContact.status, ofContact.body.payload.map((x: any) => x.id)]);
      answers.push((await read(`/contacts/${c.id}/conversations`, outsider.token)).body.payload.length);
      const found = await read("/search/messages?q=invoice");
      answers.push([found.status, found.body.payload.messages.map((m: any) => m.content)]);
      answers.push((await read("/search/messages?q=invoice", outsider.token)).body.payload.messages.length);
      const conversations = await read("/search/conversations?q=Carla");
      answers.push(conversations.body.payload.conversations.map((x: any) => [x.id, x.contact.name, x.message.content]));
      const filtered = await read("/conversations/filter", w.agent.token, { payload: resolved });
      answers.push([filtered.status, filtered.body.payload.map((x: any) => x.id)]);
      const csat = await read("/csat_survey_responses");
      answers.push([csat.status, csat.body.map((r: any) => [r.rating, r.feedback_message, r.contact.name])]);
      answers.push((await read("/csat_survey_responses", outsider.token)).body);
      const files = await read(`/conversations/${conv.id}/attachments`);
      answers.push([files.status, files.body.meta, files.body.payload.map((f: any) => f.file_type)]);
      answers.push((await read(`/conversations/${conv.id}/attachments`, outsider.token)).status);
      answers.push((await read(`/conversations/${conv.id}/attachments?page=x`)).status);
      const file = await download(w.h, files.body.payload[0].data_url);
      answers.push([file.status, new TextDecoder().decode(file.bytes.slice(0, 5))]);
      answers.push((await download(w.h, files.body.payload[0].data_url.replace("signature=", "signature=x"))).status);
    });
    expect(answers).toEqual([
      [200, 1, [conv.id]],
      [200, [conv.id]],
      403,
      404,
      1,
      0,
      [200, [conv.id]],
      0,
      [200, ["Your invoice"]],
      0,
      [[conv.id, "Carla", "Your invoice"]],
      [200, [conv.id]],
      [200, [[4, "Quick", "Carla"]]],
      [],
      [200, { total_count: 1 }, ["file"]],
      403,
      422,
      [200, "%PDF-"],
      403,
    ]);
    expect(blocking).toEqual([]);
  });

  test("a team and its members, a custom attribute, the notification settings: all awaited", async () => {
    const w = await world();
    const admin = { token: w.a.adminToken };
    const team = await w.h.request("POST", `${w.base}/teams`, { ...admin, body: { name: "Sales" } });
    const joined = await w.h.request("POST", `${w.base}/teams/${team.body.id}/team_members`, {
      ...admin,
      body: { user_ids: [w.agent.userId] },
    });
    expect(joined.status).toBe(200);
    const attribute = await w.h.request("POST", `${w.base}/custom_attribute_definitions`, {
      ...admin,
      body: { attribute_display_name: "Tier", attribute_key: "tier", attribute_model: "contact_attribute" },
    });
    const saved = await w.h.request("PUT", `${w.base}/notification_settings`, {
      token: w.agent.token,
      body: { notification_settings: { selected_email_flags: ["email_conversation_assignment"] } },
    });
    expect(saved.body.selected_email_flags).toEqual(["email_conversation_assignment"]);
    w.h.deps.commits.flush();

    const read = async (path: string, token = w.agent.token) => {
      const res = await w.h.app.handle(
        new Request(`http://localhost${w.base}${path}`, { headers: { api_access_token: token } }),
      );
      return { status: res.status, body: (await res.json()) as any };
    };
    const answers: unknown[] = [];
    const blocking = await blockingDuring(async () => {
      const shown = await read(`/teams/${team.body.id}`);
      answers.push([shown.status, shown.body.name, shown.body.is_member]);
      answers.push((await read(`/teams/${team.body.id}`, w.outsider.token)).body.is_member);
      answers.push((await read(`/teams/${team.body.id + 100}`)).status);
      const members = await read(`/teams/${team.body.id}/team_members`);
      answers.push([members.status, members.body.map((m: any) => m.name)]);
      answers.push((await read(`/teams/${team.body.id + 100}/team_members`)).status);
      const attr = await read(`/custom_attribute_definitions/${attribute.body.id}`);
      answers.push([attr.status, attr.body.attribute_key, attr.body.attribute_model]);
      answers.push((await read(`/custom_attribute_definitions/${attribute.body.id + 100}`)).status);
      const settings = await read("/notification_settings");
      answers.push([settings.status, settings.body.user_id, settings.body.selected_email_flags]);
      answers.push((await read("/notification_settings", w.outsider.token)).body.selected_email_flags.length);
    });
    expect(answers).toEqual([
      [200, "sales", true],
      false,
      404,
      [200, ["Ann Agent"]],
      404,
      [200, "tier", "contact_attribute"],
      404,
      [200, w.agent.userId, ["email_conversation_assignment"]],
      4,
    ]);
    expect(blocking).toEqual([]);
  });

  test("the website chat's page: its inbox awaited", async () => {
    const w = await widgetWorld({ welcome_title: "Hi there" });
    await w.h.deps.bus.drain();
    w.h.deps.commits.flush();
    const statuses: unknown[] = [];
    const blocking = await blockingDuring(async () => {
      const page = await w.h.request("GET", `/widget?website_token=${w.websiteToken}`);
      const json = /<script type="application\/json" id="parley-config">(.*?)<\/script>/.exec(page.text)![1]!;
      statuses.push([page.status, JSON.parse(json).welcome_title]);
      statuses.push((await w.h.request("GET", "/widget?website_token=nope")).status);
    });
    expect(statuses).toEqual([[200, "Hi there"], 404]);
    expect(blocking).toEqual([]);
  });
});
