-- Canned responses (Chatwoot's): saved replies an agent inserts by short code. The short code is
-- unique in the account, whatever its case.
CREATE TABLE canned_responses (
  id INTEGER PRIMARY KEY,
  account_id INTEGER NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
  short_code TEXT NOT NULL,
  content TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL
) STRICT;
CREATE UNIQUE INDEX canned_responses_account_code ON canned_responses(account_id, lower(short_code));
