import { Elysia, t } from "elysia";

export function healthRoutes() {
  return new Elysia().get("/health", () => ({ status: "ok" as const }), {
    response: t.Object({ status: t.Literal("ok") }),
    detail: { tags: ["system"], summary: "Liveness check" },
  });
}
