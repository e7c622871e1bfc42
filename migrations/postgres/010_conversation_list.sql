-- The conversation list at a million conversations.
--
-- 1. Its meta counts (mine / unassigned / assigned / all) were computed per request by visiting
--    every matching conversation (≈ 200 ms for 600,000 open ones). A tally per (inbox, team,
--    status, assignee) kept by triggers answers them by summing a few rows. Triggers, not service
--    code, keep it: every write path (services, seed, imports, deletes by cascade) is covered, and
--    the tally changes in the same transaction as the conversation. 0 stands for "no team" and
--    "unassigned" because NULLs never conflict in a primary key.
CREATE TABLE conversation_tallies (
  account_id BIGINT NOT NULL,
  inbox_id BIGINT NOT NULL,
  team_id BIGINT NOT NULL,
  status TEXT NOT NULL,
  assignee_id BIGINT NOT NULL,
  n BIGINT NOT NULL,
  PRIMARY KEY (account_id, inbox_id, team_id, status, assignee_id)
);

INSERT INTO conversation_tallies (account_id, inbox_id, team_id, status, assignee_id, n)
SELECT account_id, inbox_id, coalesce(team_id, 0), status, coalesce(assignee_id, 0), count(*)
FROM conversations GROUP BY 1, 2, 3, 4, 5;

CREATE FUNCTION conversation_tallies_insert() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO conversation_tallies (account_id, inbox_id, team_id, status, assignee_id, n)
  VALUES (NEW.account_id, NEW.inbox_id, coalesce(NEW.team_id, 0), NEW.status, coalesce(NEW.assignee_id, 0), 1)
  ON CONFLICT (account_id, inbox_id, team_id, status, assignee_id) DO UPDATE SET n = conversation_tallies.n + 1;
  RETURN NULL;
END $$;
CREATE TRIGGER conversation_tallies_insert AFTER INSERT ON conversations
  FOR EACH ROW EXECUTE FUNCTION conversation_tallies_insert();

CREATE FUNCTION conversation_tallies_delete() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE conversation_tallies SET n = n - 1
  WHERE account_id = OLD.account_id AND inbox_id = OLD.inbox_id AND team_id = coalesce(OLD.team_id, 0)
    AND status = OLD.status AND assignee_id = coalesce(OLD.assignee_id, 0);
  RETURN NULL;
END $$;
CREATE TRIGGER conversation_tallies_delete AFTER DELETE ON conversations
  FOR EACH ROW EXECUTE FUNCTION conversation_tallies_delete();

-- Every message touches its conversation (last_activity_at): the WHEN keeps those updates free.
CREATE FUNCTION conversation_tallies_update() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE conversation_tallies SET n = n - 1
  WHERE account_id = OLD.account_id AND inbox_id = OLD.inbox_id AND team_id = coalesce(OLD.team_id, 0)
    AND status = OLD.status AND assignee_id = coalesce(OLD.assignee_id, 0);
  INSERT INTO conversation_tallies (account_id, inbox_id, team_id, status, assignee_id, n)
  VALUES (NEW.account_id, NEW.inbox_id, coalesce(NEW.team_id, 0), NEW.status, coalesce(NEW.assignee_id, 0), 1)
  ON CONFLICT (account_id, inbox_id, team_id, status, assignee_id) DO UPDATE SET n = conversation_tallies.n + 1;
  RETURN NULL;
END $$;
CREATE TRIGGER conversation_tallies_update AFTER UPDATE OF inbox_id, team_id, status, assignee_id ON conversations
  FOR EACH ROW
  WHEN (OLD.inbox_id IS DISTINCT FROM NEW.inbox_id OR OLD.team_id IS DISTINCT FROM NEW.team_id
        OR OLD.status IS DISTINCT FROM NEW.status OR OLD.assignee_id IS DISTINCT FROM NEW.assignee_id)
  EXECUTE FUNCTION conversation_tallies_update();

-- 2. Its pages: a filter on assignee, team or inbox walked the (account, status, activity) index
--    and skipped non-matching rows, which for a sparse filter (an agent with three open
--    conversations among 600,000) is the whole index. One index per filter, each leading with the
--    account so the planner prefers it without statistics. They cost an index update per message
--    (last_activity_at moves); measured in test/bench/README.md.
DROP INDEX conversations_inbox_status;
CREATE INDEX conversations_inbox_status_activity ON conversations(account_id, inbox_id, status, last_activity_at);
CREATE INDEX conversations_team_status_activity ON conversations(account_id, team_id, status, last_activity_at);
CREATE INDEX conversations_assignee_status_activity ON conversations(account_id, assignee_id, status, last_activity_at);
