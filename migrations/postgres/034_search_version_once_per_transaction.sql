-- contact_search_version was bumped by an UPDATE for every contact row written. PostgreSQL writes each
-- update of a row as a new version of it, and every later update in the same transaction first finds
-- the newest: a transaction writing many contacts (an import, an INSERT ... SELECT) paid more a row the
-- more rows it wrote. On the test server, one INSERT ... SELECT of 4,000 contacts took 0.9-1.0 s
-- before and 0.67-0.73 s after; of 20,000, 7.8-8.4 s and 4.3-4.4 s. One bump per
-- transaction is all the kept counts need (src/db/contacts-search.ts): the version a reader sees
-- changes when the transaction's contacts become visible. The transaction-local setting remembers
-- the bump, and is undone with it when a savepoint rolls back.
CREATE OR REPLACE FUNCTION contact_search_version_bump() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF current_setting('parley.contact_search_bumped', true) IS DISTINCT FROM 'yes' THEN
    UPDATE contact_search_version SET n = n + 1 WHERE id = 1;
    PERFORM set_config('parley.contact_search_bumped', 'yes', true);
  END IF;
  RETURN NULL;
END $$;
