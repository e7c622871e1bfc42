-- PostgreSQL's side of migrations/022_conversation_list_columns.sql: the list's labels, unread count
-- and newest message kept on the conversation row by triggers (the reasons are written there).
ALTER TABLE conversations ADD COLUMN label_list TEXT NOT NULL DEFAULT '[]';
ALTER TABLE conversations ADD COLUMN unread_incoming BIGINT NOT NULL DEFAULT 0;
ALTER TABLE conversations ADD COLUMN last_message_id BIGINT;

CREATE FUNCTION conversation_label_list_of(conversation BIGINT) RETURNS TEXT LANGUAGE sql STABLE AS $$
  -- Written as SQLite's json_group_array writes it (no spaces), so both engines store the same text.
  SELECT '[' || coalesce(string_agg(to_json(title)::text, ',' ORDER BY id), '') || ']'
  FROM conversation_labels WHERE conversation_id = conversation
$$;
CREATE FUNCTION conversation_unread_of(conversation BIGINT, seen BIGINT) RETURNS BIGINT LANGUAGE sql STABLE AS $$
  SELECT count(*) FROM messages
  WHERE conversation_id = conversation AND created_at > coalesce(seen, -1) AND message_type = 0
$$;

UPDATE conversations SET label_list = conversation_label_list_of(id)
WHERE id IN (SELECT conversation_id FROM conversation_labels);
UPDATE conversations SET
  last_message_id = (SELECT max(m.id) FROM messages m WHERE m.conversation_id = conversations.id),
  unread_incoming = conversation_unread_of(id, agent_last_seen_at)
WHERE id IN (SELECT conversation_id FROM messages);

CREATE FUNCTION conversation_label_list_changed() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  target BIGINT := CASE WHEN TG_OP = 'DELETE' THEN OLD.conversation_id ELSE NEW.conversation_id END;
BEGIN
  UPDATE conversations SET label_list = conversation_label_list_of(target) WHERE id = target;
  RETURN NULL;
END $$;
CREATE TRIGGER conversation_label_list_insert AFTER INSERT ON conversation_labels
  FOR EACH ROW EXECUTE FUNCTION conversation_label_list_changed();
CREATE TRIGGER conversation_label_list_delete AFTER DELETE ON conversation_labels
  FOR EACH ROW EXECUTE FUNCTION conversation_label_list_changed();
CREATE TRIGGER conversation_label_list_update AFTER UPDATE OF title ON conversation_labels
  FOR EACH ROW EXECUTE FUNCTION conversation_label_list_changed();

CREATE FUNCTION conversation_message_columns_insert() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE conversations SET
    last_message_id = greatest(coalesce(last_message_id, 0), NEW.id),
    unread_incoming = unread_incoming
      + CASE WHEN NEW.message_type = 0 AND NEW.created_at > coalesce(agent_last_seen_at, -1) THEN 1 ELSE 0 END
  WHERE id = NEW.conversation_id;
  RETURN NULL;
END $$;
CREATE TRIGGER conversation_message_columns_insert AFTER INSERT ON messages
  FOR EACH ROW EXECUTE FUNCTION conversation_message_columns_insert();

CREATE FUNCTION conversation_message_columns_delete() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE conversations SET
    last_message_id = (SELECT max(m.id) FROM messages m WHERE m.conversation_id = OLD.conversation_id),
    unread_incoming = conversation_unread_of(OLD.conversation_id, agent_last_seen_at)
  WHERE id = OLD.conversation_id;
  RETURN NULL;
END $$;
CREATE TRIGGER conversation_message_columns_delete AFTER DELETE ON messages
  FOR EACH ROW EXECUTE FUNCTION conversation_message_columns_delete();

CREATE FUNCTION conversation_unread_seen() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE conversations SET unread_incoming = conversation_unread_of(NEW.id, NEW.agent_last_seen_at) WHERE id = NEW.id;
  RETURN NULL;
END $$;
CREATE TRIGGER conversation_unread_seen AFTER UPDATE OF agent_last_seen_at ON conversations
  FOR EACH ROW WHEN (OLD.agent_last_seen_at IS DISTINCT FROM NEW.agent_last_seen_at)
  EXECUTE FUNCTION conversation_unread_seen();
