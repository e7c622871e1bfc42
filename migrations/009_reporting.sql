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
  -- No foreign keys on account and inbox: events go with their conversation (below), which goes
  -- with its account and inbox, and no index has to lead with these columns for a cascade.
  account_id INTEGER NOT NULL,
  inbox_id INTEGER NOT NULL,
  user_id INTEGER,
  -- The conversation's CURRENT team, kept in step when the conversation changes team, so the team
  -- report groups by it from an index alone instead of joining a million conversations.
  team_id INTEGER REFERENCES teams(id) ON DELETE SET NULL,
  conversation_id INTEGER NOT NULL REFERENCES conversations(id) ON DELETE CASCADE,
  event_start_time INTEGER NOT NULL,
  event_end_time INTEGER NOT NULL,
  created_at INTEGER NOT NULL
) STRICT;
-- Each summary reads one of these per row of the report (a team, an agent, an inbox; the account
-- overview every inbox of the account): one (name, time range) slice per metric, in group order, so
-- the GROUP BY needs no sort and no table row is read. Measured on 1,000,000 conversations: the
-- same summaries over one (account, name, created_at) index sorted every event of the range and
-- took ten times as long (test/bench/reports.ts).
CREATE INDEX reporting_events_team ON reporting_events(team_id, name, created_at, value, value_in_business_hours)
  WHERE team_id IS NOT NULL;
CREATE INDEX reporting_events_user ON reporting_events(user_id, account_id, name, created_at, value, value_in_business_hours)
  WHERE user_id IS NOT NULL;
-- conversation_id: the label summary joins each event to its conversation's labels.
CREATE INDEX reporting_events_inbox ON reporting_events(inbox_id, name, created_at, value, value_in_business_hours, conversation_id);
-- A conversation's own events: the last opening/resolution (first-response and reopen values),
-- moving its events to a new team, and the cascade when it is deleted.
CREATE INDEX reporting_events_conversation ON reporting_events(conversation_id, name, event_end_time);

-- Conversations created in a range, counted per current team, assignee or inbox the same way.
-- The team and assignee indexes of 006 are prefixes of these (same lookups, one index to keep).
DROP INDEX conversations_team;
CREATE INDEX conversations_team_created ON conversations(team_id, created_at) WHERE team_id IS NOT NULL;
DROP INDEX conversations_assignee;
CREATE INDEX conversations_assignee_created ON conversations(assignee_id, account_id, created_at) WHERE assignee_id IS NOT NULL;
CREATE INDEX conversations_inbox_created ON conversations(inbox_id, created_at);

-- The account overview's incoming and outgoing message counts in a range.
CREATE INDEX messages_account_type_time ON messages(account_id, message_type, created_at);
