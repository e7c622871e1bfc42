// The website chat's size budget, checked on what the server sends (gzip, as browsers ask for
// it): the loader every page of the customer's site downloads at most 10 KB, the chat page with
// its scripts and styles at most 60 KB. A failing check, not a timing.
import { expect, test } from "bun:test";
import { createHarness } from "../helpers/harness.ts";
import { widgetAssets } from "../../src/http/widget-page.routes.ts";

const KB = 1024;

test("the loader /packs/js/sdk.js is at most 10 KB gzipped", async () => {
  const h = createHarness();
  const res = await h.app.handle(
    new Request("http://localhost/packs/js/sdk.js", { headers: { "accept-encoding": "gzip" } }),
  );
  expect(res.headers.get("content-encoding")).toBe("gzip");
  const size = (await res.arrayBuffer()).byteLength;
  expect(size).toBeGreaterThan(1 * KB);
  expect(size).toBeLessThanOrEqual(10 * KB);
});

test("the chat page, its scripts and styles are at most 60 KB gzipped together", async () => {
  const built = await widgetAssets();
  const files = [...built.files.values()];
  expect(files.map((f) => f.type.split(";")[0]).sort()).toEqual(["text/css", "text/javascript"]);
  const total = files.reduce((n, f) => n + f.gzip.byteLength, built.html.gzip.byteLength);
  expect(total).toBeLessThanOrEqual(60 * KB);
});
