// Chatwoot's macros in the web app: saved lists of conversation actions that a member runs by hand
// from the conversation screen. Administrators keep global ones (every member runs them); anyone
// keeps personal ones. The form reuses the automation form's action rows, limited to what a macro
// may do (the server's own list, src/shared/macro-actions.ts). Pure
// (test/web/macros.test.ts).
import { MACRO_ACTIONS } from "../../shared/macro-actions.ts";
import { actionsBody, type ActionRow } from "./automation.ts";
import type { Agent } from "./types.ts";

export { MACRO_ACTIONS };

export type Visibility = "personal" | "global";

export interface Macro {
  id: number;
  name: string;
  visibility: Visibility;
  created_by?: Agent;
  updated_by?: Agent;
  account_id: number;
  actions: { action_name: string; action_params: unknown[] }[];
}

/** A new macro's first row: a private note, the commonest first step of a macro. */
export function newMacroAction(): ActionRow {
  return { action_name: "add_private_note", value: "", message: "" };
}

/**
 * The macro as POST/PATCH take it. An agent's macro is always personal (the server says so too),
 * so their form sends no visibility at all.
 */
export function macroBody(name: string, visibility: Visibility, actions: ActionRow[], administrator: boolean) {
  return {
    name: name.trim(),
    ...(administrator ? { visibility } : {}),
    actions: actionsBody(actions),
  };
}

/** Who may change or delete it: its author, or any administrator (the server answers 403 otherwise). */
export function mayChange(macro: Macro, userId: number, administrator: boolean): boolean {
  return administrator || macro.created_by?.id === userId;
}

/** Global macros first, then by name: what the conversation screen's menu lists. */
export function menuOrder(macros: readonly Macro[]): Macro[] {
  return [...macros].sort(
    (a, b) => Number(b.visibility === "global") - Number(a.visibility === "global") || a.name.localeCompare(b.name),
  );
}
