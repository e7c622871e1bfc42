-- contacts_resolved_activity (006) ordered the contact list by activity until migration 033's
-- indexes, which hold the list's real order (NULLs last, ties by id), took over; every query that
-- reads contacts by activity now names one of those. It was still written on every message: a
-- message moves its contact's last_activity_at, and this index was the third of three holding it.
DROP INDEX IF EXISTS contacts_resolved_activity;
