-- Webhook subscriptions and their durable deliveries. A delivery row is written in the same
-- transaction as the event it carries, so no event is lost between commit and send; the job loop
-- sends it and records every attempt.

CREATE TABLE webhooks (
  id INTEGER PRIMARY KEY,
  account_id INTEGER NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
  -- Stored and shown as Chatwoot does; like Chatwoot it does not filter what is delivered.
  inbox_id INTEGER REFERENCES inboxes(id) ON DELETE SET NULL,
  url TEXT NOT NULL,
  name TEXT,
  -- JSON array of event kinds.
  subscriptions TEXT NOT NULL,
  -- Signing key (its UTF-8 bytes), kept in clear because every attempt is signed with it.
  secret TEXT NOT NULL,
  -- Set when the receiver answered 410 Gone; nothing is sent to a disabled webhook.
  disabled_reason TEXT,
  disabled_at INTEGER,
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL
) STRICT;
CREATE UNIQUE INDEX webhooks_account_url ON webhooks(account_id, url);

-- API inboxes sign their callbacks with their own secret (Chatwoot v4.13 keeps a separate one rather
-- than reusing hmac_token, so rotating one never breaks the other). Generated on first use.
ALTER TABLE inboxes ADD COLUMN webhook_secret TEXT;

CREATE TABLE webhook_deliveries (
  id INTEGER PRIMARY KEY,
  -- The X-Chatwoot-Delivery / webhook-id value: the receiver's idempotency key, stable across retries.
  delivery_id TEXT NOT NULL UNIQUE,
  account_id INTEGER NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
  -- NULL for an API inbox callback (then inbox_id names the inbox whose secret signs it).
  webhook_id INTEGER REFERENCES webhooks(id) ON DELETE CASCADE,
  inbox_id INTEGER,
  target_url TEXT NOT NULL,
  -- "webhook:<id>" or "inbox:<id>": who receives it (per-receiver concurrency cap).
  target_key TEXT NOT NULL,
  -- Deliveries with the same target_key and order_key (a "stream") go strictly one after another, in id
  -- order ("conversation:<id>", "contact:<id>", "inbox:<id>"); NULL = no ordering constraint.
  order_key TEXT,
  -- 1 while an earlier delivery of the same stream is pending; cleared when that one finishes. Keeping it
  -- explicit lets the job read only stream heads instead of skipping a whole backlog on every pass.
  blocked INTEGER NOT NULL DEFAULT 0,
  event_id INTEGER NOT NULL,
  event_kind TEXT NOT NULL,
  conversation_id INTEGER,
  -- The exact JSON body sent on every attempt.
  payload TEXT NOT NULL,
  status TEXT NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'delivered', 'failed')),
  attempts INTEGER NOT NULL DEFAULT 0,
  -- Attempts allowed in total; a manual redelivery of a finished delivery raises it by one.
  max_attempts INTEGER NOT NULL,
  next_attempt_at_ms INTEGER,
  last_status_code INTEGER,
  last_error TEXT,
  last_latency_ms INTEGER,
  created_at_ms INTEGER NOT NULL,
  updated_at_ms INTEGER NOT NULL
) STRICT;
-- Stream heads by receiver: the job lists receivers with a skip-scan, then takes each one's due heads.
CREATE INDEX webhook_deliveries_ready ON webhook_deliveries(target_key, next_attempt_at_ms, id) WHERE status = 'pending' AND blocked = 0;
CREATE INDEX webhook_deliveries_stream ON webhook_deliveries(target_key, order_key, id) WHERE status = 'pending';
CREATE INDEX webhook_deliveries_webhook ON webhook_deliveries(webhook_id, id);
CREATE INDEX webhook_deliveries_finished ON webhook_deliveries(updated_at_ms) WHERE status <> 'pending';

CREATE TABLE webhook_attempts (
  id INTEGER PRIMARY KEY,
  delivery_id INTEGER NOT NULL REFERENCES webhook_deliveries(id) ON DELETE CASCADE,
  attempt INTEGER NOT NULL,
  started_at_ms INTEGER NOT NULL,
  status_code INTEGER,
  latency_ms INTEGER NOT NULL,
  error TEXT,
  -- The first bytes of the receiver's answer, for debugging.
  response_excerpt TEXT
) STRICT;
CREATE INDEX webhook_attempts_delivery ON webhook_attempts(delivery_id, id);
