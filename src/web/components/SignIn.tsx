// The sign-in screen: email and password, the server's answer in an alert (wrong credentials,
// too many attempts with the wait, server unreachable).
import { useSignal } from "@preact/signals";
import { useEffect, useRef } from "preact/hooks";
import { ApiError } from "../lib/api.ts";
import { signIn, signedOutReason } from "../lib/session.ts";
import { Field } from "./Field.tsx";
import { Link } from "./Link.tsx";
import { FORGOT_PATH } from "./PasswordReset.tsx";
import { TextInput } from "./TextInput.tsx";
import { SubmitButton } from "./SubmitButton.tsx";
import { screenTitle } from "../lib/title.ts";
import { locale, t, tn } from "../lib/i18n.ts";

function waitText(seconds: number): string {
  if (seconds < 60) return tn("signin.seconds", seconds);
  return tn("signin.minutes", Math.ceil(seconds / 60));
}

function messageFor(error: unknown): string {
  if (!(error instanceof ApiError)) return t("signin.failed");
  if (error.status === 429) return t("signin.too_many", { wait: waitText(error.retryAfter ?? 60) });
  return error.description;
}

export function SignIn() {
  const email = useSignal("");
  const password = useSignal("");
  const error = useSignal<string | null>(null);
  const busy = useSignal(false);
  const passwordInput = useRef<HTMLInputElement>(null);
  useEffect(() => {
    screenTitle.value = t("signin.page_title");
  }, [locale.value]);

  const submit = async (e: SubmitEvent) => {
    e.preventDefault();
    if (busy.value) return;
    busy.value = true;
    error.value = null;
    try {
      await signIn(email.value, password.value);
    } catch (err) {
      error.value = messageFor(err);
      password.value = "";
      passwordInput.current?.focus();
    } finally {
      busy.value = false;
    }
  };

  return (
    <main class="sign-in" id="main">
      <form class="card" onSubmit={submit} aria-labelledby="sign-in-title">
        <p class="brand">Parley</p>
        <h1 id="sign-in-title">{t("signin.title")}</h1>
        {signedOutReason.value && (
          <p class="notice" role="status">
            {signedOutReason.value}
          </p>
        )}
        <div role="alert" class={error.value ? "alert" : "alert empty"}>
          {error.value}
        </div>
        <Field id="email" label={t("signin.email")}>
          <TextInput id="email" type="email" autocomplete="username" required value={email} />
        </Field>
        <Field id="password" label={t("signin.password")}>
          <TextInput
            id="password"
            ref={passwordInput}
            type="password"
            autocomplete="current-password"
            required
            value={password}
          />
        </Field>
        <SubmitButton busy={busy.value} label={t("signin.submit")} busyLabel={t("signin.busy")} />
        <p class="card-foot">
          <Link href={FORGOT_PATH}>{t("signin.forgot")}</Link>
        </p>
      </form>
    </main>
  );
}
