// The website chat's page and loader as the server sends them: the inbox's public settings in a
// JSON block (escaped, nothing secret), frame-ancestors from the allowed origins, the loader.
import { describe, expect, test } from "bun:test";
import { widgetWorld } from "../helpers/widget-fixtures.ts";

describe("/widget", () => {
  test("carries the public settings and may be framed only by the allowed origins", async () => {
    const w = await widgetWorld({
      allowed_origins: ["https://shop.example.com", "http://localhost:8080"],
      welcome_title: "</script><script>alert(1)</script>",
    });
    const r = await w.h.request("GET", `/widget?website_token=${w.websiteToken}`);
    expect(r.status).toBe(200);
    expect(r.headers.get("content-security-policy")).toContain(
      "frame-ancestors 'self' https://shop.example.com http://localhost:8080",
    );
    expect(r.headers.get("x-frame-options")).toBeNull();
    const json = /<script type="application\/json" id="parley-config">(.*?)<\/script>/.exec(r.text)![1]!;
    expect(json).not.toContain("<");
    const config = JSON.parse(json);
    expect([config.website_token, config.welcome_title]).toEqual([
      w.websiteToken,
      "</script><script>alert(1)</script>",
    ]);
    expect(r.text).not.toContain(w.inbox.hmac_token!);
    expect(r.text).toMatch(/<script type="module" crossorigin src="\/widget\/assets\/[\w-]+\.js">/);
  });

  test("without allowed origins only website_url's origin may frame it; a wrong token is 404", async () => {
    const w = await widgetWorld({ website_url: "https://www.example.org/shop" });
    const r = await w.h.request("GET", `/widget?website_token=${w.websiteToken}`);
    expect(r.headers.get("content-security-policy")).toMatch(/frame-ancestors 'self' https:\/\/www\.example\.org$/);
    expect((await w.h.request("GET", "/widget?website_token=nope")).status).toBe(404);
  });
});

describe("inbox settings", () => {
  test("pre-chat form and allowed origins are kept and shown with Chatwoot's names; bad ones are 422 and change nothing", async () => {
    const w = await widgetWorld();
    const path = `${w.api}/inboxes/${w.inbox.id}`;
    const fields = [
      { name: "emailAddress", label: "Email", type: "email", field_type: "standard", required: true, enabled: true },
      {
        name: "plan",
        label: "Plan",
        type: "list",
        field_type: "conversation_attribute",
        required: false,
        enabled: true,
        values: ["free", "pro"],
      },
    ];
    const ok = await w.h.request("PATCH", path, {
      token: w.a.adminToken,
      body: {
        channel: {
          pre_chat_form_enabled: true,
          pre_chat_form_options: { pre_chat_message: "Hi", pre_chat_fields: fields },
          allowed_origins: ["https://Shop.Example.com/path"],
        },
      },
    });
    expect(ok.status).toBe(200);
    expect([
      ok.body.pre_chat_form_enabled,
      ok.body.pre_chat_form_options.pre_chat_fields,
      ok.body.allowed_origins,
    ]).toEqual([true, fields, ["https://shop.example.com"]]);
    const bad = await w.h.request("PATCH", path, {
      token: w.a.adminToken,
      body: {
        channel: {
          allowed_origins: ["javascript:alert(1)"],
          pre_chat_form_options: { pre_chat_fields: [{ name: "a b" }] },
        },
      },
    });
    expect(bad.status).toBe(422);
    expect(bad.body.errors.map((e: any) => e.field).sort()).toEqual([
      "channel.allowed_origins.0",
      "channel.pre_chat_form_options.pre_chat_fields.0.name",
    ]);
    const after = await w.h.request("GET", path, { token: w.a.adminToken });
    expect(after.body.allowed_origins).toEqual(["https://shop.example.com"]);
  });
});

test("/packs/js/sdk.js is the loader, cacheable, loadable from any site", async () => {
  const w = await widgetWorld();
  const r = await w.h.request("GET", "/packs/js/sdk.js");
  expect([r.status, r.headers.get("content-type"), r.headers.get("access-control-allow-origin")]).toEqual([
    200,
    "text/javascript; charset=utf-8",
    "*",
  ]);
  expect(r.text).toContain("window.chatwootSDK");
});
