-- Attachments (Chatwoot's): files on messages. The bytes live in the file store under
-- `storage_key` (disk: the content's SHA-256, shared by identical files; S3: one object each).
-- `messages.attachments` keeps a JSON copy of a message's attachment records, written in the same
-- transaction, so every place that shows a message has them without another query.
CREATE TABLE attachments (
  id INTEGER PRIMARY KEY,
  account_id INTEGER NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
  conversation_id INTEGER NOT NULL REFERENCES conversations(id) ON DELETE CASCADE,
  message_id INTEGER NOT NULL REFERENCES messages(id) ON DELETE CASCADE,
  file_type TEXT NOT NULL,
  content_type TEXT NOT NULL,
  filename TEXT NOT NULL,
  extension TEXT,
  storage_key TEXT NOT NULL,
  file_size INTEGER NOT NULL,
  width INTEGER,
  height INTEGER,
  created_at INTEGER NOT NULL
) STRICT;
CREATE INDEX attachments_message ON attachments(message_id);
CREATE INDEX attachments_conversation ON attachments(conversation_id, id);
CREATE INDEX attachments_storage_key ON attachments(storage_key);

ALTER TABLE messages ADD COLUMN attachments TEXT;

-- Secrets the server makes for itself (the key that signs attachment links), kept with the data
-- so a restart or a restored backup keeps the links it handed out valid.
CREATE TABLE server_secrets (
  name TEXT PRIMARY KEY,
  value TEXT NOT NULL
) STRICT;
