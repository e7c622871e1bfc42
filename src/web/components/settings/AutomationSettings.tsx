// Settings › Automation: the account's rules (on or off, cloned, deleted) and a form for a new one,
// over Chatwoot's automation API (§6.4: GET {payload: [rule]}, POST a bare rule, PATCH, DELETE, POST
// :id/clone). A path with a rule's id edits it in the same form. A server without it says so instead.
import { useSignal } from "@preact/signals";
import { api } from "../../lib/api.ts";
import { term, type AutomationRule } from "../../lib/automation.ts";
import { paths } from "../../lib/routes.ts";
import { describeError } from "../../lib/thread.ts";
import { useResource } from "../../lib/use-resource.ts";
import { ConfirmButton } from "../ConfirmButton.tsx";
import { Link } from "../Link.tsx";
import { DetailPage } from "./DetailPage.tsx";
import { LoadState } from "../LoadState.tsx";
import type { SectionProps } from "../Settings.tsx";
import { DataTable } from "../DataTable.tsx";
import { AutomationForm } from "./AutomationForm.tsx";
import { t } from "../../lib/i18n.ts";

export function AutomationSettings({ accountId, itemId }: SectionProps) {
  if (itemId !== null) return <RuleDetail accountId={accountId} ruleId={itemId} />;
  return <RuleList accountId={accountId} />;
}

function RuleDetail({ accountId, ruleId }: { accountId: number; ruleId: number }) {
  const url = `/api/v1/accounts/${accountId}/automation_rules/${ruleId}`;
  const rule = useResource(
    () => api<{ payload: AutomationRule }>("GET", url).then((r) => r.payload),
    [accountId, ruleId],
    t("rules.what_one"),
  );
  const message = useSignal("");
  const r = rule.data.value;
  const saved = async (name: string) => {
    message.value = t("rules.saved", { name });
    await rule.reload();
  };
  return (
    <DetailPage accountId={accountId} section="automation" back={t("rules.all")} resource={rule}>
      <p role="status" class="form-status">
        {message.value}
      </p>
      {r && <AutomationForm key={r.id} accountId={accountId} rule={r} onSaved={saved} />}
    </DetailPage>
  );
}

function RuleList({ accountId }: { accountId: number }) {
  const base = `/api/v1/accounts/${accountId}/automation_rules`;
  const rules = useResource(
    () => api<{ payload: AutomationRule[] }>("GET", base).then((r) => ({ list: r.payload })),
    [accountId],
    t("rules.what"),
  );
  const message = useSignal("");
  const act = async (done: string, request: () => Promise<unknown>) => {
    try {
      await request();
      message.value = done;
      await rules.reload();
    } catch (e) {
      message.value = describeError(e, t("rules.change_failed"));
      await rules.reload(); // undo what the screen showed before the answer
    }
  };
  // The box shows the change at once (a controlled checkbox would flip back until the answer).
  const setActive = (r: AutomationRule, active: boolean) => {
    rules.data.value = { list: (rules.data.value?.list ?? []).map((x) => (x.id === r.id ? { ...x, active } : x)) };
    void act(t(active ? "rules.on" : "rules.off", { name: r.name }), () => api("PATCH", `${base}/${r.id}`, { active }));
  };
  const list = rules.data.value?.list;
  return (
    <div class="settings-stack">
      <section class="settings-card" aria-labelledby="rules-title">
        <h2 id="rules-title">{t("rules.title")}</h2>
        <LoadState resource={rules} />
        <p role="status" class="form-status">
          {message.value}
        </p>
        {list && list.length === 0 && <p>{t("rules.none")}</p>}
        {list && list.length > 0 && (
          <DataTable columns={[t("rules.col.rule"), t("rules.col.when"), t("rules.col.on")]} actions>
            {list.map((r) => (
              <tr key={r.id}>
                <td class="wrap">
                  <Link href={paths.settings(accountId, "automation", r.id)}>{r.name}</Link>
                  {r.disabled_reason && (
                    <span class="hint">{t("rules.switched_off", { reason: r.disabled_reason })}</span>
                  )}
                </td>
                <td>{term("event", r.event_name)}</td>
                <td>
                  <input
                    type="checkbox"
                    aria-label={t("rules.is_on", { name: r.name })}
                    checked={r.active}
                    onChange={(e) => setActive(r, e.currentTarget.checked)}
                  />
                </td>
                <td class="row-actions">
                  <button
                    type="button"
                    class="small"
                    onClick={() =>
                      void act(t("rules.cloned", { name: r.name }), () => api("POST", `${base}/${r.id}/clone`))
                    }
                  >
                    {t("rules.clone")}
                    <span class="visually-hidden"> {r.name}</span>
                  </button>
                  <ConfirmButton
                    label={t("common.delete")}
                    target={r.name}
                    question={t("rules.delete_question", { name: r.name })}
                    onConfirm={() => act(t("rules.deleted", { name: r.name }), () => api("DELETE", `${base}/${r.id}`))}
                  />
                </td>
              </tr>
            ))}
          </DataTable>
        )}
      </section>
      {list && (
        <AutomationForm
          accountId={accountId}
          onSaved={(name) => act(t("rules.created", { name }), async () => undefined)}
        />
      )}
    </div>
  );
}
