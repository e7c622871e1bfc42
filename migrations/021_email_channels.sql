-- Email inboxes (Chatwoot's Channel::Email). The mail settings of an email inbox live here, not in
-- inboxes.channel_attributes, because two of them are passwords: they are stored encrypted (AES-GCM,
-- key beside the database: src/mail/secret-box.ts) and no presenter reads this table whole.
CREATE TABLE email_channels (
  inbox_id INTEGER PRIMARY KEY REFERENCES inboxes(id) ON DELETE CASCADE,
  account_id INTEGER NOT NULL,
  imap_enabled INTEGER NOT NULL DEFAULT 0,
  imap_address TEXT,
  imap_port INTEGER NOT NULL DEFAULT 993,
  imap_login TEXT,
  imap_password TEXT,
  imap_enable_ssl INTEGER NOT NULL DEFAULT 1,
  imap_folder TEXT NOT NULL DEFAULT 'INBOX',
  smtp_enabled INTEGER NOT NULL DEFAULT 0,
  smtp_address TEXT,
  smtp_port INTEGER NOT NULL DEFAULT 587,
  smtp_login TEXT,
  smtp_password TEXT,
  smtp_domain TEXT,
  smtp_enable_ssl_tls INTEGER NOT NULL DEFAULT 0,
  smtp_enable_starttls_auto INTEGER NOT NULL DEFAULT 1,
  smtp_openssl_verify_mode TEXT NOT NULL DEFAULT 'peer',
  smtp_authentication TEXT NOT NULL DEFAULT 'login',
  -- Replies carry Reply-To: <local>+<conversation uuid>@<domain>, for mailboxes that take plus addresses.
  reply_plus_addressing INTEGER NOT NULL DEFAULT 0,
  -- The IMAP checkpoint: the last UID filed under this UIDVALIDITY, written in the same transaction
  -- as the messages it filed, so a crash never files a mail twice or skips one.
  uid_validity INTEGER,
  last_uid INTEGER NOT NULL DEFAULT 0,
  last_synced_at INTEGER,
  last_error TEXT,
  last_error_at INTEGER
) STRICT;

-- Every Message-ID an email inbox received or sent, and the conversation it belongs to: the unique
-- key makes filing a mail idempotent, and a reply's In-Reply-To/References find its conversation.
CREATE TABLE email_message_ids (
  id INTEGER PRIMARY KEY,
  inbox_id INTEGER NOT NULL REFERENCES inboxes(id) ON DELETE CASCADE,
  header_id TEXT NOT NULL,
  -- SET NULL, not CASCADE: a deleted conversation's mail stays known, so a re-read never files it again.
  conversation_id INTEGER REFERENCES conversations(id) ON DELETE SET NULL,
  message_id INTEGER,
  direction TEXT NOT NULL CHECK (direction IN ('in', 'out')),
  created_at INTEGER NOT NULL
) STRICT;
CREATE UNIQUE INDEX email_message_ids_header ON email_message_ids(inbox_id, header_id);
CREATE INDEX email_message_ids_conversation ON email_message_ids(conversation_id, id);

-- Replies waiting to be sent by SMTP (written in the transaction that created the message). An
-- attempt is recorded before it is made; after a crash the retry reuses header_id, so a receiver
-- that got the first try sees the same Message-ID twice, never two different mails.
CREATE TABLE email_outbox (
  message_id INTEGER PRIMARY KEY,
  account_id INTEGER NOT NULL,
  inbox_id INTEGER NOT NULL REFERENCES inboxes(id) ON DELETE CASCADE,
  conversation_id INTEGER NOT NULL REFERENCES conversations(id) ON DELETE CASCADE,
  header_id TEXT NOT NULL,
  state TEXT NOT NULL CHECK (state IN ('pending', 'sent', 'failed')),
  attempts INTEGER NOT NULL DEFAULT 0,
  next_attempt_at INTEGER NOT NULL,
  last_error TEXT,
  created_at INTEGER NOT NULL,
  sent_at INTEGER
) STRICT;
CREATE INDEX email_outbox_due ON email_outbox(state, next_attempt_at);
