-- The contact list sorted by email, phone number or last activity (the web app offers each, both
-- ways) sorted every resolved contact of the account for each page: 230-250 ms a page on a million
-- (`bun test/bench/search-and-list.ts`). These partial indexes hold those orders exactly as
-- src/db/contacts-search.ts writes them, NULL placement and ties included, so a page is a walk that
-- stops after its rows (named in INDEXED BY, so statistics cannot choose another). Descending walks
-- email and phone backwards; activity keeps NULLs last both ways, so each direction has its own.
CREATE INDEX contacts_resolved_email ON contacts(account_id, email IS NULL, email, id)
  WHERE email IS NOT NULL OR phone_number IS NOT NULL OR identifier IS NOT NULL;
CREATE INDEX contacts_resolved_phone ON contacts(account_id, phone_number IS NULL, phone_number, id)
  WHERE email IS NOT NULL OR phone_number IS NOT NULL OR identifier IS NOT NULL;
CREATE INDEX contacts_resolved_active_first ON contacts(account_id, last_activity_at IS NULL, last_activity_at DESC, id DESC)
  WHERE email IS NOT NULL OR phone_number IS NOT NULL OR identifier IS NOT NULL;
CREATE INDEX contacts_resolved_active_last ON contacts(account_id, last_activity_at IS NULL, last_activity_at, id)
  WHERE email IS NOT NULL OR phone_number IS NOT NULL OR identifier IS NOT NULL;
