-- Agents' notifications (Chatwoot's notifications): one row per user and event that concerns them,
-- about a conversation (the primary actor). `data` keeps what the notification shows as it was when
-- it was made (title, the conversation's summary, the message or user that caused it), so listing
-- notifications reads no other table.
CREATE TABLE notifications (
  id INTEGER PRIMARY KEY,
  account_id INTEGER NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
  user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  notification_type TEXT NOT NULL,
  conversation_id INTEGER NOT NULL REFERENCES conversations(id) ON DELETE CASCADE,
  data TEXT NOT NULL,
  read_at INTEGER,
  created_at INTEGER NOT NULL,
  last_activity_at INTEGER NOT NULL
) STRICT;
-- A user's list, newest first; their unread count; a conversation's notifications (deletes, dedupe).
CREATE INDEX notifications_user ON notifications(user_id, account_id, last_activity_at DESC, id DESC);
CREATE INDEX notifications_unread ON notifications(user_id, account_id) WHERE read_at IS NULL;
CREATE INDEX notifications_conversation ON notifications(conversation_id, user_id);

-- Which notification types each user wants by email and as push/desktop notifications (Chatwoot's
-- notification_settings flags, kept as JSON arrays of type names). In-app notifications are always made.
CREATE TABLE notification_settings (
  account_id INTEGER NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
  user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  email_flags TEXT NOT NULL,
  push_flags TEXT NOT NULL,
  PRIMARY KEY (account_id, user_id)
) STRICT;
