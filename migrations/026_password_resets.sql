-- Password resets by mail (POST /auth/password): at most one live reset per user, replaced by a new
-- request. The link's token is stored as its SHA-256 (a copy of the database opens no account) and,
-- until the mail has gone, sealed with the server's secret key so the sender can write the link;
-- the sealed copy is erased once the mail is sent or given up. The row is also the mail's outbox:
-- claimed before each attempt, so a crash mid-send retries it and nothing else sends it twice.
CREATE TABLE password_resets (
  user_id INTEGER PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
  token_digest TEXT NOT NULL UNIQUE,
  sealed_token TEXT,
  requested_at INTEGER NOT NULL,
  expires_at INTEGER NOT NULL,
  mail_state TEXT NOT NULL DEFAULT 'pending' CHECK (mail_state IN ('pending', 'sent', 'failed')),
  attempts INTEGER NOT NULL DEFAULT 0,
  next_attempt_at INTEGER NOT NULL,
  last_error TEXT,
  sent_at INTEGER
) STRICT;
CREATE INDEX password_resets_due ON password_resets(mail_state, next_attempt_at);
