-- The public (client) API and CSAT: survey answers, and the index that tells whether a
-- conversation's survey was already sent.

-- One answer per survey message (Chatwoot's csat_survey_responses). inbox_id is copied from the
-- conversation so agents' lists filter by their inboxes without a join; assigned_agent_id is the
-- conversation's assignee when the contact (last) answered.
CREATE TABLE csat_survey_responses (
  id INTEGER PRIMARY KEY,
  account_id INTEGER NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
  inbox_id INTEGER NOT NULL,
  conversation_id INTEGER NOT NULL REFERENCES conversations(id) ON DELETE CASCADE,
  message_id INTEGER NOT NULL UNIQUE REFERENCES messages(id) ON DELETE CASCADE,
  contact_id INTEGER NOT NULL,
  assigned_agent_id INTEGER REFERENCES users(id) ON DELETE SET NULL,
  rating INTEGER NOT NULL CHECK (rating BETWEEN 1 AND 5),
  feedback_message TEXT,
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL
) STRICT;
CREATE INDEX csat_survey_responses_account_created ON csat_survey_responses(account_id, created_at);
CREATE INDEX csat_survey_responses_conversation ON csat_survey_responses(conversation_id);

-- "Was a survey already sent in this conversation?" on every resolve: a partial index holds only
-- the survey messages, so the answer is one probe however long the conversation is.
CREATE INDEX messages_input_csat ON messages(conversation_id) WHERE content_type = 'input_csat';
