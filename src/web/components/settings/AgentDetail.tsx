// One agent: their name (the user's, so it changes in every account, as in Chatwoot), role, and the
// availability they show while connected (with "go offline when disconnected" on, which Parley
// keeps as the default, they show offline whenever no page of theirs is open).
import { useSignal } from "@preact/signals";
import { ApiError, api } from "../../lib/api.ts";
import { loadDirectory } from "../../lib/directory.ts";
import type { Agent } from "../../lib/types.ts";
import { useResource } from "../../lib/use-resource.ts";
import { useSubmit } from "../../lib/use-submit.ts";
import { CheckField } from "../CheckField.tsx";
import { Field, describedBy } from "../Field.tsx";
import { FormFailure } from "../FormFailure.tsx";
import { FormFooter } from "../FormFooter.tsx";
import { DetailPage } from "./DetailPage.tsx";
import { Options } from "../Options.tsx";
import { TextInput } from "../TextInput.tsx";
import { type Key, t } from "../../lib/i18n.ts";

const ROLES = [
  ["agent", "agents.agent"],
  ["administrator", "agents.administrator"],
] as const;
const AVAILABILITY = [
  ["online", "agents.online"],
  ["busy", "agents.busy"],
  ["offline", "agents.offline"],
] as const;
const words = (items: readonly (readonly [string, Key])[]) => items.map(([value, key]) => [value, t(key)] as const);

const availabilityText = (status: string) => {
  const known = AVAILABILITY.find(([value]) => value === status);
  return known ? t(known[1]).toLowerCase() : status;
};

export function AgentDetail({ accountId, agentId }: { accountId: number; agentId: number }) {
  const agents = useResource(
    () => api<Agent[]>("GET", `/api/v1/accounts/${accountId}/agents`),
    [accountId],
    t("agents.what_one"),
  );
  const list = agents.data.value;
  const agent = list?.find((a) => a.id === agentId);
  return (
    <DetailPage accountId={accountId} section="agents" back={t("agents.all")} resource={agents}>
      {list && !agent && <p role="alert">{t("agents.not_member")}</p>}
      {agent && <AgentEditForm key={agent.id} accountId={accountId} agent={agent} />}
      {agent?.confirmed === false && <Invitation accountId={accountId} agent={agent} />}
    </DetailPage>
  );
}

function AgentEditForm({ accountId, agent }: { accountId: number; agent: Agent }) {
  const name = useSignal(agent.name);
  const role = useSignal<string>(agent.role);
  // The record says how the agent shows now, not what they chose: with auto_offline a disconnected
  // agent shows offline whatever they chose. So availability is sent only when changed here.
  const shown =
    agent.auto_offline !== false && agent.availability_status === "offline" ? "online" : agent.availability_status;
  const availability = useSignal(shown);
  const autoOffline = useSignal(agent.auto_offline !== false);
  const saved = useSignal("");
  const form = useSubmit(
    {
      name: t("agents.name"),
      role: t("agents.role"),
      availability: t("agents.availability"),
      auto_offline: t("agents.auto_offline"),
    },
    "agent-edit-",
    t("agents.saving_what"),
  );
  const submit = (e: SubmitEvent) => {
    e.preventDefault();
    saved.value = "";
    void form.run(async () => {
      const body = {
        name: name.value.trim(),
        role: role.value,
        auto_offline: autoOffline.value,
        ...(availability.value === shown ? {} : { availability: availability.value }),
      };
      const updated = await api<Agent>("PATCH", `/api/v1/accounts/${accountId}/agents/${agent.id}`, body);
      void loadDirectory(accountId, true).catch(() => undefined);
      saved.value = t("agents.saved", { name: updated.available_name });
    });
  };
  const errors = form.errors.value;
  return (
    <form class="settings-card" onSubmit={submit} noValidate aria-labelledby="agent-edit-title">
      <h2 id="agent-edit-title">{agent.available_name}</h2>
      <p class="hint">{agent.email}</p>
      <Field id="agent-edit-name" label={t("agents.name")} error={errors.name}>
        <TextInput {...describedBy("agent-edit-name", errors.name)} maxLength={255} value={name} />
      </Field>
      <Field id="agent-edit-role" label={t("agents.role")} error={errors.role}>
        <select
          {...describedBy("agent-edit-role", errors.role)}
          value={role.value}
          onChange={(e) => (role.value = e.currentTarget.value)}
        >
          <Options items={words(ROLES)} />
        </select>
      </Field>
      <Field
        id="agent-edit-availability"
        label={t("agents.availability")}
        error={errors.availability}
        hint={t("agents.shown_as", { status: availabilityText(agent.availability_status) })}
      >
        <select
          {...describedBy("agent-edit-availability", errors.availability, true)}
          value={availability.value}
          onChange={(e) => (availability.value = e.currentTarget.value)}
        >
          <Options items={words(AVAILABILITY)} />
        </select>
      </Field>
      <CheckField
        id="agent-edit-auto_offline"
        label={t("agents.auto_offline_label")}
        value={autoOffline}
        error={errors.auto_offline}
      />
      <FormFooter failure={form.failure.value} saved={saved.value} busy={form.busy.value} label={t("agents.save")} />
    </form>
  );
}

/** An agent who has not chosen a password yet: say so, and mail the invitation again on request. */
function Invitation({ accountId, agent }: { accountId: number; agent: Agent }) {
  const status = useSignal("");
  const failure = useSignal<string | null>(null);
  const busy = useSignal(false);
  const send = async () => {
    if (busy.value) return;
    busy.value = true;
    status.value = "";
    failure.value = null;
    try {
      await api<Agent>("POST", `/api/v1/accounts/${accountId}/agents/${agent.id}/invitation`);
      status.value = t("agents.invitation_sent", { email: agent.email });
    } catch (e) {
      failure.value = e instanceof ApiError ? e.description : t("agents.invitation_failed");
    } finally {
      busy.value = false;
    }
  };
  return (
    <section class="settings-card" aria-labelledby="agent-invitation-title">
      <h2 id="agent-invitation-title">{t("agents.pending")}</h2>
      <p class="hint">{t("agents.pending_hint", { name: agent.available_name })}</p>
      <FormFailure message={failure.value} />
      <p role="status" class="form-status">
        {status.value}
      </p>
      <button type="button" onClick={() => void send()} aria-disabled={busy.value ? "true" : undefined}>
        {t("agents.invite_again")}
      </button>
    </section>
  );
}
