// The website chat's quoted reply: Chatwoot's widget sends `message[reply_to]` with the id of the
// message the visitor answers, and Chatwoot stores it as content_attributes.in_reply_to, resolved
// within the conversation (in-reply-to.ts). A reference alone is not a message.
import { describe, expect, test } from "bun:test";
import { Visitor, widgetWorld } from "../helpers/widget-fixtures.ts";

describe("website chat reply_to", () => {
  test("quotes an agent's message of the conversation; another conversation's reads null; alone it is refused", async () => {
    const w = await widgetWorld();
    const v = new Visitor(w);
    await v.start();
    const created = await v.call("POST", "/conversations", {
      contact: { name: "Vera" },
      message: { content: "Where is my order?" },
    });
    expect(created.status).toBe(200);
    const agent = await w.h.request("POST", `${w.api}/conversations/${created.body.id}/messages`, {
      token: w.agent.token,
      body: { content: "Which order number?" },
    });
    expect(agent.status).toBe(200);

    const reply = await v.call("POST", "/messages", { message: { content: "A-17", reply_to: agent.body.id } });
    expect([reply.status, reply.body.content]).toEqual([200, "A-17"]);
    const attrsOf = async (id: number) => {
      const list = await w.h.request("GET", `${w.api}/conversations/${created.body.id}/messages`, {
        token: w.agent.token,
      });
      return list.body.payload.find((m: any) => m.id === id).content_attributes;
    };
    expect(await attrsOf(reply.body.id)).toEqual({ in_reply_to: agent.body.id, in_reply_to_external_id: null });

    // Another visitor's message is not a reply target here.
    const other = new Visitor(w);
    await other.start();
    const theirs = await other.call("POST", "/conversations", { contact: { name: "Otto" }, message: { content: "x" } });
    const wrong = await v.call("POST", "/messages", {
      message: { content: "B-2", reply_to: theirs.body.messages[0].id },
    });
    expect(wrong.status).toBe(200);
    expect(await attrsOf(wrong.body.id)).toEqual({ in_reply_to: null, in_reply_to_external_id: null });

    // No content, no file: a quote alone is refused, and nothing is written.
    const before = (await v.call("GET", "/messages")).body.length;
    const empty = await v.call("POST", "/messages", { message: { content: "", reply_to: agent.body.id } });
    expect([empty.status, empty.body.errors?.[0]?.field]).toEqual([422, "content"]);
    expect((await v.call("GET", "/messages")).body.length).toBe(before);
  });
});
