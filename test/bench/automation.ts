// What automation costs: the engine's work per event (no rules, rules that do not match, rules that
// act), a label rename over many tagged conversations, and the idle job's minute over many idle
// conversations. Not a test: run with `node_modules/.bin/bun test/bench/automation.ts [conversations]`.
import { loadConfig } from "../../src/config.ts";
import { migrate } from "../../src/db/migrate.ts";
import { openDatabase } from "../../src/db/open.ts";
import { createDeps } from "../../src/deps.ts";
import { actingAs } from "../../src/domain/acting.ts";
import { ManualClock } from "../../src/lib/clock.ts";
import { createLogger } from "../../src/lib/logger.ts";
import { PasswordHasher } from "../../src/lib/passwords.ts";

const N = Number(process.argv[2] ?? 10_000);

async function setup() {
  const db = openDatabase(":memory:");
  migrate(db);
  const clock = new ManualClock();
  const d = createDeps({
    db,
    clock,
    config: loadConfig({}, {}),
    logger: createLogger("silent"),
    hasher: new PasswordHasher({ concurrency: 1, queue: 4, memoryCost: 1024, timeCost: 1 }),
  });
  const boot = await d.services.accounts.bootstrap({ account: "Bench", name: "Admin", email: "admin@bench.local" });
  const p = d.services.auth.account(boot.api_access_token, String(boot.account_id));
  const inbox = await d.services.inboxes.create(p, { name: "API", channel: { type: "api" } });
  const { contact } = await d.services.contacts.create(actingAs(p), { name: "Carla", email: "carla@example.com" });
  return { d, p, clock, inboxId: inbox.id, contactId: contact.id };
}

const ms = (t0: number) => (performance.now() - t0).toFixed(1);

async function perEvent(
  label: string,
  rules: (s: Awaited<ReturnType<typeof setup>>) => void | Promise<void>,
  count = 2000,
) {
  const s = await setup();
  await rules(s);
  const a = actingAs(s.p);
  const c = await s.d.services.conversations.create(a, { inbox_id: s.inboxId, contact_id: s.contactId });
  await s.d.bus.drain();
  const t0 = performance.now();
  for (let i = 0; i < count; i++) {
    s.clock.advance(1000); // stay under the flood guard
    await s.d.services.messages.create(a, s.d.repos.conversations.byId(c.id)!, {
      content: `message ${i} about my order`,
      message_type: "incoming",
    });
  }
  const writes = performance.now() - t0;
  const t1 = performance.now();
  await s.d.bus.drain();
  const drain = performance.now() - t1;
  const events = (s.d.db.query("SELECT count(*) AS n FROM events").get() as { n: number }).n;
  console.log(
    `${label}: ${count} incoming messages written in ${writes.toFixed(0)} ms; engine drained ${events} events in ${drain.toFixed(0)} ms (${((drain * 1000) / count).toFixed(0)} µs per message)`,
  );
}

function addRules(n: number, matching: boolean) {
  return async (s: Awaited<ReturnType<typeof setup>>) => {
    await s.d.services.labels.create(s.p, { title: "billing" });
    for (let i = 0; i < n; i++) {
      await s.d.services.automationRules.create(s.p, {
        name: `rule ${i}`,
        event_name: "message_created",
        conditions: [
          { attribute_key: "content", filter_operator: "contains", values: [matching ? "order" : `refund${i}`] },
        ],
        actions: [{ action_name: "add_label", action_params: ["billing"] }],
      });
    }
  };
}

async function rename() {
  const s = await setup();
  const a = actingAs(s.p);
  const label = await s.d.services.labels.create(s.p, { title: "billing" });
  const t0 = performance.now();
  for (let i = 0; i < N; i++) {
    const row = await s.d.services.conversations.create(a, { inbox_id: s.inboxId, contact_id: s.contactId });
    s.d.repos.labels.replace("conversation", row.id, row.account_id, ["vip", "billing"]);
  }
  console.log(`seeded ${N} tagged conversations in ${ms(t0)} ms`);
  const t1 = performance.now();
  await s.d.services.labels.update(s.p, label.id, { title: "finance" });
  console.log(`label rename over ${N} conversations (one conversation_updated each): ${ms(t1)} ms`);
  const t2 = performance.now();
  await s.d.services.labels.delete(s.p, label.id);
  console.log(`label delete over ${N} conversations: ${ms(t2)} ms`);
}

async function idle() {
  const s = await setup();
  const a = actingAs(s.p);
  for (let i = 0; i < N; i++)
    await s.d.services.conversations.create(a, { inbox_id: s.inboxId, contact_id: s.contactId });
  await s.d.services.labels.create(s.p, { title: "stale" });
  await s.d.services.automationRules.create(s.p, {
    name: "idle",
    event_name: "conversation_idle",
    conditions: [{ attribute_key: "idle_minutes", filter_operator: "is_greater_than", values: [30] }],
    actions: [{ action_name: "add_label", action_params: ["stale"] }],
  });
  s.clock.advance(60 * 60_000);
  let runs = 0;
  const t0 = performance.now();
  for (;;) {
    const t = performance.now();
    const n = await s.d.services.automation.runIdle();
    runs++;
    if (runs === 1) console.log(`idle job, first minute: ${n} conversations acted on in ${ms(t)} ms`);
    if (n === 0) {
      console.log(
        `idle job: ${N} idle conversations worked through in ${runs - 1} runs (${ms(t0)} ms); a run with nothing new: ${ms(t)} ms`,
      );
      break;
    }
  }
}

await perEvent("no rules", () => {});
await perEvent("10 rules, none matching", addRules(10, false));
await perEvent("10 rules, all matching (add_label)", addRules(10, true), 500);
await rename();
await idle();
