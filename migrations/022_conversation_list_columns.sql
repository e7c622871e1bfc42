-- A page of the conversation list or a filter shows, for each of its 25 conversations, the labels,
-- the unread count and the newest message: three lookups per conversation (~0.3 ms of a ~1 ms page
-- at a million conversations). Each is now kept on the conversation row by triggers, in the same
-- transaction as the change, whatever path writes (services, seed, cascades) — as Chatwoot keeps
-- cached_label_list. Only list pages read them, from rows they have just selected; a view built
-- from a row held across a write reads the tables (src/domain/conversation-view.ts).
--   label_list       the titles as a JSON array, in the order they were added
--   unread_incoming  incoming messages created after agent_last_seen_at (all, when never seen); uncapped
--   last_message_id  the newest message of any kind
ALTER TABLE conversations ADD COLUMN label_list TEXT NOT NULL DEFAULT '[]';
ALTER TABLE conversations ADD COLUMN unread_incoming INTEGER NOT NULL DEFAULT 0;
ALTER TABLE conversations ADD COLUMN last_message_id INTEGER;

UPDATE conversations SET label_list = (
  SELECT json_group_array(title) FROM (SELECT title FROM conversation_labels l WHERE l.conversation_id = conversations.id ORDER BY l.id)
) WHERE id IN (SELECT conversation_id FROM conversation_labels);
UPDATE conversations SET
  last_message_id = (SELECT max(id) FROM messages m WHERE m.conversation_id = conversations.id),
  unread_incoming = (
    SELECT count(*) FROM messages m INDEXED BY messages_conversation_time
    WHERE m.conversation_id = conversations.id AND m.created_at > coalesce(conversations.agent_last_seen_at, -1) AND m.message_type = 0
  )
WHERE id IN (SELECT conversation_id FROM messages);

CREATE TRIGGER conversation_label_list_insert AFTER INSERT ON conversation_labels BEGIN
  UPDATE conversations SET label_list = (
    SELECT json_group_array(title) FROM (SELECT title FROM conversation_labels WHERE conversation_id = NEW.conversation_id ORDER BY id)
  ) WHERE id = NEW.conversation_id;
END;
CREATE TRIGGER conversation_label_list_delete AFTER DELETE ON conversation_labels BEGIN
  UPDATE conversations SET label_list = (
    SELECT json_group_array(title) FROM (SELECT title FROM conversation_labels WHERE conversation_id = OLD.conversation_id ORDER BY id)
  ) WHERE id = OLD.conversation_id;
END;
-- A label renamed across the account (src/db/account-labels.repo.ts) keeps each row's place.
CREATE TRIGGER conversation_label_list_update AFTER UPDATE OF title ON conversation_labels BEGIN
  UPDATE conversations SET label_list = (
    SELECT json_group_array(title) FROM (SELECT title FROM conversation_labels WHERE conversation_id = NEW.conversation_id ORDER BY id)
  ) WHERE id = NEW.conversation_id;
END;

-- Messages are never edited in these columns (type, time, conversation) and are removed only with
-- their conversation; the delete trigger keeps the columns exact anyway.
CREATE TRIGGER conversation_message_columns_insert AFTER INSERT ON messages BEGIN
  UPDATE conversations SET
    last_message_id = max(coalesce(last_message_id, 0), NEW.id),
    unread_incoming = unread_incoming + (NEW.message_type = 0 AND NEW.created_at > coalesce(agent_last_seen_at, -1))
  WHERE id = NEW.conversation_id;
END;
CREATE TRIGGER conversation_message_columns_delete AFTER DELETE ON messages BEGIN
  UPDATE conversations SET
    last_message_id = (SELECT max(id) FROM messages m WHERE m.conversation_id = OLD.conversation_id),
    unread_incoming = (
      SELECT count(*) FROM messages m INDEXED BY messages_conversation_time
      WHERE m.conversation_id = OLD.conversation_id AND m.created_at > coalesce(conversations.agent_last_seen_at, -1) AND m.message_type = 0
    )
  WHERE id = OLD.conversation_id;
END;
-- Every save writes agent_last_seen_at: the WHEN recounts only when it moved (an agent looked).
CREATE TRIGGER conversation_unread_seen AFTER UPDATE OF agent_last_seen_at ON conversations
WHEN OLD.agent_last_seen_at IS NOT NEW.agent_last_seen_at BEGIN
  UPDATE conversations SET unread_incoming = (
    SELECT count(*) FROM messages m INDEXED BY messages_conversation_time
    WHERE m.conversation_id = NEW.id AND m.created_at > coalesce(NEW.agent_last_seen_at, -1) AND m.message_type = 0
  ) WHERE id = NEW.id;
END;
