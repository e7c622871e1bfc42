-- Account labels (the list the sidebar and automation rules choose from) and automation rules.
-- Conversations and contacts keep their labels as free-form titles (conversation_labels,
-- contact_labels): a label record is not required to tag something, as in Chatwoot; renaming or
-- deleting a label record re-tags or untags what carries its title.

CREATE TABLE labels (
  id INTEGER PRIMARY KEY,
  account_id INTEGER NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
  -- Lower-cased before it is stored, so the unique index is also case-insensitive.
  title TEXT NOT NULL,
  description TEXT,
  color TEXT NOT NULL DEFAULT '#1f93ff',
  show_on_sidebar INTEGER NOT NULL DEFAULT 0,
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL
) STRICT;
CREATE UNIQUE INDEX labels_account_title ON labels(account_id, title);

CREATE TABLE automation_rules (
  id INTEGER PRIMARY KEY,
  account_id INTEGER NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
  name TEXT NOT NULL,
  description TEXT,
  event_name TEXT NOT NULL,
  -- JSON arrays, as submitted (after the validator's normalisation).
  conditions TEXT NOT NULL,
  actions TEXT NOT NULL,
  active INTEGER NOT NULL DEFAULT 1,
  -- Consecutive failing runs (evaluation error or a failing action); reset by a clean run.
  failure_count INTEGER NOT NULL DEFAULT 0,
  last_error TEXT,
  -- Why the engine switched the rule off (NULL when active, or when an administrator switched it off).
  disabled_reason TEXT,
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL
) STRICT;
CREATE INDEX automation_rules_account ON automation_rules(account_id, id);
-- The idle scheduler reads every active conversation_idle rule each minute.
CREATE INDEX automation_rules_event_active ON automation_rules(event_name) WHERE active = 1;

-- conversation_idle: the last time a rule was evaluated for a conversation, and the conversation's
-- last_activity_at right after (its own actions included), so a rule acts once per idle period.
CREATE TABLE automation_idle_fires (
  rule_id INTEGER NOT NULL REFERENCES automation_rules(id) ON DELETE CASCADE,
  conversation_id INTEGER NOT NULL REFERENCES conversations(id) ON DELETE CASCADE,
  last_activity_at INTEGER NOT NULL,
  fired_at INTEGER NOT NULL,
  PRIMARY KEY (rule_id, conversation_id)
) STRICT, WITHOUT ROWID;
CREATE INDEX automation_idle_fires_conversation ON automation_idle_fires(conversation_id);
