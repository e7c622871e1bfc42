-- Plans that do not depend on the planner's statistics (src/db/events.repo.ts). The event bus reads
-- "every event after id N" as a range of the rowid, and SQLite plans a rowid range from
-- sqlite_stat1: statistics taken while events held one row made it scan the table from its first
-- event for every batch. A rowid range cannot be pinned, but an index can (INDEXED BY): this one
-- holds the ids in order, so the read seeks to N whatever the statistics say. Appends only, so
-- each insert adds to its last page.
CREATE INDEX events_seq ON events(id);
