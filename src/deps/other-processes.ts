// What a server on PostgreSQL hears from the other processes serving the same database: their
// commits (which wake the event listeners and this process's sockets), who is online through them
// (src/realtime/shared-presence.ts), and which accounts' automation rules they changed (the rules
// are compiled once per change, in whichever process runs the automations). A failure to tell or to
// hear presence is logged, never thrown into the socket or timer that caused it.
import type { EventBus } from "../events/bus.ts";
import { transactionalNotices } from "../db/notices.ts";
import type { PostgresDatabase } from "../db/postgres/database.ts";
import type { AutomationRulesService } from "../domain/automation-rules.service.ts";
import type { Clock } from "../lib/clock.ts";
import { errorFields, type Logger } from "../lib/logger.ts";
import type { RealtimeHub } from "../realtime/hub.ts";
import { SharedPresence } from "../realtime/shared-presence.ts";

const PRESENCE_CHANNEL = "parley_presence";
const RULES_CHANNEL = "parley_automation_rules";

export interface OtherProcessesParts {
  db: PostgresDatabase;
  bus: EventBus;
  hub: RealtimeHub;
  rules: AutomationRulesService;
  clock: Clock;
  logger: Logger;
}

/** Starts hearing the other processes; the shared presence is for the heartbeat job. */
export function hearOtherProcesses(p: OtherProcessesParts): SharedPresence {
  p.db.onCommits(() => {
    p.bus.wake();
    p.hub.wake();
  });
  const presence = new SharedPresence({
    processId: crypto.randomUUID().slice(0, 8),
    send: (line) => {
      p.db.notifySoon(PRESENCE_CHANNEL, line).catch((error) => {
        p.logger.warn("presence not told to the other processes", errorFields(error));
      });
    },
    clock: p.clock,
    changed: (accountId) => p.hub.availabilityChanged(accountId),
    localState: () => p.hub.presence.localState(),
  });
  p.hub.presence.share(presence);
  p.db.onNotice(PRESENCE_CHANNEL, (line) => {
    try {
      presence.hear(line);
    } catch (error) {
      p.logger.error("presence from another process not applied", errorFields(error));
    }
  });
  presence.start();
  // A rule change is heard here a moment after its commit, on a connection of its own: an event
  // committed within that moment may still meet the rules from before, as if the change had come
  // a few milliseconds later.
  const notice = transactionalNotices(p.db);
  p.rules.shareChanges((accountId) => notice(RULES_CHANNEL, String(accountId)));
  p.db.onNotice(RULES_CHANNEL, (accountId) => p.rules.forget(Number(accountId)));
  return presence;
}
