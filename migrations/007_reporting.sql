-- Reporting events (Chatwoot's reporting_events): one row per measured moment of a conversation,
-- written in the same transaction as the change that caused it. The summary reports are SQL
-- aggregates over these rows and over conversations, answered from covering indexes.

CREATE TABLE reporting_events (
  id INTEGER PRIMARY KEY,
  name TEXT NOT NULL CHECK (name IN ('first_response', 'reply_time', 'conversation_resolved', 'conversation_opened')),
  -- Whole seconds between event_start_time and event_end_time.
  value INTEGER NOT NULL,
  -- The part of those seconds inside the inbox's working hours; NULL when the inbox has working
  -- hours disabled, so business-hours averages are null for it, not 0.
  value_in_business_hours INTEGER,
  account_id INTEGER NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
  inbox_id INTEGER NOT NULL,
  user_id INTEGER,
  -- The conversation's CURRENT team, kept in step when the conversation changes team, so the team
  -- report groups by it from the index alone instead of joining a million conversations.
  team_id INTEGER REFERENCES teams(id) ON DELETE SET NULL,
  conversation_id INTEGER NOT NULL REFERENCES conversations(id) ON DELETE CASCADE,
  event_start_time INTEGER NOT NULL,
  event_end_time INTEGER NOT NULL,
  created_at INTEGER NOT NULL
) STRICT;
-- Every summary: the account's events of a few names in a time range, grouped by team, user or
-- inbox, averaging either value column. Covering, so no table rows are read.
CREATE INDEX reporting_events_report ON reporting_events(
  account_id, name, created_at, team_id, user_id, inbox_id, value, value_in_business_hours
);
-- A conversation's own events: the last opening/resolution (first-response and reopen values),
-- moving its events to a new team, and the cascade when it is deleted.
CREATE INDEX reporting_events_conversation ON reporting_events(conversation_id, name, event_end_time);
-- Deleting a team clears its id here (ON DELETE SET NULL) without scanning the table.
CREATE INDEX reporting_events_team ON reporting_events(team_id) WHERE team_id IS NOT NULL;

-- Conversations created in a range, counted per current team, assignee or inbox from index entries.
CREATE INDEX conversations_account_created ON conversations(account_id, created_at, team_id, assignee_id, inbox_id);

-- The account overview's incoming and outgoing message counts in a range.
CREATE INDEX messages_account_type_time ON messages(account_id, message_type, created_at);
