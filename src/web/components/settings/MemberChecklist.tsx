// A checkbox per agent of the account (inbox and team members).
import type { Signal } from "@preact/signals";
import type { Agent } from "../../lib/types.ts";

export function MemberChecklist({
  agents,
  chosen,
  legend,
}: {
  agents: Agent[];
  chosen: Signal<Set<number>>;
  legend: string;
}) {
  const toggle = (id: number, on: boolean) => {
    const next = new Set(chosen.value);
    if (on) next.add(id);
    else next.delete(id);
    chosen.value = next;
  };
  return (
    <fieldset class="checklist">
      <legend class="visually-hidden">{legend}</legend>
      {agents.length === 0 && <p>No agents yet.</p>}
      {agents.map((a) => (
        <label key={a.id} class="check">
          <input
            type="checkbox"
            checked={chosen.value.has(a.id)}
            onChange={(e) => toggle(a.id, e.currentTarget.checked)}
          />
          <span>
            {a.available_name}{" "}
            <span class="hint">
              {a.email}
              {a.role === "administrator" ? " · administrator" : ""}
            </span>
          </span>
        </label>
      ))}
    </fieldset>
  );
}
