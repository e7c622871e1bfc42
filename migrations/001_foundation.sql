-- Foundation: accounts, users and their membership, access tokens, and the events outbox.
-- Timestamps are Unix seconds unless the column name ends in _ms.

CREATE TABLE accounts (
  id INTEGER PRIMARY KEY,
  name TEXT NOT NULL,
  locale TEXT NOT NULL DEFAULT 'en',
  status TEXT NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'suspended')),
  custom_attributes TEXT NOT NULL DEFAULT '{}',
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL
) STRICT;

CREATE TABLE users (
  id INTEGER PRIMARY KEY,
  name TEXT NOT NULL,
  display_name TEXT,
  email TEXT NOT NULL COLLATE NOCASE UNIQUE,
  password_hash TEXT,
  pubsub_token TEXT NOT NULL UNIQUE,
  confirmed INTEGER NOT NULL DEFAULT 1,
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL
) STRICT;

-- A user's membership of an account carries the role and the per-account agent settings.
CREATE TABLE account_users (
  account_id INTEGER NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
  user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  role TEXT NOT NULL DEFAULT 'agent' CHECK (role IN ('agent', 'administrator')),
  availability TEXT NOT NULL DEFAULT 'online' CHECK (availability IN ('online', 'offline', 'busy')),
  auto_offline INTEGER NOT NULL DEFAULT 1,
  created_at INTEGER NOT NULL,
  PRIMARY KEY (account_id, user_id)
) STRICT;
CREATE INDEX account_users_user ON account_users(user_id);

-- Only SHA-256 hashes of tokens are stored; a token is shown once, when issued.
CREATE TABLE access_tokens (
  id INTEGER PRIMARY KEY,
  token_hash TEXT NOT NULL UNIQUE,
  owner_type TEXT NOT NULL CHECK (owner_type IN ('user', 'platform_app')),
  owner_id INTEGER NOT NULL,
  created_at INTEGER NOT NULL
) STRICT;
CREATE INDEX access_tokens_owner ON access_tokens(owner_type, owner_id);

-- The outbox: services insert events in the same transaction as the change that caused them.
-- conversation_id/contact_id/inbox_id are internal ids, kept without foreign keys so that events
-- outlive the records they describe (a deleted contact's contact_updated must still be delivered).
CREATE TABLE events (
  id INTEGER PRIMARY KEY,
  account_id INTEGER NOT NULL,
  kind TEXT NOT NULL,
  actor_type TEXT NOT NULL CHECK (actor_type IN ('user', 'contact', 'automation', 'system', 'platform_app')),
  actor_id INTEGER,
  inbox_id INTEGER,
  conversation_id INTEGER,
  contact_id INTEGER,
  private INTEGER NOT NULL DEFAULT 0,
  payload TEXT NOT NULL,
  created_at_ms INTEGER NOT NULL
) STRICT;
CREATE INDEX events_account ON events(account_id, id);

-- Each durable listener remembers the last event it finished; after a restart it resumes there.
CREATE TABLE listener_cursors (
  name TEXT PRIMARY KEY,
  last_event_id INTEGER NOT NULL
) STRICT;
