// What a server on PostgreSQL hears from the other processes serving the same database: their
// commits (which wake the event listeners and this process's sockets) and who is online through
// them (src/realtime/shared-presence.ts). A failure to tell or to hear is logged, never thrown into
// the socket or timer that caused it.
import type { EventBus } from "../events/bus.ts";
import type { PostgresDatabase } from "../db/postgres/database.ts";
import type { Clock } from "../lib/clock.ts";
import { errorFields, type Logger } from "../lib/logger.ts";
import type { RealtimeHub } from "../realtime/hub.ts";
import { SharedPresence } from "../realtime/shared-presence.ts";

const PRESENCE_CHANNEL = "parley_presence";

export interface OtherProcessesParts {
  db: PostgresDatabase;
  bus: EventBus;
  hub: RealtimeHub;
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
      try {
        p.db.notify(PRESENCE_CHANNEL, line);
      } catch (error) {
        p.logger.warn("presence not told to the other processes", errorFields(error));
      }
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
  return presence;
}
