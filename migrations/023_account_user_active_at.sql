-- When the user last made this account their active one (PUT /api/v1/profile/set_active_account,
-- as the mobile app and Chatwoot's dashboard do on switching accounts). The profile's account_id is
-- the most recently active account (the first one when none was ever chosen). Unix seconds.
ALTER TABLE account_users ADD COLUMN active_at INTEGER;
