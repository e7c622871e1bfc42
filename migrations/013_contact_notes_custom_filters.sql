-- Contact notes (Chatwoot's contacts/:id/notes) and saved filters (custom_filters, per user).

-- A note outlives the agent who wrote it (user_id set NULL) but not its contact. Merging contacts
-- moves the mergee's notes to the base contact.
CREATE TABLE contact_notes (
  id INTEGER PRIMARY KEY,
  account_id INTEGER NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
  contact_id INTEGER NOT NULL REFERENCES contacts(id) ON DELETE CASCADE,
  user_id INTEGER REFERENCES users(id) ON DELETE SET NULL,
  content TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL
) STRICT;
CREATE INDEX contact_notes_contact ON contact_notes(contact_id, id);

-- A user's saved filter in one account; `query` is the filter payload as JSON text.
CREATE TABLE custom_filters (
  id INTEGER PRIMARY KEY,
  account_id INTEGER NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
  user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  name TEXT NOT NULL,
  filter_type TEXT NOT NULL CHECK (filter_type IN ('conversation', 'contact', 'report')),
  query TEXT NOT NULL DEFAULT '{}',
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL
) STRICT;
CREATE INDEX custom_filters_user ON custom_filters(account_id, user_id, filter_type, id);
