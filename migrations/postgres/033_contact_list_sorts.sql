-- The contact list sorted by email, phone number or last activity, a walk in page order
-- (migrations/033_contact_list_sorts.sql says why). Same names and orders as SQLite's; email and
-- phone compared bytewise (COLLATE "C"), as SQLite compares them and src/db/contacts-search-postgres.ts
-- sorts them.
CREATE INDEX contacts_resolved_email ON contacts(account_id, (email IS NULL), email COLLATE "C", id)
  WHERE email IS NOT NULL OR phone_number IS NOT NULL OR identifier IS NOT NULL;
CREATE INDEX contacts_resolved_phone ON contacts(account_id, (phone_number IS NULL), phone_number COLLATE "C", id)
  WHERE email IS NOT NULL OR phone_number IS NOT NULL OR identifier IS NOT NULL;
CREATE INDEX contacts_resolved_active_first ON contacts(account_id, (last_activity_at IS NULL), last_activity_at DESC, id DESC)
  WHERE email IS NOT NULL OR phone_number IS NOT NULL OR identifier IS NOT NULL;
CREATE INDEX contacts_resolved_active_last ON contacts(account_id, (last_activity_at IS NULL), last_activity_at, id)
  WHERE email IS NOT NULL OR phone_number IS NOT NULL OR identifier IS NOT NULL;
