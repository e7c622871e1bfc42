// An email inbox's mail servers: IMAP to read the mailbox, SMTP to send replies, saved with the
// inbox; "Test connection" logs in to both and says what worked; the last read and the last error
// show what the poller is doing. Passwords are never shown: a blank field keeps the stored one.
import { type Signal, useSignal } from "@preact/signals";
import { api } from "../../lib/api.ts";
import { dateTime } from "../../lib/format.ts";
import type { Inbox } from "../../lib/types.ts";
import { useSubmit } from "../../lib/use-submit.ts";
import { CheckField } from "../CheckField.tsx";
import { Field, describedBy } from "../Field.tsx";
import { FormFailure } from "../FormFailure.tsx";
import { SubmitButton } from "../SubmitButton.tsx";
import { TextInput } from "../TextInput.tsx";
import { t } from "../../lib/i18n.ts";

interface CheckResult {
  ok: boolean;
  message: string;
}

type Side = "imap" | "smtp";

/** The fields the server may name in a 422, with their labels (read when the form renders: the language may change). */
const labels = (): Record<string, string> => ({
  "channel.imap_address": t("mail.imap_server"),
  "channel.imap_port": t("mail.imap_port"),
  "channel.imap_login": t("mail.imap_login"),
  "channel.imap_password": t("mail.imap_password"),
  "channel.imap_folder": t("mail.folder"),
  "channel.smtp_address": t("mail.smtp_server"),
  "channel.smtp_port": t("mail.smtp_port"),
  "channel.smtp_login": t("mail.smtp_login"),
  "channel.smtp_password": t("mail.smtp_password"),
});

function useSide(inbox: Inbox, side: Side) {
  return {
    enabled: useSignal(inbox[`${side}_enabled`] ?? false),
    address: useSignal(inbox[`${side}_address`] ?? ""),
    port: useSignal(String(inbox[`${side}_port`] ?? (side === "imap" ? 993 : 587))),
    login: useSignal(inbox[`${side}_login`] ?? ""),
    password: useSignal(""),
  };
}

export function EmailServerSettings({
  accountId,
  inbox,
  onSaved,
}: {
  accountId: number;
  inbox: Inbox;
  onSaved: (inbox: Inbox) => void;
}) {
  const imap = useSide(inbox, "imap");
  const smtp = useSide(inbox, "smtp");
  const imapSsl = useSignal(inbox.imap_enable_ssl ?? true);
  const folder = useSignal(inbox.imap_folder ?? "INBOX");
  const smtpSsl = useSignal(inbox.smtp_enable_ssl_tls ?? false);
  const starttls = useSignal(inbox.smtp_enable_starttls_auto ?? true);
  const plus = useSignal(inbox.reply_plus_addressing ?? false);
  const fieldLabels = labels();
  const form = useSubmit(fieldLabels, "mail-", t("mail.saving_what"));
  const checking = useSignal(false);
  const results = useSignal<{ imap: CheckResult | null; smtp: CheckResult | null } | null>(null);
  const url = `/api/v1/accounts/${accountId}/inboxes/${inbox.id}`;

  const side = (name: Side, s: ReturnType<typeof useSide>) => ({
    [`${name}_enabled`]: s.enabled.value,
    [`${name}_address`]: s.address.value.trim() || null,
    [`${name}_port`]: s.port.value.trim(),
    [`${name}_login`]: s.login.value.trim() || null,
    [`${name}_password`]: s.password.value,
  });
  const submit = (e: SubmitEvent) => {
    e.preventDefault();
    void form.run(async () => {
      const saved = await api<Inbox>("PATCH", url, {
        channel: {
          ...side("imap", imap),
          imap_enable_ssl: imapSsl.value,
          imap_folder: folder.value.trim() || "INBOX",
          ...side("smtp", smtp),
          smtp_enable_ssl_tls: smtpSsl.value,
          smtp_enable_starttls_auto: starttls.value,
          reply_plus_addressing: plus.value,
        },
      });
      imap.password.value = "";
      smtp.password.value = "";
      onSaved(saved);
    });
  };
  const test = async () => {
    checking.value = true;
    results.value = null;
    try {
      results.value = await api("POST", `${url}/test_connection`);
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      results.value = { imap: { ok: false, message }, smtp: null };
    } finally {
      checking.value = false;
    }
  };
  const err = form.errors.value;
  const text = (
    key: string,
    label: string,
    value: Signal<string>,
    type: "text" | "password" = "text",
    hint?: string,
  ) => (
    <Field id={`mail-${key}`} label={label} error={err[key]} hint={hint}>
      <TextInput
        {...describedBy(`mail-${key}`, err[key], hint !== undefined)}
        type={type}
        maxLength={1024}
        value={value}
      />
    </Field>
  );
  const kept = (set: boolean | undefined) => (set ? t("mail.password_kept") : undefined);
  /** A server's address, port, login and password (the password never shown: blank keeps it). */
  const server = (name: Side, s: ReturnType<typeof useSide>) => {
    const key = (k: string) => `channel.${name}_${k}`;
    return (
      <>
        {text(key("address"), fieldLabels[key("address")]!, s.address)}
        {text(key("port"), fieldLabels[key("port")]!, s.port)}
        {text(key("login"), fieldLabels[key("login")]!, s.login)}
        {text(
          key("password"),
          fieldLabels[key("password")]!,
          s.password,
          "password",
          kept(inbox[`${name}_password_set`]),
        )}
      </>
    );
  };
  return (
    <form class="settings-card" onSubmit={submit} noValidate aria-labelledby="mail-title">
      <h2 id="mail-title">{t("mail.servers")}</h2>
      <p class="hint" role="status">
        {inbox.last_error
          ? t("mail.last_problem", { error: inbox.last_error })
          : inbox.last_synced_at
            ? t("mail.last_read", { when: dateTime(inbox.last_synced_at) })
            : t("mail.never_read")}
      </p>
      <fieldset>
        <legend>{t("mail.incoming")}</legend>
        <CheckField id="mail-imap_enabled" label={t("mail.read_mailbox")} value={imap.enabled} />
        {server("imap", imap)}
        <CheckField id="mail-imap_enable_ssl" label={t("mail.imap_ssl")} value={imapSsl} />
        {text("channel.imap_folder", fieldLabels["channel.imap_folder"]!, folder)}
      </fieldset>
      <fieldset>
        <legend>{t("mail.outgoing")}</legend>
        <CheckField id="mail-smtp_enabled" label={t("mail.send_replies")} value={smtp.enabled} />
        {server("smtp", smtp)}
        <CheckField id="mail-smtp_enable_ssl_tls" label={t("mail.smtp_ssl")} value={smtpSsl} />
        <CheckField id="mail-smtp_enable_starttls_auto" label={t("mail.starttls")} value={starttls} />
        <CheckField id="mail-reply_plus_addressing" label={t("mail.plus")} value={plus} />
      </fieldset>
      <FormFailure message={form.failure.value} />
      <div class="form-actions">
        <SubmitButton busy={form.busy.value} label={t("mail.save")} busyLabel={t("common.saving")} />
        <button type="button" onClick={test} disabled={checking.value}>
          {checking.value ? t("mail.testing") : t("mail.test")}
        </button>
      </div>
      {results.value && (
        <ul class="check-results" aria-label={t("mail.test_results")}>
          {(["imap", "smtp"] as const).map((k) => {
            const r = results.value?.[k];
            return r ? (
              <li key={k} class={r.ok ? "ok" : "failed"}>
                {r.ok ? "✓ " : "✗ "}
                {r.message}
              </li>
            ) : null;
          })}
        </ul>
      )}
    </form>
  );
}
