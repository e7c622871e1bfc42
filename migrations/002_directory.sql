-- The directory every conversation hangs on: inboxes (channels), their member agents, teams.

CREATE TABLE inboxes (
  id INTEGER PRIMARY KEY,
  account_id INTEGER NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
  name TEXT NOT NULL,
  -- Stored as our short names; shown as Chatwoot's class names (api → Channel::Api, …).
  channel_type TEXT NOT NULL CHECK (channel_type IN ('api', 'web_widget', 'email', 'phone')),
  -- API inboxes: the public API's address (unguessable) and the identity-verification secret.
  identifier TEXT UNIQUE,
  hmac_token TEXT,
  hmac_mandatory INTEGER NOT NULL DEFAULT 0,
  -- API inboxes: callback for outgoing messages.
  webhook_url TEXT,
  -- Channel details that vary by type (website_url, email address, phone number, provider, …), JSON.
  channel_attributes TEXT NOT NULL DEFAULT '{}',
  greeting_enabled INTEGER NOT NULL DEFAULT 0,
  greeting_message TEXT,
  out_of_office_message TEXT,
  working_hours_enabled INTEGER NOT NULL DEFAULT 0,
  -- The cleaned working-hours entries (domain/working-hours.ts), JSON array.
  working_hours TEXT NOT NULL DEFAULT '[]',
  timezone TEXT NOT NULL DEFAULT 'UTC',
  csat_survey_enabled INTEGER NOT NULL DEFAULT 0,
  csat_config TEXT NOT NULL DEFAULT '{}',
  lock_to_single_conversation INTEGER NOT NULL DEFAULT 0,
  allow_messages_after_resolved INTEGER NOT NULL DEFAULT 1,
  enable_auto_assignment INTEGER NOT NULL DEFAULT 1,
  enable_email_collect INTEGER NOT NULL DEFAULT 1,
  -- Round-robin settings, JSON; kept and shown back for Chatwoot clients.
  auto_assignment_config TEXT NOT NULL DEFAULT '{}',
  -- How outgoing emails name the sender: the agent ('friendly') or the business ('professional').
  sender_name_type TEXT NOT NULL DEFAULT 'friendly' CHECK (sender_name_type IN ('friendly', 'professional')),
  business_name TEXT,
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL
) STRICT;
CREATE INDEX inboxes_account ON inboxes(account_id, name);

-- Deleting an inbox removes its memberships; removing an agent from an account removes their
-- inbox_members and team_members rows in that account (domain/agents.service.ts).
CREATE TABLE inbox_members (
  inbox_id INTEGER NOT NULL REFERENCES inboxes(id) ON DELETE CASCADE,
  user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  created_at INTEGER NOT NULL,
  PRIMARY KEY (inbox_id, user_id)
) STRICT, WITHOUT ROWID;
CREATE INDEX inbox_members_user ON inbox_members(user_id, inbox_id);

CREATE TABLE teams (
  id INTEGER PRIMARY KEY,
  account_id INTEGER NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
  name TEXT NOT NULL,
  description TEXT,
  allow_auto_assign INTEGER NOT NULL DEFAULT 1,
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL
) STRICT;
-- Deleting a team must leave its conversations in place, unassigned from it: conversations.team_id
-- (added with conversations) references teams(id) ON DELETE SET NULL.
-- Team names are lower-cased on save (Chatwoot) and unique per account.
CREATE UNIQUE INDEX teams_account_name ON teams(account_id, name);

CREATE TABLE team_members (
  team_id INTEGER NOT NULL REFERENCES teams(id) ON DELETE CASCADE,
  user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  created_at INTEGER NOT NULL,
  PRIMARY KEY (team_id, user_id)
) STRICT, WITHOUT ROWID;
CREATE INDEX team_members_user ON team_members(user_id, team_id);
