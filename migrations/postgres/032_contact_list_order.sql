-- The contact list without a sort: the account's resolved contacts by id, and their count
-- (migrations/032_contact_list_order.sql says why). Same name and columns as SQLite's.
CREATE INDEX contacts_resolved_id ON contacts(account_id, id)
  WHERE email IS NOT NULL OR phone_number IS NOT NULL OR identifier IS NOT NULL;
-- Chatwoot's sort by creation (newest or oldest first), which the web app offers: the same walk.
CREATE INDEX contacts_resolved_created ON contacts(account_id, created_at, id)
  WHERE email IS NOT NULL OR phone_number IS NOT NULL OR identifier IS NOT NULL;
-- PostgreSQL only: the prefix arms of a search under three characters (src/db/contacts-search-postgres.ts,
-- `hits`), one range per column compared as SQLite compares it, had no index: a two-letter term read
-- every resolved contact of the account (2.4-3.5 s on a million). SQLite's twins are its NOCASE and
-- BINARY indexes of the same columns; these repeat the search's expressions verbatim, so each arm is
-- an index range and the arms a bitmap OR.
CREATE INDEX contacts_prefix_name ON contacts(account_id, translate(name::text, 'ABCDEFGHIJKLMNOPQRSTUVWXYZ', 'abcdefghijklmnopqrstuvwxyz') COLLATE "C")
  WHERE email IS NOT NULL OR phone_number IS NOT NULL OR identifier IS NOT NULL;
CREATE INDEX contacts_prefix_email ON contacts(account_id, email COLLATE "C")
  WHERE email IS NOT NULL OR phone_number IS NOT NULL OR identifier IS NOT NULL;
CREATE INDEX contacts_prefix_phone ON contacts(account_id, phone_number COLLATE "C")
  WHERE email IS NOT NULL OR phone_number IS NOT NULL OR identifier IS NOT NULL;
CREATE INDEX contacts_prefix_identifier ON contacts(account_id, identifier COLLATE "C")
  WHERE email IS NOT NULL OR phone_number IS NOT NULL OR identifier IS NOT NULL;
CREATE INDEX contacts_prefix_company ON contacts(account_id, translate(company_name::text, 'ABCDEFGHIJKLMNOPQRSTUVWXYZ', 'abcdefghijklmnopqrstuvwxyz') COLLATE "C")
  WHERE email IS NOT NULL OR phone_number IS NOT NULL OR identifier IS NOT NULL;
