// Test helper process (not a test): runs the real server with startServer and, for each stdin line
// "emit <account_id> <conversation_id> <first_message_id> <count>", records that many message_created
// events through the outbox inside writeTx, as a service would. No route on this branch emits events
// yet, so this is how the e2e test makes them. "drain" sends what is due, waits until no attempt is
// in flight and its outcome committed, and prints "drained"; SIGTERM prints "stopping" before the
// server stops. Usage: bun test/e2e/webhook-server.ts <database>
import { loadConfig } from "../../src/config.ts";
import { startServer } from "../../src/server.ts";

const server = await startServer(loadConfig({ db: process.argv[2], port: "0" }), (line) => console.log(line));
process.once("SIGTERM", async () => {
  console.log("stopping");
  await server.stop();
  process.exit(0);
});

const { deps } = server;
for await (const line of console) {
  const [cmd, account, conversation, first, count] = line
    .trim()
    .split(/\s+/)
    .map((x, i) => (i === 0 ? x : Number(x)));
  if (cmd === "drain") {
    await deps.deliverer.drain();
    deps.commits.flush();
    console.log("drained");
    continue;
  }
  if (cmd !== "emit") continue;
  const ids = deps.writeTx.now(() =>
    Array.from(
      { length: count as number },
      (_, i) =>
        deps.outbox.record({
          kind: "message_created",
          accountId: account as number,
          actor: { type: "system", id: null },
          conversationId: conversation as number,
          payload: {
            id: (first as number) + i,
            content: `message ${(first as number) + i}`,
            conversation: { id: conversation },
          },
        }).id,
    ),
  );
  console.log(`emitted ${ids.join(",")}`);
}
