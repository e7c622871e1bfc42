-- Contacts, their identities per inbox, conversations, messages, labels on both, and the
-- bookkeeping around them (per-account counters, idempotency keys).

-- Empty email/phone/identifier are stored as NULL, so "resolved" (has any of the three) is a plain
-- NOT NULL test and the partial unique indexes ignore contacts without them.
CREATE TABLE contacts (
  id INTEGER PRIMARY KEY,
  account_id INTEGER NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
  -- NOCASE: Chatwoot sorts contacts by lower(name); the index below serves that sort and short-term search.
  name TEXT NOT NULL DEFAULT '' COLLATE NOCASE,
  email TEXT,
  phone_number TEXT,
  identifier TEXT,
  -- additional_attributes.company_name copied out, so search can index it.
  company_name TEXT COLLATE NOCASE,
  blocked INTEGER NOT NULL DEFAULT 0,
  avatar_url TEXT,
  additional_attributes TEXT NOT NULL DEFAULT '{}',
  custom_attributes TEXT NOT NULL DEFAULT '{}',
  last_activity_at INTEGER,
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL
) STRICT;
CREATE UNIQUE INDEX contacts_account_email ON contacts(account_id, email) WHERE email IS NOT NULL;
CREATE UNIQUE INDEX contacts_account_phone ON contacts(account_id, phone_number) WHERE phone_number IS NOT NULL;
CREATE UNIQUE INDEX contacts_account_identifier ON contacts(account_id, identifier) WHERE identifier IS NOT NULL;
-- Lists, sorts and short-term search only ever look at resolved contacts: partial indexes on
-- exactly that condition (queries repeat it verbatim so the planner can use them).
CREATE INDEX contacts_resolved_name ON contacts(account_id, name)
  WHERE email IS NOT NULL OR phone_number IS NOT NULL OR identifier IS NOT NULL;
CREATE INDEX contacts_resolved_company ON contacts(account_id, company_name)
  WHERE email IS NOT NULL OR phone_number IS NOT NULL OR identifier IS NOT NULL;
CREATE INDEX contacts_resolved_activity ON contacts(account_id, last_activity_at)
  WHERE email IS NOT NULL OR phone_number IS NOT NULL OR identifier IS NOT NULL;

-- Contact search (DESIGN.md §5): trigram FTS5 answers substring queries from an index instead of
-- scanning. Contentless (the values live in contacts) with contentless_delete so triggers can
-- drop a row by id. Only resolved contacts are indexed: search never returns the others.
-- Name, email, phone and company match case-insensitively; identifier matches exact-case, hence
-- its own case-sensitive table.
CREATE VIRTUAL TABLE contacts_search USING fts5(
  name, email, phone_number, company_name,
  content = '', contentless_delete = 1, tokenize = 'trigram'
);
CREATE VIRTUAL TABLE contacts_identifier_search USING fts5(
  identifier,
  content = '', contentless_delete = 1, tokenize = 'trigram case_sensitive 1'
);

CREATE TRIGGER contacts_search_insert AFTER INSERT ON contacts
WHEN new.email IS NOT NULL OR new.phone_number IS NOT NULL OR new.identifier IS NOT NULL
BEGIN
  INSERT INTO contacts_search (rowid, name, email, phone_number, company_name)
  VALUES (new.id, new.name, new.email, new.phone_number, new.company_name);
  INSERT INTO contacts_identifier_search (rowid, identifier) VALUES (new.id, new.identifier);
END;

-- Only the searched columns re-index: last_activity_at changes on every incoming message.
CREATE TRIGGER contacts_search_update AFTER UPDATE OF name, email, phone_number, identifier, company_name ON contacts
BEGIN
  DELETE FROM contacts_search WHERE rowid = old.id;
  DELETE FROM contacts_identifier_search WHERE rowid = old.id;
  INSERT INTO contacts_search (rowid, name, email, phone_number, company_name)
  SELECT new.id, new.name, new.email, new.phone_number, new.company_name
  WHERE new.email IS NOT NULL OR new.phone_number IS NOT NULL OR new.identifier IS NOT NULL;
  INSERT INTO contacts_identifier_search (rowid, identifier)
  SELECT new.id, new.identifier
  WHERE new.email IS NOT NULL OR new.phone_number IS NOT NULL OR new.identifier IS NOT NULL;
END;

CREATE TRIGGER contacts_search_delete AFTER DELETE ON contacts
BEGIN
  DELETE FROM contacts_search WHERE rowid = old.id;
  DELETE FROM contacts_identifier_search WHERE rowid = old.id;
END;

CREATE TABLE contact_labels (
  id INTEGER PRIMARY KEY,
  contact_id INTEGER NOT NULL REFERENCES contacts(id) ON DELETE CASCADE,
  account_id INTEGER NOT NULL,
  title TEXT NOT NULL
) STRICT;
CREATE UNIQUE INDEX contact_labels_contact_title ON contact_labels(contact_id, title);
CREATE INDEX contact_labels_account_title ON contact_labels(account_id, title);

-- A contact's identity in one inbox (Chatwoot's contact_inbox): source_id is the public API's
-- contact_identifier, unique within the inbox.
CREATE TABLE contact_inboxes (
  id INTEGER PRIMARY KEY,
  contact_id INTEGER NOT NULL REFERENCES contacts(id) ON DELETE CASCADE,
  inbox_id INTEGER NOT NULL REFERENCES inboxes(id) ON DELETE CASCADE,
  source_id TEXT NOT NULL,
  pubsub_token TEXT NOT NULL UNIQUE,
  hmac_verified INTEGER NOT NULL DEFAULT 0,
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL
) STRICT;
CREATE UNIQUE INDEX contact_inboxes_inbox_source ON contact_inboxes(inbox_id, source_id);
CREATE INDEX contact_inboxes_contact ON contact_inboxes(contact_id, inbox_id);

