// A checkbox per agent of the account (inbox and team members).
import type { Signal } from "@preact/signals";
import type { Agent } from "../../lib/types.ts";
import { t } from "../../lib/i18n.ts";

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
      {agents.length === 0 && <p>{t("members.none")}</p>}
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
              {a.role === "administrator" ? t("members.administrator") : ""}
            </span>
          </span>
        </label>
      ))}
    </fieldset>
  );
}
