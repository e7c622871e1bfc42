-- Chatwoot's dashboard apps: pages an administrator embeds in the conversation screen (a CRM, an
-- order lookup), each told which conversation is open through postMessage. `content` is the JSON
-- array Chatwoot keeps: [{"type": "frame", "url": "https://…"}].
CREATE TABLE dashboard_apps (
  id INTEGER PRIMARY KEY,
  account_id INTEGER NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
  user_id INTEGER REFERENCES users(id) ON DELETE SET NULL,
  title TEXT NOT NULL,
  content TEXT NOT NULL,
  show_on_sidebar INTEGER NOT NULL DEFAULT 0,
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL
) STRICT;
CREATE INDEX dashboard_apps_account ON dashboard_apps(account_id);
