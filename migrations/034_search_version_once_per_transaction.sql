-- PostgreSQL only (migrations/postgres/034: one contact_search_version bump per transaction instead
-- of one per contact row). SQLite updates the row in place, so its per-row bump costs little; this
-- file keeps the two engines' numbering the same.
SELECT 1;
