-- Mobile push (the Chatwoot mobile app): each device's FCM registration (POST
-- /api/v1/notification_subscriptions; one row per device, moved to whoever signs in on it last, as
-- Chatwoot's builder does), and the pushes to send, one row per notification and device, written
-- with the notification and sent through the push relay (PARLEY_PUSH_RELAY_URL): claimed before each
-- attempt, retried with backoff, resent after a crash.
CREATE TABLE notification_subscriptions (
  id INTEGER PRIMARY KEY,
  user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  subscription_type TEXT NOT NULL CHECK (subscription_type IN ('fcm')),
  identifier TEXT NOT NULL UNIQUE,
  push_token TEXT NOT NULL,
  subscription_attributes TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL
) STRICT;
CREATE INDEX notification_subscriptions_user ON notification_subscriptions(user_id, push_token);
CREATE TABLE notification_pushes (
  id INTEGER PRIMARY KEY,
  notification_id INTEGER NOT NULL REFERENCES notifications(id) ON DELETE CASCADE,
  subscription_id INTEGER NOT NULL REFERENCES notification_subscriptions(id) ON DELETE CASCADE,
  state TEXT NOT NULL DEFAULT 'pending' CHECK (state IN ('pending', 'sent', 'failed')),
  attempts INTEGER NOT NULL DEFAULT 0,
  next_attempt_at INTEGER NOT NULL,
  last_error TEXT,
  created_at INTEGER NOT NULL,
  sent_at INTEGER
) STRICT;
CREATE INDEX notification_pushes_due ON notification_pushes(state, next_attempt_at);
CREATE INDEX notification_pushes_notification ON notification_pushes(notification_id);
CREATE INDEX notification_pushes_subscription ON notification_pushes(subscription_id);
