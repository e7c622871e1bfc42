import { Elysia, t } from "elysia";
import pkg from "../../package.json" with { type: "json" };
import type { Deps } from "../deps.ts";
import { whenReady } from "../lib/when-ready.ts";

/** Chatwoot's timestamp format for GET /api: "YYYY-MM-DD HH:MM:SS" in UTC (Rails' :db format). */
function dbTimestamp(ms: number): string {
  return new Date(ms).toISOString().slice(0, 19).replace("T", " ");
}

export function healthRoutes(d: Pick<Deps, "clock" | "dataServicesOk">) {
  return new Elysia()
    .get("/health", () => ({ status: "ok" as const }), {
      response: t.Object({ status: t.Literal("ok") }),
      detail: { tags: ["system"], summary: "Liveness check" },
    })
    .get(
      "/api",
      () => {
        // The database is the only data service; there is no separate queue (jobs run in-process).
        // Awaited on PostgreSQL (the read pool), answered in place on SQLite.
        return whenReady(d.dataServicesOk(), (dataOk) => ({
          version: pkg.version,
          timestamp: dbTimestamp(d.clock.nowMs()),
          queue_services: "ok",
          data_services: dataOk ? "ok" : "failing",
        }));
      },
      {
        response: t.Object({
          version: t.String(),
          timestamp: t.String(),
          queue_services: t.String(),
          data_services: t.String(),
        }),
        detail: {
          tags: ["system"],
          summary: "Version and service status (Chatwoot's GET /api, which the mobile app pings)",
        },
      },
    );
}
