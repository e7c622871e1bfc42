// The conversation's assignee, team, priority and labels, each changed where it is shown.
import { useSignal } from "@preact/signals";
import { useEffect } from "preact/hooks";
import { assignableAgents, directory } from "../../lib/directory.ts";
import { conversationAction, describeError } from "../../lib/thread.ts";
import type { Agent, Conversation } from "../../lib/types.ts";
import { LabelEditor } from "./LabelEditor.tsx";
import { Options } from "../Options.tsx";
import { t } from "../../lib/i18n.ts";

const PRIORITIES = [
  ["", "details.no_priority"],
  ["low", "priority.low"],
  ["medium", "priority.medium"],
  ["high", "priority.high"],
  ["urgent", "priority.urgent"],
] as const;

export function ConversationDetails({ accountId, conversation: c }: { accountId: number; conversation: Conversation }) {
  const agents = useSignal<Agent[]>([]);
  const error = useSignal<string | null>(null);
  const status = useSignal("");
  useEffect(() => {
    void assignableAgents(accountId, c.inbox_id).then((list) => (agents.value = list));
  }, [accountId, c.inbox_id]);

  /** Saves a change (true when saved); a refused one puts the control back to what the server still has. */
  const change = async (what: string, path: string, body: unknown, control?: HTMLSelectElement, was?: string) => {
    error.value = null;
    status.value = "";
    try {
      await conversationAction(path, body);
      status.value = t("details.saved", { what });
      return true;
    } catch (e) {
      if (control && was !== undefined) control.value = was;
      error.value = describeError(e, t("details.not_changed", { what }));
      return false;
    }
  };
  const numberOrNull = (v: string) => (v === "" ? null : Number(v));
  const assignee = c.meta.assignee;
  // The current assignee stays in the list even if they left the inbox since.
  const options =
    assignee && !agents.value.some((a) => a.id === assignee.id) ? [assignee, ...agents.value] : agents.value;

  return (
    <section class="details-section" aria-labelledby="conversation-details-title">
      <h3 id="conversation-details-title">{t("details.conversation")}</h3>
      <div class="field">
        <label for="assignee-select">{t("details.assignee")}</label>
        <select
          id="assignee-select"
          value={assignee?.id ?? ""}
          onChange={(e) =>
            void change(
              t("details.what_assignee"),
              "assignments",
              { assignee_id: numberOrNull(e.currentTarget.value) },
              e.currentTarget,
              String(assignee?.id ?? ""),
            )
          }
        >
          <option value="">{t("details.unassigned")}</option>
          <Options items={options.map((a) => [a.id, a.available_name] as const)} />
        </select>
      </div>
      <div class="field">
        <label for="team-select">{t("details.team")}</label>
        <select
          id="team-select"
          value={c.meta.team?.id ?? ""}
          onChange={(e) =>
            void change(
              t("details.what_team"),
              "assignments",
              { team_id: numberOrNull(e.currentTarget.value) },
              e.currentTarget,
              String(c.meta.team?.id ?? ""),
            )
          }
        >
          <option value="">{t("details.no_team")}</option>
          <Options items={directory.value?.teams.map((team) => [team.id, team.name] as const)} />
        </select>
      </div>
      <div class="field">
        <label for="priority-select">{t("details.priority")}</label>
        <select
          id="priority-select"
          value={c.priority ?? ""}
          onChange={(e) =>
            void change(
              t("details.what_priority"),
              "toggle_priority",
              { priority: e.currentTarget.value || null },
              e.currentTarget,
              c.priority ?? "",
            )
          }
        >
          <Options items={PRIORITIES.map(([value, key]) => [value, t(key)] as const)} />
        </select>
      </div>
      <LabelEditor
        accountId={accountId}
        conversation={c}
        onChange={(labels) => change(t("details.what_labels"), "labels", { labels })}
      />
      {error.value && (
        <p class="field-error" role="alert">
          {error.value}
        </p>
      )}
      <p class="visually-hidden" role="status">
        {status.value}
      </p>
    </section>
  );
}
