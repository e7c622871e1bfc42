// The signed-in user's own settings (Chatwoot's /app/accounts/:id/profile/settings): their name,
// display name and email; the signature the reply box adds when they sign; their password (the
// current one first; the server then ends every browser session, so this page signs in again with
// the new one); and a new API access token for integrations (n8n, Evolution API…), shown once,
// since the server keeps only its hash.
import { useSignal } from "@preact/signals";
import type { ComponentChildren } from "preact";
import { useEffect } from "preact/hooks";
import { api } from "../lib/api.ts";
import { t } from "../lib/i18n.ts";
import { profileChanged, signIn, user } from "../lib/session.ts";
import { useSubmit } from "../lib/use-submit.ts";
import { ConfirmButton } from "./ConfirmButton.tsx";
import { Field, describedBy } from "./Field.tsx";
import { FormFooter } from "./FormFooter.tsx";
import { NewPasswordFields } from "./NewPasswordFields.tsx";
import { Page } from "./Page.tsx";
import { OneTimeSecret } from "./settings/OneTimeSecret.tsx";
import { TextInput } from "./TextInput.tsx";

interface Profile {
  name: string;
  display_name: string | null;
  available_name: string;
  email: string;
  access_token: string | null;
  message_signature: string | null;
}

/** A profile form's save: the server's refusals under the fields, and what the last save did. */
function useProfileSave(fields: Record<string, string>) {
  const saved = useSignal("");
  const submit = useSubmit(fields, "me-", t("me.what"));
  /** Sends with `work`, whose answer is what the form then says it did. */
  const save = (work: () => Promise<string>) => {
    saved.value = "";
    void submit.run(async () => {
      saved.value = await work();
    });
  };
  return { submit, saved, save };
}

/** One of the profile's cards: a titled form whose footer tells what its save did or why it failed. */
function ProfileForm(props: {
  id: string;
  title: string;
  form: ReturnType<typeof useProfileSave>;
  label?: string;
  onSave: () => void;
  children: ComponentChildren;
}) {
  const { submit, saved } = props.form;
  return (
    <form class="settings-form" onSubmit={(e) => (e.preventDefault(), props.onSave())} aria-labelledby={props.id}>
      <h2 id={props.id}>{props.title}</h2>
      {props.children}
      <FormFooter
        failure={submit.failure.value}
        saved={saved.value}
        busy={submit.busy.value}
        label={props.label ?? t("common.save_changes")}
      />
    </form>
  );
}

/** The profile's answer, as the session's user (the header's name follows). */
async function putProfile(profile: Record<string, unknown>): Promise<string> {
  profileChanged(await api<Profile>("PUT", "/api/v1/profile", { profile }));
  return t("common.saved");
}

function PersonalForm() {
  const name = useSignal("");
  const displayName = useSignal("");
  const email = useSignal("");
  const form = useProfileSave({ name: t("me.name"), display_name: t("me.display_name"), email: t("signin.email") });
  useEffect(() => {
    void api<Profile>("GET", "/api/v1/profile").then((p) => {
      name.value = p.name;
      displayName.value = p.display_name ?? "";
      email.value = p.email;
    });
  }, []);
  const save = () =>
    form.save(() =>
      putProfile({ name: name.value, display_name: displayName.value.trim() || null, email: email.value }),
    );
  const err = form.submit.errors.value;
  return (
    <ProfileForm id="me-personal" title={t("me.personal")} form={form} onSave={save}>
      <Field id="me-name" label={t("me.name")} error={err.name}>
        <TextInput {...describedBy("me-name", err.name)} required maxLength={255} value={name} />
      </Field>
      <Field id="me-display_name" label={t("me.display_name")} hint={t("me.display_hint")} error={err.display_name}>
        <TextInput {...describedBy("me-display_name", err.display_name, true)} maxLength={255} value={displayName} />
      </Field>
      <Field id="me-email" label={t("signin.email")} error={err.email}>
        <TextInput {...describedBy("me-email", err.email)} type="email" required value={email} />
      </Field>
    </ProfileForm>
  );
}

function SignatureForm() {
  const signature = useSignal(user.value?.message_signature ?? "");
  const form = useProfileSave({ message_signature: t("me.signature") });
  const err = form.submit.errors.value;
  return (
    <ProfileForm
      id="me-signature-title"
      title={t("me.signature")}
      form={form}
      onSave={() => form.save(() => putProfile({ message_signature: signature.value }))}
    >
      <Field
        id="me-message_signature"
        label={t("me.signature")}
        hint={t("me.signature_hint")}
        error={err.message_signature}
      >
        <textarea
          {...describedBy("me-message_signature", err.message_signature, true)}
          rows={4}
          maxLength={2000}
          value={signature.value}
          onInput={(e) => (signature.value = e.currentTarget.value)}
        />
      </Field>
    </ProfileForm>
  );
}

function PasswordForm() {
  const current = useSignal("");
  const fresh = useSignal("");
  const again = useSignal("");
  const form = useProfileSave({
    current_password: t("me.current_password"),
    password: t("reset.new_password"),
    password_confirmation: t("reset.confirm"),
  });
  const save = () => {
    if (fresh.value !== again.value) {
      form.saved.value = "";
      form.submit.errors.value = { password_confirmation: t("reset.mismatch") };
      return;
    }
    form.save(async () => {
      const body = { current_password: current.value, password: fresh.value, password_confirmation: again.value };
      await api<Profile>("PUT", "/api/v1/profile", { profile: body });
      // The new password ended every session, this one too: sign in again with it.
      await signIn(user.value!.email, fresh.value);
      current.value = fresh.value = again.value = "";
      return t("me.password_changed");
    });
  };
  const err = form.submit.errors.value;
  return (
    <ProfileForm
      id="me-password-title"
      title={t("me.password")}
      form={form}
      label={t("me.change_password")}
      onSave={save}
    >
      <p class="hint">{t("me.password_hint")}</p>
      <Field id="me-current_password" label={t("me.current_password")} error={err.current_password}>
        <TextInput
          {...describedBy("me-current_password", err.current_password)}
          type="password"
          autocomplete="current-password"
          required
          value={current}
        />
      </Field>
      <NewPasswordFields
        id="me-password"
        password={fresh}
        again={again}
        errors={{ password: err.password, again: err.password_confirmation }}
      />
    </ProfileForm>
  );
}

function AccessToken() {
  const token = useSignal<string | null>(null);
  const failure = useSignal<string | null>(null);
  const renew = async () => {
    failure.value = null;
    try {
      token.value = (await api<Profile>("POST", "/api/v1/profile/reset_access_token")).access_token;
    } catch {
      failure.value = t("me.token_failed");
    }
  };
  return (
    <section class="settings-form" aria-labelledby="me-token-title">
      <h2 id="me-token-title">{t("me.token")}</h2>
      <p class="hint">{t("me.token_hint")}</p>
      {failure.value && (
        <p class="alert" role="alert">
          {failure.value}
        </p>
      )}
      {token.value && (
        <OneTimeSecret
          secret={token.value}
          title={t("me.token_new")}
          warning={t("me.token_once")}
          hint={t("me.token_use")}
        />
      )}
      <ConfirmButton label={t("me.token_renew")} question={t("me.token_question")} onConfirm={renew} />
    </section>
  );
}

export function ProfileSettings() {
  return (
    <Page title={t("me.title")}>
      <div class="profile-settings">
        <PersonalForm />
        <SignatureForm />
        <PasswordForm />
        <AccessToken />
      </div>
    </Page>
  );
}
