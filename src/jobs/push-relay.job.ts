// Sends queued mobile pushes to the push relay (PARLEY_PUSH_RELAY_URL) in Chatwoot's hub protocol:
// POST {fcm_options: <an FCM v1 message for one device>, installation_identifier, …}. The relay
// (Chatwoot's hub holds the mobile app's Firebase key) hands it to FCM. The app reads the
// notification from data.payload, a JSON string of {data: {notification}}, and opens the
// conversation `primary_actor.id` names. Each push is claimed before it is sent; a 5xx, a timeout
// or a refused connection retries with backoff, a 4xx other than 429 gives up; ten attempts at most.
import type { Lease } from "../lib/lease.ts";
import type { ConversationsRepo } from "../db/conversations.repo.ts";
import type { DuePush, PushRepo } from "../db/push.repo.ts";
import { readSoon } from "../db/reads.ts";
import type { WriteTx } from "../db/tx.ts";
import { unixSeconds, type Clock } from "../lib/clock.ts";
import type { Logger } from "../lib/logger.ts";
import { OutboxSender } from "../lib/pump.ts";
import { mentionsAsText } from "../shared/mentions.ts";

const IN_FLIGHT_SECONDS = 120;
const CONCURRENCY = 4;
const TIMEOUT_MS = 10_000;
const MAX_ATTEMPTS = 10;

export interface PushRelayDeps {
  /** Only the lease's holder sends (several processes: src/lib/lease.ts). */
  lease?: Lease;
  push: PushRepo;
  conversations: ConversationsRepo;
  writeTx: WriteTx;
  clock: Clock;
  logger: Logger;
  /** Null: no relay configured, nothing is sent (and nothing is queued). */
  relayUrl: string | null;
  /** Chatwoot's instance_config: who is asking the relay. */
  installation: { identifier: string; version: string; host: () => string };
}

export class PushRelay extends OutboxSender<DuePush> {
  constructor(private readonly d: PushRelayDeps) {
    super({
      name: "push",
      due: (limit) => (d.relayUrl ? readSoon(d.push.readDue(unixSeconds(d.clock), limit)) : []),
      keyField: "id",
      logKey: "push_id",
      concurrency: CONCURRENCY,
      lease: d.lease,
      logger: d.logger,
    });
  }

  protected async send(row: DuePush): Promise<void> {
    const now = unixSeconds(this.d.clock);
    if (!(await this.d.writeTx.steps(() => this.d.push.recordAttemptSteps(row.id, now, now + IN_FLIGHT_SECONDS))))
      return;
    const conversation = await readSoon(this.d.conversations.readById(row.conversation_id));
    if (!conversation) return this.finish(row, "failed", "the conversation is gone");
    const body = JSON.stringify({
      fcm_options: fcmMessage(row, conversation.display_id, now),
      installation_identifier: this.d.installation.identifier,
      installation_version: this.d.installation.version,
      installation_host: this.d.installation.host(),
      installation_env: "",
      edition: "parley",
    });
    let problem: string;
    let retry = true;
    try {
      const r = await fetch(this.d.relayUrl!, {
        method: "POST",
        headers: { "content-type": "application/json", accept: "application/json" },
        body,
        signal: AbortSignal.timeout(TIMEOUT_MS),
      });
      await r.arrayBuffer();
      // Awaited here, so that a failed write is handled as before: by the catch below.
      if (r.ok) return await this.finish(row, "sent", null);
      problem = `the push relay answered ${r.status}`;
      retry = r.status >= 500 || r.status === 429;
    } catch (error) {
      problem = `the push relay could not be reached: ${error instanceof Error ? error.message : String(error)}`;
    }
    const attempts = row.attempts + 1;
    if (!retry || attempts >= MAX_ATTEMPTS) return this.finish(row, "failed", problem);
    this.d.logger.warn("push failed; will retry", { push_id: row.id, attempts, error: problem });
    const retryAt = unixSeconds(this.d.clock) + Math.min(3600, 15 * 2 ** (attempts - 1));
    await this.d.writeTx.steps(() => this.d.push.retryAtSteps(row.id, retryAt, problem));
  }

  private async finish(row: DuePush, state: "sent" | "failed", error: string | null): Promise<void> {
    if (error) this.d.logger.warn("push given up", { push_id: row.id, error });
    await this.d.writeTx.steps(() => this.d.push.finishSteps(row.id, state, unixSeconds(this.d.clock), error));
  }
}

/** The FCM v1 message Chatwoot builds for one device (Notification::PushNotificationService#fcm_options). */
export function fcmMessage(row: DuePush, displayId: number, now: number) {
  const data = JSON.parse(row.data) as { push_message_title?: string; secondary_actor?: { content?: unknown } | null };
  const content = data.secondary_actor?.content;
  const notification = {
    id: row.notification_id,
    notification_type: row.notification_type,
    primary_actor_id: row.conversation_id,
    primary_actor_type: "Conversation",
    primary_actor: { id: displayId },
  };
  return {
    token: row.push_token,
    data: { payload: JSON.stringify({ data: { notification } }) },
    notification: {
      title: data.push_message_title ?? "",
      body: typeof content === "string" ? mentionsAsText(content).slice(0, 200) : "",
    },
    android: { priority: "high" },
    apns: { payload: { aps: { sound: "default", category: String(now) } } },
    fcm_options: { analytics_label: "Label" },
  };
}
