-- A new agent's invitation is a password-reset link that lasts longer and says who invited them:
-- the same row, link and outbox (migration 026), with what the mail is for and the account it
-- names. A later "Forgot your password?" replaces it with an ordinary reset.
ALTER TABLE password_resets ADD COLUMN purpose TEXT NOT NULL DEFAULT 'reset' CHECK (purpose IN ('reset', 'invitation'));
ALTER TABLE password_resets ADD COLUMN account_id INTEGER REFERENCES accounts(id) ON DELETE SET NULL;
