// The signed-in user's own settings (Chatwoot's /app/accounts/:id/profile/settings): their name,
// display name and email; the signature the reply box adds when they sign; their password (the current one first; the server then ends every
// browser session, so this page signs in again with the new one); and a new API access token for
// integrations (n8n, Evolution API…), shown once, since the server keeps only its hash.
import { useSignal } from "@preact/signals";
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

function PersonalForm() {
  const name = useSignal("");
  const displayName = useSignal("");
  const email = useSignal("");
  const saved = useSignal("");
  const submit = useSubmit(
    { name: t("me.name"), display_name: t("me.display_name"), email: t("signin.email") },
    "me-",
    t("me.what"),
  );
  useEffect(() => {
    void api<Profile>("GET", "/api/v1/profile").then((p) => {
      name.value = p.name;
      displayName.value = p.display_name ?? "";
      email.value = p.email;
    });
  }, []);
  const onSubmit = (e: SubmitEvent) => {
    e.preventDefault();
    saved.value = "";
    void submit.run(async () => {
      const p = await api<Profile>("PUT", "/api/v1/profile", {
        profile: { name: name.value, display_name: displayName.value.trim() || null, email: email.value },
      });
      profileChanged(p);
      saved.value = t("common.saved");
    });
  };
  const err = submit.errors.value;
  return (
    <form class="settings-form" onSubmit={onSubmit} aria-labelledby="me-personal">
      <h2 id="me-personal">{t("me.personal")}</h2>
      <Field id="me-name" label={t("me.name")} error={err.name}>
        <TextInput {...describedBy("me-name", err.name)} required maxLength={255} value={name} />
      </Field>
      <Field id="me-display_name" label={t("me.display_name")} hint={t("me.display_hint")} error={err.display_name}>
        <TextInput {...describedBy("me-display_name", err.display_name, true)} maxLength={255} value={displayName} />
      </Field>
      <Field id="me-email" label={t("signin.email")} error={err.email}>
        <TextInput {...describedBy("me-email", err.email)} type="email" required value={email} />
      </Field>
      <FormFooter
        failure={submit.failure.value}
        saved={saved.value}
        busy={submit.busy.value}
        label={t("common.save_changes")}
      />
    </form>
  );
}

function SignatureForm() {
  const signature = useSignal(user.value?.message_signature ?? "");
  const saved = useSignal("");
  const submit = useSubmit({ message_signature: t("me.signature") }, "me-", t("me.what"));
  const onSubmit = (e: SubmitEvent) => {
    e.preventDefault();
    saved.value = "";
    void submit.run(async () => {
      profileChanged(await api<Profile>("PUT", "/api/v1/profile", { profile: { message_signature: signature.value } }));
      saved.value = t("common.saved");
    });
  };
  const err = submit.errors.value;
  return (
    <form class="settings-form" onSubmit={onSubmit} aria-labelledby="me-signature-title">
      <h2 id="me-signature-title">{t("me.signature")}</h2>
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
      <FormFooter
        failure={submit.failure.value}
        saved={saved.value}
        busy={submit.busy.value}
        label={t("common.save_changes")}
      />
    </form>
  );
}

function PasswordForm() {
  const current = useSignal("");
  const fresh = useSignal("");
  const again = useSignal("");
  const saved = useSignal("");
  const submit = useSubmit(
    {
      current_password: t("me.current_password"),
      password: t("reset.new_password"),
      password_confirmation: t("reset.confirm"),
    },
    "me-",
    t("me.what"),
  );
  const onSubmit = (e: SubmitEvent) => {
    e.preventDefault();
    saved.value = "";
    if (fresh.value !== again.value) {
      submit.errors.value = { password_confirmation: t("reset.mismatch") };
      return;
    }
    void submit.run(async () => {
      const body = { current_password: current.value, password: fresh.value, password_confirmation: again.value };
      await api<Profile>("PUT", "/api/v1/profile", { profile: body });
      // The new password ended every session, this one too: sign in again with it.
      await signIn(user.value!.email, fresh.value);
      current.value = fresh.value = again.value = "";
      saved.value = t("me.password_changed");
    });
  };
  const err = submit.errors.value;
  return (
    <form class="settings-form" onSubmit={onSubmit} aria-labelledby="me-password-title">
      <h2 id="me-password-title">{t("me.password")}</h2>
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
      <FormFooter
        failure={submit.failure.value}
        saved={saved.value}
        busy={submit.busy.value}
        label={t("me.change_password")}
      />
    </form>
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
