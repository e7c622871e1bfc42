// "Forgot your password?": the page that asks for a link by mail (/app/auth/password/new) and the
// page the mailed link opens (/app/auth/password/edit?reset_password_token=…, Chatwoot's path),
// which sets the new password and signs in. Both speak the server's words in an alert when refused.
import { type Signal, useSignal } from "@preact/signals";
import type { ComponentChildren } from "preact";
import { useEffect } from "preact/hooks";
import { ApiError, api } from "../lib/api.ts";
import { locale, t } from "../lib/i18n.ts";
import { navigate } from "../lib/router.ts";
import { resetPassword } from "../lib/session.ts";
import { screenTitle } from "../lib/title.ts";
import { Field } from "./Field.tsx";
import { Link } from "./Link.tsx";
import { NewPasswordFields } from "./NewPasswordFields.tsx";
import { SubmitButton } from "./SubmitButton.tsx";
import { TextInput } from "./TextInput.tsx";

export const FORGOT_PATH = "/app/auth/password/new";
export const RESET_PATH = "/app/auth/password/edit";

/** The server's words; for a dead link, what to do about it. */
function messageFor(error: unknown): string {
  if (!(error instanceof ApiError)) return t("signin.failed");
  if (error.forField("reset_password_token")) return t("reset.dead_link");
  return error.forField("password") ? `${t("reset.new_password")}: ${error.forField("password")}` : error.description;
}

function Card(props: { title: string; onSubmit: (e: SubmitEvent) => void; children: ComponentChildren }) {
  useEffect(() => {
    screenTitle.value = t("reset.page_title");
  }, [locale.value]);
  return (
    <main class="sign-in" id="main">
      <form class="card" onSubmit={props.onSubmit} aria-labelledby="reset-title">
        <p class="brand">Parley</p>
        <h1 id="reset-title">{props.title}</h1>
        {props.children}
        <p class="card-foot">
          <Link href="/app">{t("reset.back")}</Link>
        </p>
      </form>
    </main>
  );
}

/** Runs `work` once at a time, with its failure in `error`. */
async function once(busy: Signal<boolean>, error: Signal<string | null>, work: () => Promise<void>) {
  if (busy.value) return;
  busy.value = true;
  error.value = null;
  try {
    await work();
  } catch (err) {
    error.value = messageFor(err);
  } finally {
    busy.value = false;
  }
}

export function ForgotPassword() {
  const email = useSignal("");
  const error = useSignal<string | null>(null);
  const sent = useSignal<string | null>(null);
  const busy = useSignal(false);
  const submit = (e: SubmitEvent) => {
    e.preventDefault();
    void once(busy, error, async () => {
      const r = await api<{ message: string }>("POST", "/auth/password", { email: email.value });
      sent.value = r.message;
    });
  };
  return (
    <Card title={t("reset.title")} onSubmit={submit}>
      <div role="alert" class={error.value ? "alert" : "alert empty"}>
        {error.value}
      </div>
      {sent.value ? (
        <p class="notice" role="status">
          {sent.value}
        </p>
      ) : (
        <>
          <p>{t("reset.explain")}</p>
          <Field id="email" label={t("signin.email")}>
            <TextInput id="email" type="email" autocomplete="username" required value={email} />
          </Field>
          <SubmitButton busy={busy.value} label={t("reset.submit")} busyLabel={t("reset.busy")} />
        </>
      )}
    </Card>
  );
}

export function ChooseNewPassword({ token }: { token: string }) {
  const password = useSignal("");
  const confirmation = useSignal("");
  const error = useSignal<string | null>(token ? null : t("reset.dead_link"));
  const mismatch = useSignal<string | undefined>(undefined);
  const busy = useSignal(false);
  const submit = (e: SubmitEvent) => {
    e.preventDefault();
    mismatch.value = password.value === confirmation.value ? undefined : t("reset.mismatch");
    if (mismatch.value) return;
    void once(busy, error, async () => {
      await resetPassword(token, password.value);
      navigate("/app", { replace: true });
    });
  };
  return (
    <Card title={t("reset.choose_title")} onSubmit={submit}>
      <div role="alert" class={error.value ? "alert" : "alert empty"}>
        {error.value}
        {error.value === t("reset.dead_link") && (
          <>
            {" "}
            <Link href={FORGOT_PATH}>{t("reset.ask_again")}</Link>
          </>
        )}
      </div>
      <NewPasswordFields
        id="new-password"
        password={password}
        again={confirmation}
        errors={{ again: mismatch.value }}
      />
      <SubmitButton busy={busy.value} label={t("reset.save")} busyLabel={t("reset.saving")} />
    </Card>
  );
}
