-- Browser sign-in sessions for the agents' web app. Like API tokens, only SHA-256 hashes of the
-- session tokens are stored, so a copy of the database does not let anyone in.
-- A session ends when it has been idle until expires_at (sliding), or at absolute_expires_at.

CREATE TABLE sessions (
  id INTEGER PRIMARY KEY,
  token_hash TEXT NOT NULL UNIQUE,
  user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  created_at INTEGER NOT NULL,
  last_used_at INTEGER NOT NULL,
  expires_at INTEGER NOT NULL,
  absolute_expires_at INTEGER NOT NULL,
  ip TEXT,
  user_agent TEXT
) STRICT;
CREATE INDEX sessions_user ON sessions(user_id);
CREATE INDEX sessions_expires ON sessions(expires_at);
