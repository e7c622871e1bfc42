// The conversation's assignee, team, priority and labels, each changed where it is shown.
import { useSignal } from "@preact/signals";
import { useEffect } from "preact/hooks";
import { assignableAgents, directory } from "../../lib/directory.ts";
import { conversationAction, describeError } from "../../lib/thread.ts";
import type { Agent, Conversation } from "../../lib/types.ts";
import { LabelEditor } from "./LabelEditor.tsx";
import { Options } from "../Options.tsx";

const PRIORITIES = [
  ["", "None"],
  ["low", "Low"],
  ["medium", "Medium"],
  ["high", "High"],
  ["urgent", "Urgent"],
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
      status.value = `${what} saved.`;
      return true;
    } catch (e) {
      if (control && was !== undefined) control.value = was;
      error.value = describeError(e, `${what} could not be changed.`);
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
      <h3 id="conversation-details-title">Conversation</h3>
      <div class="field">
        <label for="assignee-select">Assigned agent</label>
        <select
          id="assignee-select"
          value={assignee?.id ?? ""}
          onChange={(e) =>
            void change(
              "Assignee",
              "assignments",
              { assignee_id: numberOrNull(e.currentTarget.value) },
              e.currentTarget,
              String(assignee?.id ?? ""),
            )
          }
        >
          <option value="">Unassigned</option>
          <Options items={options.map((a) => [a.id, a.available_name] as const)} />
        </select>
      </div>
      <div class="field">
        <label for="team-select">Team</label>
        <select
          id="team-select"
          value={c.meta.team?.id ?? ""}
          onChange={(e) =>
            void change(
              "Team",
              "assignments",
              { team_id: numberOrNull(e.currentTarget.value) },
              e.currentTarget,
              String(c.meta.team?.id ?? ""),
            )
          }
        >
          <option value="">No team</option>
          <Options items={directory.value?.teams.map((t) => [t.id, t.name] as const)} />
        </select>
      </div>
      <div class="field">
        <label for="priority-select">Priority</label>
        <select
          id="priority-select"
          value={c.priority ?? ""}
          onChange={(e) =>
            void change(
              "Priority",
              "toggle_priority",
              { priority: e.currentTarget.value || null },
              e.currentTarget,
              c.priority ?? "",
            )
          }
        >
          <Options items={PRIORITIES} />
        </select>
      </div>
      <LabelEditor
        accountId={accountId}
        conversation={c}
        onChange={(labels) => change("Labels", "labels", { labels })}
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
