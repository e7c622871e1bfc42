-- An agent's message signature (see migrations/029_message_signature.sql).
ALTER TABLE users ADD COLUMN message_signature TEXT;
