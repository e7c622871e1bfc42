-- The signature an agent may add below their replies (Chatwoot's users.message_signature, set on
-- the profile; the web app appends it when the agent turns "Sign" on).
ALTER TABLE users ADD COLUMN message_signature TEXT;
