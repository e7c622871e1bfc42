// Dashboard apps' pure helpers: which page an app shows, and the context message in Chatwoot's
// shape (a JSON string that existing apps JSON.parse and read data.conversation / data.contact from).
import { describe, expect, test } from "bun:test";
import { appContext, type DashboardApp, FETCH_INFO, frameUrl } from "../../src/web/lib/dashboard-apps.ts";
import type { Conversation } from "../../src/web/lib/types.ts";

const app = (content: DashboardApp["content"]): DashboardApp => ({
  id: 1,
  title: "Orders",
  content,
  show_on_sidebar: false,
  created_at: "2024-05-01T10:00:00Z",
});

describe("frameUrl", () => {
  test("the first frame's URL, or none for an app without one", () => {
    expect(
      frameUrl(
        app([
          { type: "frame", url: "https://orders.example.com/a" },
          { type: "frame", url: "https://b.example.com" },
        ]),
      ),
    ).toBe("https://orders.example.com/a");
    expect(frameUrl(app([]))).toBeNull();
  });
});

describe("appContext", () => {
  const sender = { id: 9, name: "Dana Cliente", email: "dana@example.com" };
  const conversation = { id: 42, inbox_id: 3, status: "open", meta: { sender, channel: "Channel::Api" } };

  test("appContext with the conversation, its contact and the agent, as one JSON string", () => {
    const message = appContext(conversation as unknown as Conversation, {
      id: 5,
      name: "Ana Agent",
      email: "ana@example.com",
    });
    expect(typeof message).toBe("string");
    expect(JSON.parse(message)).toEqual({
      event: "appContext",
      data: {
        conversation,
        contact: sender,
        currentAgent: { id: 5, name: "Ana Agent", email: "ana@example.com" },
      },
    });
  });

  test("only the agent's id, name and email go to the app", () => {
    const agent = { id: 5, name: "Ana", email: "ana@example.com", accounts: [{ id: 1 }], available_name: "A" };
    const data = JSON.parse(appContext(conversation as unknown as Conversation, agent)).data;
    expect(data.currentAgent).toEqual({ id: 5, name: "Ana", email: "ana@example.com" });
  });

  test("the request for it again is Chatwoot's exact string", () => {
    expect(FETCH_INFO).toBe("chatwoot-dashboard-app:fetch-info");
  });
});
