-- The page of a "status X AND label Y" filter, newest activity first, read from the label's rows in
-- order (migration 019 put status, assignee and inbox on them; this adds the activity time), so a
-- dense match at a million conversations is 25 index entries, not a walk testing each conversation.
ALTER TABLE conversation_labels ADD COLUMN last_activity_at INTEGER;
UPDATE conversation_labels SET last_activity_at = (SELECT c.last_activity_at FROM conversations c WHERE c.id = conversation_labels.conversation_id);
CREATE INDEX conversation_labels_list ON conversation_labels(account_id, title, status, last_activity_at, conversation_id);

DROP TRIGGER conversation_labels_copy;
CREATE TRIGGER conversation_labels_copy AFTER INSERT ON conversation_labels
BEGIN
  UPDATE conversation_labels SET
    status = (SELECT c.status FROM conversations c WHERE c.id = NEW.conversation_id),
    assignee_id = (SELECT c.assignee_id FROM conversations c WHERE c.id = NEW.conversation_id),
    inbox_id = (SELECT c.inbox_id FROM conversations c WHERE c.id = NEW.conversation_id),
    last_activity_at = (SELECT c.last_activity_at FROM conversations c WHERE c.id = NEW.conversation_id)
  WHERE id = NEW.id;
END;

DROP TRIGGER conversation_labels_follow;
CREATE TRIGGER conversation_labels_follow AFTER UPDATE OF status, assignee_id, inbox_id, last_activity_at ON conversations
WHEN OLD.status IS NOT NEW.status OR OLD.assignee_id IS NOT NEW.assignee_id OR OLD.inbox_id IS NOT NEW.inbox_id
  OR OLD.last_activity_at IS NOT NEW.last_activity_at
BEGIN
  UPDATE conversation_labels SET status = NEW.status, assignee_id = NEW.assignee_id, inbox_id = NEW.inbox_id, last_activity_at = NEW.last_activity_at
  WHERE conversation_id = NEW.id;
END;
