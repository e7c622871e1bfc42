-- When the user last made this account their active one (see migrations/023_account_user_active_at.sql).
ALTER TABLE account_users ADD COLUMN active_at BIGINT;
