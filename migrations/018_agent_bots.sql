-- Agent bots (Chatwoot's): a bot of an account, or of the platform (account_id NULL, created by a
-- platform app), connected to inboxes. Its access_token acts on the account API as the bot, within
-- a few endpoints; its secret signs the deliveries to its outgoing_url.
CREATE TABLE agent_bots (
  id INTEGER PRIMARY KEY,
  account_id INTEGER REFERENCES accounts(id) ON DELETE CASCADE,
  platform_app_id INTEGER REFERENCES platform_apps(id) ON DELETE CASCADE,
  name TEXT NOT NULL,
  description TEXT,
  outgoing_url TEXT,
  avatar_url TEXT,
  bot_type TEXT NOT NULL DEFAULT 'webhook',
  bot_config TEXT NOT NULL DEFAULT '{}',
  access_token TEXT NOT NULL UNIQUE,
  secret TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL
) STRICT;
CREATE INDEX agent_bots_account ON agent_bots(account_id);

-- One bot per inbox (Chatwoot's agent_bot_inboxes).
CREATE TABLE agent_bot_inboxes (
  inbox_id INTEGER PRIMARY KEY REFERENCES inboxes(id) ON DELETE CASCADE,
  agent_bot_id INTEGER NOT NULL REFERENCES agent_bots(id) ON DELETE CASCADE,
  account_id INTEGER NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
  created_at INTEGER NOT NULL
) STRICT;
CREATE INDEX agent_bot_inboxes_bot ON agent_bot_inboxes(agent_bot_id);

-- Events now name a bot as their actor: the table is rebuilt with 'agent_bot' allowed (SQLite
-- cannot change a CHECK in place). Ids and rows are kept, so cursors and realtime seqs stay valid.
CREATE TABLE events_new (
  id INTEGER PRIMARY KEY,
  account_id INTEGER NOT NULL,
  kind TEXT NOT NULL,
  actor_type TEXT NOT NULL CHECK (actor_type IN ('user', 'contact', 'automation', 'system', 'platform_app', 'agent_bot')),
  actor_id INTEGER,
  inbox_id INTEGER,
  conversation_id INTEGER,
  contact_id INTEGER,
  private INTEGER NOT NULL DEFAULT 0,
  payload TEXT NOT NULL,
  created_at_ms INTEGER NOT NULL
) STRICT;
INSERT INTO events_new SELECT id, account_id, kind, actor_type, actor_id, inbox_id, conversation_id, contact_id, private, payload, created_at_ms FROM events;
DROP TABLE events;
ALTER TABLE events_new RENAME TO events;
CREATE INDEX events_account ON events(account_id, id);
CREATE INDEX events_seq ON events(id);
