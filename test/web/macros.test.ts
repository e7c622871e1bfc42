// The macro form's pure helpers: what it offers, the body it sends (an agent's carries no
// visibility), who may change a macro, and the conversation menu's order.
import { describe, expect, test } from "bun:test";
import { MACRO_ACTIONS as SERVER_ACTIONS } from "../../src/domain/macros.service.ts";
import { actionRowsOf, FORM_ACTIONS } from "../../src/web/lib/automation.ts";
import {
  MACRO_ACTIONS,
  type Macro,
  macroBody,
  mayChange,
  menuOrder,
  newMacroAction,
} from "../../src/web/lib/macros.ts";

const macro = (id: number, name: string, visibility: Macro["visibility"], authorId?: number): Macro => ({
  id,
  name,
  visibility,
  account_id: 1,
  actions: [],
  ...(authorId === undefined
    ? {}
    : {
        created_by: {
          id: authorId,
          name: "A",
          available_name: "A",
          email: "a@example.com",
          role: "agent",
          availability_status: "online",
        },
      }),
});

describe("macros in the web app", () => {
  test("the form offers exactly the server's macro actions, each one the action rows know", () => {
    expect(MACRO_ACTIONS).toEqual(SERVER_ACTIONS);
    expect(MACRO_ACTIONS).toContain("add_private_note");
    expect(MACRO_ACTIONS).not.toContain("send_webhook_event");
    for (const a of MACRO_ACTIONS) expect(FORM_ACTIONS as readonly string[]).toContain(a);
  });

  test("rows become the body; only an administrator's carries a visibility", () => {
    const rows = [
      { ...newMacroAction(), value: " Closing as agreed " },
      { action_name: "add_label" as const, value: "vip, billing", message: "" },
      { action_name: "resolve_conversation" as const, value: "", message: "" },
    ];
    const actions = [
      { action_name: "add_private_note", action_params: ["Closing as agreed"] },
      { action_name: "add_label", action_params: ["vip", "billing"] },
      { action_name: "resolve_conversation", action_params: [] },
    ];
    expect(macroBody(" Close ", "global", rows, true)).toEqual({ name: "Close", visibility: "global", actions });
    expect(macroBody("Close", "global", rows, false)).toEqual({ name: "Close", actions });
    // A saved macro's actions come back as the same rows (for Edit).
    expect(actionRowsOf(actions)).toEqual([{ ...rows[0]!, value: "Closing as agreed" }, rows[1]!, rows[2]!]);
  });

  test("its author or an administrator may change a macro", () => {
    expect(mayChange(macro(1, "Mine", "personal", 7), 7, false)).toBe(true);
    expect(mayChange(macro(2, "Theirs", "global", 8), 7, false)).toBe(false);
    expect(mayChange(macro(3, "Author gone", "global"), 7, false)).toBe(false);
    expect(mayChange(macro(2, "Theirs", "global", 8), 7, true)).toBe(true);
  });

  test("the menu lists global macros first, then by name", () => {
    const list = [macro(1, "b mine", "personal"), macro(2, "z team", "global"), macro(3, "a mine", "personal")];
    expect(menuOrder(list).map((m) => m.name)).toEqual(["z team", "a mine", "b mine"]);
    expect(list[0]!.name).toBe("b mine"); // the resource's list is left as it was
  });
});
