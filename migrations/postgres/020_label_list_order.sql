-- The page of a "status X AND label Y" filter, newest activity first, read from the label's rows in
-- order (migration 019 put status, assignee and inbox on them; this adds the activity time), so a
-- dense match at a million conversations is 25 index entries, not a walk testing each conversation.
ALTER TABLE conversation_labels ADD COLUMN last_activity_at BIGINT;
UPDATE conversation_labels SET last_activity_at = (SELECT c.last_activity_at FROM conversations c WHERE c.id = conversation_labels.conversation_id);
CREATE INDEX conversation_labels_list ON conversation_labels(account_id, title, status, last_activity_at, conversation_id);

-- The trigger functions are replaced; the follow trigger's columns and condition change with them.
CREATE OR REPLACE FUNCTION conversation_labels_copy() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE conversation_labels
  SET status = c.status, assignee_id = c.assignee_id, inbox_id = c.inbox_id, last_activity_at = c.last_activity_at
  FROM conversations c WHERE c.id = NEW.conversation_id AND conversation_labels.id = NEW.id;
  RETURN NULL;
END $$;

CREATE OR REPLACE FUNCTION conversation_labels_follow() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE conversation_labels
  SET status = NEW.status, assignee_id = NEW.assignee_id, inbox_id = NEW.inbox_id, last_activity_at = NEW.last_activity_at
  WHERE conversation_id = NEW.id;
  RETURN NULL;
END $$;
DROP TRIGGER conversation_labels_follow ON conversations;
CREATE TRIGGER conversation_labels_follow AFTER UPDATE OF status, assignee_id, inbox_id, last_activity_at ON conversations
  FOR EACH ROW
  WHEN (OLD.status IS DISTINCT FROM NEW.status OR OLD.assignee_id IS DISTINCT FROM NEW.assignee_id
        OR OLD.inbox_id IS DISTINCT FROM NEW.inbox_id OR OLD.last_activity_at IS DISTINCT FROM NEW.last_activity_at)
  EXECUTE FUNCTION conversation_labels_follow();
