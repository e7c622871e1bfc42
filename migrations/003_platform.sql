-- The Platform API (/platform/api/v1): apps authenticated by their own tokens (access_tokens with
-- owner_type 'platform_app'), each seeing only the accounts and users it created.

CREATE TABLE platform_apps (
  id INTEGER PRIMARY KEY,
  name TEXT NOT NULL,
  created_at INTEGER NOT NULL
) STRICT;

CREATE TABLE platform_app_accounts (
  platform_app_id INTEGER NOT NULL REFERENCES platform_apps(id) ON DELETE CASCADE,
  account_id INTEGER NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
  created_at INTEGER NOT NULL,
  PRIMARY KEY (platform_app_id, account_id)
) STRICT, WITHOUT ROWID;
CREATE INDEX platform_app_accounts_account ON platform_app_accounts(account_id);

CREATE TABLE platform_app_users (
  platform_app_id INTEGER NOT NULL REFERENCES platform_apps(id) ON DELETE CASCADE,
  user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  created_at INTEGER NOT NULL,
  PRIMARY KEY (platform_app_id, user_id)
) STRICT, WITHOUT ROWID;
CREATE INDEX platform_app_users_user ON platform_app_users(user_id);
