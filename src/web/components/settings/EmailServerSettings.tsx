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

interface CheckResult {
  ok: boolean;
  message: string;
}

type Side = "imap" | "smtp";

const LABELS: Record<string, string> = {
  "channel.imap_address": "IMAP server",
  "channel.imap_port": "IMAP port",
  "channel.imap_login": "IMAP login",
  "channel.imap_password": "IMAP password",
  "channel.imap_folder": "Folder",
  "channel.smtp_address": "SMTP server",
  "channel.smtp_port": "SMTP port",
  "channel.smtp_login": "SMTP login",
  "channel.smtp_password": "SMTP password",
};

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
  const form = useSubmit(LABELS, "mail-", "Saving the mail settings");
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
  const kept = (set: boolean | undefined) => (set ? "Set. Leave blank to keep it." : undefined);
  return (
    <form class="settings-card" onSubmit={submit} noValidate aria-labelledby="mail-title">
      <h2 id="mail-title">Mail servers</h2>
      <p class="hint" role="status">
        {inbox.last_error
          ? `Last problem: ${inbox.last_error}`
          : inbox.last_synced_at
            ? `Mailbox last read ${dateTime(inbox.last_synced_at)}.`
            : "The mailbox has not been read yet."}
      </p>
      <fieldset>
        <legend>Incoming mail (IMAP)</legend>
        <CheckField id="mail-imap_enabled" label="Read mail from this mailbox" value={imap.enabled} />
        {text("channel.imap_address", "IMAP server", imap.address)}
        {text("channel.imap_port", "IMAP port", imap.port)}
        {text("channel.imap_login", "IMAP login", imap.login)}
        {text("channel.imap_password", "IMAP password", imap.password, "password", kept(inbox.imap_password_set))}
        <CheckField id="mail-imap_enable_ssl" label="SSL/TLS (port 993)" value={imapSsl} />
        {text("channel.imap_folder", "Folder", folder)}
      </fieldset>
      <fieldset>
        <legend>Replies (SMTP)</legend>
        <CheckField id="mail-smtp_enabled" label="Send agents' replies by mail" value={smtp.enabled} />
        {text("channel.smtp_address", "SMTP server", smtp.address)}
        {text("channel.smtp_port", "SMTP port", smtp.port)}
        {text("channel.smtp_login", "SMTP login", smtp.login)}
        {text("channel.smtp_password", "SMTP password", smtp.password, "password", kept(inbox.smtp_password_set))}
        <CheckField id="mail-smtp_enable_ssl_tls" label="SSL/TLS (port 465)" value={smtpSsl} />
        <CheckField id="mail-smtp_enable_starttls_auto" label="STARTTLS when offered (port 587)" value={starttls} />
      </fieldset>
      <FormFailure message={form.failure.value} />
      <div class="form-actions">
        <SubmitButton busy={form.busy.value} label="Save mail settings" busyLabel="Saving…" />
        <button type="button" onClick={test} disabled={checking.value}>
          {checking.value ? "Testing…" : "Test connection"}
        </button>
      </div>
      {results.value && (
        <ul class="check-results" aria-label="Connection test">
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
