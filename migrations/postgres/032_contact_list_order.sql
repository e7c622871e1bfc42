-- The contact list without a sort: the account's resolved contacts by id, and their count
-- (migrations/032_contact_list_order.sql says why). Same name and columns as SQLite's.
CREATE INDEX contacts_resolved_id ON contacts(account_id, id)
  WHERE email IS NOT NULL OR phone_number IS NOT NULL OR identifier IS NOT NULL;
-- Chatwoot's sort by creation (newest or oldest first), which the web app offers: the same walk.
CREATE INDEX contacts_resolved_created ON contacts(account_id, created_at, id)
  WHERE email IS NOT NULL OR phone_number IS NOT NULL OR identifier IS NOT NULL;
