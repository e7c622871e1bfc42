-- Conversation pages are ordered by last_activity_at DESC, id DESC. SQLite's activity indexes end in
-- the rowid, which is the id, so they already give that order whole; PostgreSQL's gain the id in this
-- migration (migrations/postgres/031_conversation_order_ties.sql). Nothing to change here: the
-- number is kept in step on both engines.
SELECT 1;
