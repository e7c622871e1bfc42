-- Custom attribute definitions (Chatwoot's): the account's own fields on contacts and
-- conversations, with a display type that values written through the API are checked against.
-- The key is unique per account and model.
CREATE TABLE custom_attribute_definitions (
  id INTEGER PRIMARY KEY,
  account_id INTEGER NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
  attribute_model TEXT NOT NULL CHECK (attribute_model IN ('conversation_attribute', 'contact_attribute')),
  attribute_key TEXT NOT NULL,
  attribute_display_name TEXT NOT NULL,
  attribute_display_type TEXT NOT NULL,
  attribute_description TEXT,
  attribute_values TEXT NOT NULL DEFAULT '[]',
  regex_pattern TEXT,
  regex_cue TEXT,
  default_value TEXT,
  position INTEGER NOT NULL,
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL
) STRICT;
CREATE UNIQUE INDEX custom_attribute_definitions_key ON custom_attribute_definitions(account_id, attribute_model, attribute_key);

-- Conversation participants (Chatwoot's): agents following a conversation besides its assignee.
CREATE TABLE conversation_participants (
  id INTEGER PRIMARY KEY,
  account_id INTEGER NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
  conversation_id INTEGER NOT NULL REFERENCES conversations(id) ON DELETE CASCADE,
  user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  created_at INTEGER NOT NULL
) STRICT;
CREATE UNIQUE INDEX conversation_participants_user ON conversation_participants(conversation_id, user_id);
CREATE INDEX conversation_participants_by_user ON conversation_participants(user_id);
