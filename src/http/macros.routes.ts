// /api/v1/accounts/:account_id/macros — Chatwoot's macros: the list answers {payload: [...]},
// create/show/update answer {payload: macro}, delete and execute answer 200 with no body.
import { Elysia, t } from "elysia";
import type { MacroRow } from "../db/macros.repo.ts";
import type { Deps } from "../deps.ts";
import { actingAs } from "../domain/acting.ts";
import { MACRO_ACTIONS, MAX_RUN_CONVERSATIONS, type MacrosWithPeople } from "../domain/macros.service.ts";
import { agentOf } from "../domain/presenters/user.presenter.ts";
import { whenReady } from "../lib/when-ready.ts";
import { accountScope } from "./auth.ts";
import { emptyOk } from "./conversation-schemas.ts";
import { bodyOf } from "./request.ts";
import { AccountParams, Agent, Checked, errorResponses, Integer, JsonValue } from "./schemas.ts";

const Action = t.Object({
  action_name: t.String({ description: MACRO_ACTIONS.join(", ") }),
  action_params: t.Array(JsonValue),
});
const Macro = t.Object({
  id: Integer(),
  name: t.String(),
  visibility: t.String({ description: "personal (its author's) or global (every member's)" }),
  created_by: t.Optional(Agent),
  updated_by: t.Optional(Agent),
  account_id: Integer(),
  actions: t.Array(Action),
});
const Body = t.Object({
  name: t.Optional(Checked(t.String({ maxLength: 255 }))),
  visibility: t.Optional(Checked(t.String({ enum: ["personal", "global"] }))),
  actions: t.Optional(Checked(t.Array(Action, { minItems: 1, maxItems: 20 }))),
});
const IdParams = t.Object({ account_id: t.String(), id: t.String() });
const tags = ["macros"];

export function macroRoutes(d: Deps) {
  const macros = d.services.macros;
  // Who made and last changed it, while they are members of the account.
  const presentOne = (m: MacroRow, people: MacrosWithPeople["people"]) => {
    const agent = (id: number | null) => {
      const ref = id === null ? undefined : people.get(id);
      return ref?.membership ? agentOf(ref.user, ref.membership) : undefined;
    };
    const createdBy = agent(m.created_by_id);
    const updatedBy = agent(m.updated_by_id);
    return {
      id: m.id,
      name: m.name,
      visibility: m.visibility,
      ...(createdBy ? { created_by: createdBy } : {}),
      ...(updatedBy ? { updated_by: updatedBy } : {}),
      account_id: m.account_id,
      actions: JSON.parse(m.actions) as { action_name: string; action_params: unknown[] }[],
    };
  };
  const present = ({ macros: rows, people }: MacrosWithPeople) => rows.map((m) => presentOne(m, people));
  // A write's answer: the macro and its people, read in the write's own body.
  const written = (m: MacrosWithPeople) => ({ payload: present(m)[0]! });
  const one = { response: { 200: t.Object({ payload: Macro }), ...errorResponses } };
  return new Elysia({ prefix: "/api/v1/accounts/:account_id/macros" })
    .use(accountScope(d.services.auth))
    .get("", ({ principal }) => whenReady(macros.list(principal), (found) => ({ payload: present(found) })), {
      params: AccountParams,
      response: { 200: t.Object({ payload: t.Array(Macro) }), ...errorResponses },
      detail: { tags, summary: "The macros the caller may run: global ones and their own (administrators: all)" },
    })
    .get(
      "/:id",
      ({ principal, params }) =>
        whenReady(macros.showSoon(principal, params.id), (found) => ({ payload: present(found)[0]! })),
      {
        params: IdParams,
        ...one,
        detail: { tags, summary: "One macro (another agent's personal macro is not found)" },
      },
    )
    .post("", async ({ principal, body }) => written(await macros.create(principal, body)), {
      params: AccountParams,
      ...bodyOf(Body, "macro"),
      ...one,
      detail: { tags, summary: "Create a macro (an agent's is always personal)" },
    })
    .patch("/:id", async ({ principal, params, body }) => written(await macros.update(principal, params.id, body)), {
      params: IdParams,
      ...bodyOf(Body, "macro"),
      ...one,
      detail: { tags, summary: "Change a macro (its author, or an administrator)" },
    })
    .delete("/:id", async ({ principal, params }) => (await macros.delete(principal, params.id), emptyOk()), {
      params: IdParams,
      detail: { tags, summary: "Delete a macro (its author, or an administrator)" },
    })
    .post(
      "/:id/execute",
      async ({ principal, params, body }) => {
        await macros.execute(principal, actingAs(principal), params.id, body.conversation_ids);
        return emptyOk();
      },
      {
        params: IdParams,
        ...bodyOf(
          t.Object({
            conversation_ids: t.Optional(
              Checked(t.Array(Integer(), { description: `display ids (at most ${MAX_RUN_CONVERSATIONS})` })),
            ),
          }),
        ),
        detail: {
          tags,
          summary: "Run the macro's actions on conversations, as the caller; all or nothing, done when it answers",
        },
      },
    );
}
