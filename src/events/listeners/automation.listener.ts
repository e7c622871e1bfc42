// Automation runs as a durable bus listener: after the commit that recorded an event, off the
// request path, resumed from its cursor after a restart. The engine decides which events matter.
import type { AutomationEngine } from "../../domain/automation-engine.ts";
import type { DurableListener } from "../bus.ts";

export const AUTOMATION_LISTENER = "automation";

export function automationListener(engine: AutomationEngine): DurableListener {
  return { name: AUTOMATION_LISTENER, handle: (event) => engine.handle(event) };
}
