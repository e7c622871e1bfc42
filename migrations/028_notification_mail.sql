-- Notifications by email (the `email_*` flags of notification_settings): one row per notification
-- to mail, sent a minute after it was made unless the agent has read it by then. The row is the
-- mail's outbox, claimed before each attempt as email_outbox and password_resets are. A newer
-- notification of the same kind about the same conversation replaces the older one, and the cascade
-- takes the older one's mail with it: an agent gets one mail, not one per message.
CREATE TABLE notification_mail (
  notification_id INTEGER PRIMARY KEY REFERENCES notifications(id) ON DELETE CASCADE,
  account_id INTEGER NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
  user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  state TEXT NOT NULL DEFAULT 'pending' CHECK (state IN ('pending', 'sent', 'skipped', 'failed')),
  attempts INTEGER NOT NULL DEFAULT 0,
  next_attempt_at INTEGER NOT NULL,
  last_error TEXT,
  created_at INTEGER NOT NULL,
  sent_at INTEGER
) STRICT;
CREATE INDEX notification_mail_due ON notification_mail(state, next_attempt_at);
