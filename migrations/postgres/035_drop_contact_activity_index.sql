-- As migrations/035 (SQLite): migration 033's indexes hold the contact list's activity orders, and this
-- one was only written, on every message (a message moves its contact's last_activity_at).
DROP INDEX IF EXISTS contacts_resolved_activity;
