-- Password resets by mail (see migrations/026_password_resets.sql).
CREATE TABLE password_resets (
  user_id BIGINT PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
  token_digest TEXT NOT NULL UNIQUE,
  sealed_token TEXT,
  requested_at BIGINT NOT NULL,
  expires_at BIGINT NOT NULL,
  mail_state TEXT NOT NULL DEFAULT 'pending' CHECK (mail_state IN ('pending', 'sent', 'failed')),
  attempts BIGINT NOT NULL DEFAULT 0,
  next_attempt_at BIGINT NOT NULL,
  last_error TEXT,
  sent_at BIGINT
);
CREATE INDEX password_resets_due ON password_resets(mail_state, next_attempt_at);
