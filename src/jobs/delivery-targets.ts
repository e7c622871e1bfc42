// Where a webhook delivery goes and with which key it is signed, read at attempt time, so that a
// rotated secret or a changed URL applies to retries too. On PostgreSQL on the read pool.
import type { AgentBotsRepo } from "../db/agent-bots.repo.ts";
import { readSoon } from "../db/reads.ts";
import type { WriteTx } from "../db/tx.ts";
import type { DeliveryRow } from "../db/webhook-deliveries.repo.ts";
import type { WebhooksRepo } from "../db/webhooks.repo.ts";
import { AUTOMATION_TARGET_PREFIX } from "../domain/automation-executor.ts";
import { AGENT_BOT_TARGET_PREFIX } from "../events/listeners/agent-bots.listener.ts";
import { generateSecret } from "../lib/webhook-signature.ts";

export interface TargetDeps {
  agentBots: AgentBotsRepo;
  webhooks: WebhooksRepo;
  writeTx: WriteTx;
}

/** The URL and secret (null: unsigned); `refused` when the target may not be used; null when it is gone. */
export type DeliveryTarget = { url: string; secret: string | null } | { refused: string } | null;

export async function deliveryTarget(d: TargetDeps, row: DeliveryRow): Promise<DeliveryTarget> {
  // Automation rules' webhooks have no webhook record and so no secret: unsigned, as in Chatwoot.
  if (row.target_key.startsWith(AUTOMATION_TARGET_PREFIX)) return { url: row.target_url, secret: null };
  if (row.target_key.startsWith(AGENT_BOT_TARGET_PREFIX)) {
    const bot = await readSoon(d.agentBots.readById(Number(row.target_key.slice(AGENT_BOT_TARGET_PREFIX.length))));
    if (!bot?.outgoing_url) return { refused: "the agent bot no longer exists or has no outgoing_url" };
    return { url: bot.outgoing_url, secret: bot.secret };
  }
  if (row.webhook_id !== null) {
    const w = await readSoon(d.webhooks.readSigning(row.webhook_id));
    if (!w) return null; // deleted with its deliveries
    if (w.disabled_reason !== null) return { refused: `webhook disabled: ${w.disabled_reason}` };
    return { url: row.target_url, secret: w.secret };
  }
  const inbox =
    row.inbox_id === null ? null : await readSoon(d.webhooks.readApiInboxCallback(row.account_id, row.inbox_id));
  if (!inbox?.webhook_url) return { refused: "the inbox no longer exists or has no webhook_url" };
  let secret = inbox.webhook_secret;
  if (secret === null) {
    const made = generateSecret();
    await d.writeTx.steps(() => d.webhooks.setInboxSecretSteps(inbox.id, made));
    secret = made;
  }
  return { url: inbox.webhook_url, secret };
}
