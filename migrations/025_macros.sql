-- Chatwoot's macros: a named list of conversation actions an agent runs by hand on one or more
-- conversations (the mobile app's and the dashboard's "run macro"). Personal macros are their
-- author's; global ones (made by administrators) every member's. `actions` is the JSON array of
-- {action_name, action_params} that automation rules use.
CREATE TABLE macros (
  id INTEGER PRIMARY KEY,
  account_id INTEGER NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
  name TEXT NOT NULL,
  visibility TEXT NOT NULL DEFAULT 'personal' CHECK (visibility IN ('personal', 'global')),
  created_by_id INTEGER REFERENCES users(id) ON DELETE SET NULL,
  updated_by_id INTEGER REFERENCES users(id) ON DELETE SET NULL,
  actions TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL
) STRICT;
CREATE INDEX macros_account ON macros(account_id);
