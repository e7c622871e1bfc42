-- Conversation pages are ordered by last_activity_at DESC, id DESC. SQLite's activity indexes end in
-- the rowid (the id), so an index walk gives that order whole and a page stops after its rows. These
-- indexes ended at last_activity_at: PostgreSQL then sorted each run of equal times by id, reading
-- the whole run first (an imported or seeded installation, where thousands of conversations share a
-- time, read 1,705 rows for a page of 25: 1.3 ms instead of ~0.1). With the id at the end the walk
-- is in page order again. Same names, so the schemas still match index for index.
DROP INDEX conversations_account_status_activity;
CREATE INDEX conversations_account_status_activity ON conversations(account_id, status, last_activity_at, id);
DROP INDEX conversations_account_activity;
CREATE INDEX conversations_account_activity ON conversations(account_id, last_activity_at, id);
DROP INDEX conversations_inbox_status_activity;
CREATE INDEX conversations_inbox_status_activity ON conversations(account_id, inbox_id, status, last_activity_at, id);
DROP INDEX conversations_team_status_activity;
CREATE INDEX conversations_team_status_activity ON conversations(account_id, team_id, status, last_activity_at, id);
DROP INDEX conversations_assignee_status_activity;
CREATE INDEX conversations_assignee_status_activity ON conversations(account_id, assignee_id, status, last_activity_at, id);
