-- The contact list without a sort is the account's resolved contacts by id, 15 a page, with their
-- count. No index held them in id order: SQLite 3.54 took contacts_resolved_activity and sorted every
-- resolved contact of the account for each page (57 ms a page and 88 ms a count on a million), and
-- under other statistics a scan of the table would do. This partial index gives both: a walk in page
-- order that stops after its rows, and a count over the smallest index (src/db/contacts-search.ts
-- names it in INDEXED BY, so statistics cannot choose another).
CREATE INDEX contacts_resolved_id ON contacts(account_id, id)
  WHERE email IS NOT NULL OR phone_number IS NOT NULL OR identifier IS NOT NULL;
-- Chatwoot's sort by creation (newest or oldest first), which the web app offers: the same walk.
CREATE INDEX contacts_resolved_created ON contacts(account_id, created_at, id)
  WHERE email IS NOT NULL OR phone_number IS NOT NULL OR identifier IS NOT NULL;