-- Per-account sequences (conversation display ids): one row per (account, name), bumped inside the
-- creating transaction, so numbers start at 1 and are never reused, even after deletes.
CREATE TABLE account_counters (
  account_id INTEGER NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
  name TEXT NOT NULL,
  value INTEGER NOT NULL,
  PRIMARY KEY (account_id, name)
) STRICT, WITHOUT ROWID;

CREATE TABLE conversations (
  id INTEGER PRIMARY KEY,
  account_id INTEGER NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
  -- The id on the wire and in paths (Chatwoot's display_id).
  display_id INTEGER NOT NULL,
  uuid TEXT NOT NULL UNIQUE,
  inbox_id INTEGER NOT NULL REFERENCES inboxes(id) ON DELETE CASCADE,
  contact_id INTEGER NOT NULL REFERENCES contacts(id) ON DELETE CASCADE,
  contact_inbox_id INTEGER NOT NULL REFERENCES contact_inboxes(id) ON DELETE CASCADE,
  status TEXT NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'resolved', 'pending', 'snoozed')),
  priority TEXT CHECK (priority IN ('low', 'medium', 'high', 'urgent')),
  assignee_id INTEGER REFERENCES users(id) ON DELETE SET NULL,
  team_id INTEGER REFERENCES teams(id) ON DELETE SET NULL,
  snoozed_until INTEGER,
  waiting_since INTEGER,
  first_reply_created_at INTEGER,
  agent_last_seen_at INTEGER,
  assignee_last_seen_at INTEGER,
  contact_last_seen_at INTEGER,
  last_activity_at INTEGER NOT NULL,
  additional_attributes TEXT NOT NULL DEFAULT '{}',
  custom_attributes TEXT NOT NULL DEFAULT '{}',
  created_at INTEGER NOT NULL,
  -- Chatwoot shows updated_at as float seconds; milliseconds keep that precision.
  updated_at_ms INTEGER NOT NULL
) STRICT;
CREATE UNIQUE INDEX conversations_account_display ON conversations(account_id, display_id);
-- Every message moves last_activity_at, so only the two list orders carry it.
CREATE INDEX conversations_account_status_activity ON conversations(account_id, status, last_activity_at);
CREATE INDEX conversations_account_activity ON conversations(account_id, last_activity_at);
CREATE INDEX conversations_inbox_status ON conversations(inbox_id, status);
CREATE INDEX conversations_contact ON conversations(contact_id);
CREATE INDEX conversations_contact_inbox ON conversations(contact_inbox_id);
CREATE INDEX conversations_assignee ON conversations(assignee_id) WHERE assignee_id IS NOT NULL;
CREATE INDEX conversations_team ON conversations(team_id) WHERE team_id IS NOT NULL;
CREATE INDEX conversations_snoozed ON conversations(snoozed_until) WHERE status = 'snoozed' AND snoozed_until IS NOT NULL;

-- Free-form label titles per conversation (no label record needed, as in Chatwoot), in the order added.
CREATE TABLE conversation_labels (
  id INTEGER PRIMARY KEY,
  conversation_id INTEGER NOT NULL REFERENCES conversations(id) ON DELETE CASCADE,
  account_id INTEGER NOT NULL,
  title TEXT NOT NULL
) STRICT;
CREATE UNIQUE INDEX conversation_labels_conversation_title ON conversation_labels(conversation_id, title);
CREATE INDEX conversation_labels_account_title ON conversation_labels(account_id, title);

CREATE TABLE messages (
  id INTEGER PRIMARY KEY,
  account_id INTEGER NOT NULL,
  inbox_id INTEGER NOT NULL,
  conversation_id INTEGER NOT NULL REFERENCES conversations(id) ON DELETE CASCADE,
  -- 0 incoming, 1 outgoing, 2 activity, 3 template (Chatwoot's integers, emitted as such by the API).
  message_type INTEGER NOT NULL CHECK (message_type IN (0, 1, 2, 3)),
  content TEXT,
  content_type TEXT NOT NULL DEFAULT 'text',
  content_attributes TEXT NOT NULL DEFAULT '{}',
  additional_attributes TEXT NOT NULL DEFAULT '{}',
  external_source_ids TEXT NOT NULL DEFAULT '{}',
  private INTEGER NOT NULL DEFAULT 0,
  status TEXT NOT NULL DEFAULT 'sent' CHECK (status IN ('sent', 'delivered', 'read', 'failed')),
  source_id TEXT,
  echo_id TEXT,
  sender_type TEXT CHECK (sender_type IN ('User', 'Contact', 'AgentBot')),
  sender_id INTEGER,
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL
) STRICT;
-- Message pages and "the latest" are "this conversation, by id".
CREATE INDEX messages_conversation ON messages(conversation_id, id);
-- "This conversation since a time": the flood window (last minute) and unread counts (incoming
-- since the agent last looked), both answered from index entries alone.
CREATE INDEX messages_conversation_time ON messages(conversation_id, created_at, message_type);

-- Idempotency-Key of message creation: a retry returns the first result instead of a duplicate.
CREATE TABLE idempotency_keys (
  account_id INTEGER NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
  key TEXT NOT NULL,
  conversation_id INTEGER NOT NULL,
  message_id INTEGER NOT NULL,
  created_at INTEGER NOT NULL,
  PRIMARY KEY (account_id, key)
) STRICT, WITHOUT ROWID;
CREATE INDEX idempotency_keys_created ON idempotency_keys(created_at);
