-- A new agent's invitation (see migrations/027_invitations.sql).
ALTER TABLE password_resets ADD COLUMN purpose TEXT NOT NULL DEFAULT 'reset' CHECK (purpose IN ('reset', 'invitation'));
ALTER TABLE password_resets ADD COLUMN account_id BIGINT REFERENCES accounts(id) ON DELETE SET NULL;
