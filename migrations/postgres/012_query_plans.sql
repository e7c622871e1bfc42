-- Plans that do not depend on the planner's statistics (src/db/events.repo.ts). The event bus reads
-- "every event after id N" as a range of the rowid, and SQLite plans a rowid range from
-- sqlite_stat1: statistics taken while events held one row made it scan the table from its first
-- event for every batch. A rowid range cannot be pinned, but an index can (INDEXED BY): this one
-- holds the ids in order, so the read seeks to N whatever the statistics say. Appends only, so
-- each insert adds to its last page.
CREATE INDEX events_seq ON events(id);

-- Contact search for a phone fragment typed with its plus ("+1200000"): in the trigram index its
-- digit trigrams are shared by every phone number, and the phrase took ~200 ms on a million
-- contacts. Phone numbers are stored in E.164, so "+digits" can only match a phone number at its
-- start (a range of contacts_account_phone) — or a name, email or company that contains a "+",
-- which are few and all in this index (src/db/contacts-search.ts, PLUS_HITS).
CREATE INDEX contacts_resolved_plus ON contacts(account_id)
  WHERE (email IS NOT NULL OR phone_number IS NOT NULL OR identifier IS NOT NULL)
    AND (strpos(name, '+') > 0 OR strpos(email, '+') > 0 OR strpos(company_name, '+') > 0);

-- Contact search counts are exact, and for a term in a tenth of a million contacts counting takes
-- ~20 ms. A count stays right until a contact is added, removed or changes a searched field, so
-- src/db/contacts-search.ts keeps recent counts tagged with this version, which those changes bump
-- (from any connection; a rolled-back change rolls its bump back). Activity updates (every incoming
-- message) do not touch these columns and keep the counts.
CREATE TABLE contact_search_version (
  id BIGINT PRIMARY KEY CHECK (id = 1),
  n BIGINT NOT NULL
);
INSERT INTO contact_search_version (id, n) VALUES (1, 0);
CREATE FUNCTION contact_search_version_bump() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE contact_search_version SET n = n + 1 WHERE id = 1;
  RETURN NULL;
END $$;
CREATE TRIGGER contact_search_version_insert AFTER INSERT ON contacts
  FOR EACH ROW EXECUTE FUNCTION contact_search_version_bump();
CREATE TRIGGER contact_search_version_delete AFTER DELETE ON contacts
  FOR EACH ROW EXECUTE FUNCTION contact_search_version_bump();
CREATE TRIGGER contact_search_version_update AFTER UPDATE OF name, email, phone_number, identifier, company_name ON contacts
  FOR EACH ROW EXECUTE FUNCTION contact_search_version_bump();
