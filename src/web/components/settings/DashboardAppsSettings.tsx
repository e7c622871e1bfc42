// Settings › Dashboard apps (Chatwoot's dashboard_apps API): the account's apps with their page,
// a form to add one, and Edit on each row (the form then changes it). Every agent of the account
// sees them as tabs beside a conversation (ConversationView); only administrators reach this list.
import { useSignal } from "@preact/signals";
import { api } from "../../lib/api.ts";
import { type DashboardApp, frameUrl } from "../../lib/dashboard-apps.ts";
import { t } from "../../lib/i18n.ts";
import { describeError } from "../../lib/thread.ts";
import { useResource } from "../../lib/use-resource.ts";
import { useSubmit } from "../../lib/use-submit.ts";
import { Field, describedBy } from "../Field.tsx";
import type { SectionProps } from "../Settings.tsx";
import { TextInput } from "../TextInput.tsx";
import { EditableList, EditFormEnd } from "./EditableList.tsx";

const PREFIX = "dashboard-app-";

export function DashboardAppsSettings({ accountId }: SectionProps) {
  const base = `/api/v1/accounts/${accountId}/dashboard_apps`;
  const list = useResource(() => api<DashboardApp[]>("GET", base), [accountId], t("apps.what"));
  const message = useSignal("");
  const editing = useSignal<DashboardApp | null>(null);
  const title = useSignal("");
  const url = useSignal("");
  // The server names the page's URL `content[0].url` (or `content` when the list is wrong): both
  // belong to the one URL field here.
  const form = useSubmit(
    { title: t("apps.name"), content: t("apps.url"), "content[0].url": t("apps.url") },
    PREFIX,
    t("apps.saving_what"),
  );
  const edit = (app: DashboardApp | null) => {
    editing.value = app;
    title.value = app?.title ?? "";
    url.value = app ? (frameUrl(app) ?? "") : "";
    document.getElementById(`${PREFIX}title`)?.focus();
  };
  const submit = async (e: SubmitEvent) => {
    e.preventDefault();
    // Both fields are required: say so at once rather than after a round trip.
    const blank = t("errors.blank");
    const missing: Record<string, string> = {};
    if (!title.value.trim()) missing.title = `${t("apps.name")} ${blank}`;
    if (!url.value.trim()) missing.content = `${t("apps.url")} ${blank}`;
    if (Object.keys(missing).length > 0) {
      form.errors.value = missing;
      form.failure.value = null;
      document.getElementById(missing.title ? `${PREFIX}title` : `${PREFIX}url`)?.focus();
      return;
    }
    const ok = await form.run(async () => {
      const body = {
        dashboard_app: { title: title.value.trim(), content: [{ type: "frame", url: url.value.trim() }] },
      };
      const app = editing.value;
      const saved = await (app
        ? api<DashboardApp>("PATCH", `${base}/${app.id}`, body)
        : api<DashboardApp>("POST", base, body));
      edit(null);
      await list.reload();
      // Once the list shows the change: what screen readers (and the tests) wait for.
      message.value = t(app ? "apps.saved" : "apps.created", { title: saved.title });
    });
    // useSubmit focuses the control named after the field; the URL's field has a shorter id.
    const errors = form.errors.value;
    if (!ok && !errors.title && urlError(errors)) document.getElementById(`${PREFIX}url`)?.focus();
  };
  const remove = async (app: DashboardApp) => {
    try {
      await api("DELETE", `${base}/${app.id}`);
      if (editing.value?.id === app.id) edit(null);
      await list.reload();
      message.value = t("apps.deleted", { title: app.title });
    } catch (error) {
      message.value = describeError(error, t("apps.delete_failed"));
    }
  };
  const errors = form.errors.value;
  return (
    <div class="settings-stack">
      <EditableList<DashboardApp>
        id="apps-title"
        title={t("apps.title")}
        hint={t("apps.hint")}
        none={t("apps.none")}
        list={list}
        message={message.value}
        columns={[t("apps.name"), t("apps.url")]}
        cells={(app) => (
          <>
            <td>{app.title}</td>
            <td class="wrap">
              <code>{frameUrl(app) ?? ""}</code>
            </td>
          </>
        )}
        name={(app) => app.title}
        editLabel={(app) => t("apps.edit", { title: app.title })}
        question={(app) => t("apps.delete_question", { title: app.title })}
        onEdit={edit}
        onDelete={remove}
      />
      <form class="settings-card" onSubmit={submit} noValidate aria-labelledby="app-form-title">
        <h2 id="app-form-title">
          {editing.value ? t("apps.edit", { title: editing.value.title }) : t("apps.add_title")}
        </h2>
        <Field id={`${PREFIX}title`} label={t("apps.name")} error={errors.title}>
          <TextInput {...describedBy(`${PREFIX}title`, errors.title)} maxLength={255} value={title} />
        </Field>
        <Field id={`${PREFIX}url`} label={t("apps.url")} error={urlError(errors)} hint={t("apps.url_hint")}>
          <TextInput {...describedBy(`${PREFIX}url`, urlError(errors), true)} maxLength={2048} value={url} />
        </Field>
        <EditFormEnd
          failure={form.failure.value}
          busy={form.busy.value}
          editing={editing.value !== null}
          saveLabel={t("apps.save")}
          createLabel={t("apps.create")}
          onCancel={() => edit(null)}
        />
      </form>
    </div>
  );
}

function urlError(errors: Record<string, string>): string | undefined {
  return errors["content[0].url"] ?? errors.content;
}
