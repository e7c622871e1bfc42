// The sign-in screen: email and password, the server's answer in an alert (wrong credentials,
// too many attempts with the wait, server unreachable).
import { useSignal } from "@preact/signals";
import { useEffect, useRef } from "preact/hooks";
import { ApiError } from "../lib/api.ts";
import { signIn, signedOutReason } from "../lib/session.ts";
import { Field } from "./Field.tsx";
import { TextInput } from "./TextInput.tsx";
import { SubmitButton } from "./SubmitButton.tsx";
import { screenTitle } from "../lib/title.ts";

function waitText(seconds: number): string {
  if (seconds < 60) return `${seconds} second${seconds === 1 ? "" : "s"}`;
  const minutes = Math.ceil(seconds / 60);
  return `${minutes} minute${minutes === 1 ? "" : "s"}`;
}

function messageFor(error: unknown): string {
  if (!(error instanceof ApiError)) return "Something went wrong. Please try again.";
  if (error.status === 429) return `Too many sign-in attempts. Try again in ${waitText(error.retryAfter ?? 60)}.`;
  return error.description;
}

export function SignIn() {
  const email = useSignal("");
  const password = useSignal("");
  const error = useSignal<string | null>(null);
  const busy = useSignal(false);
  const passwordInput = useRef<HTMLInputElement>(null);
  useEffect(() => {
    screenTitle.value = "Sign in · Parley";
  }, []);

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
        <h1 id="sign-in-title">Sign in</h1>
        {signedOutReason.value && (
          <p class="notice" role="status">
            {signedOutReason.value}
          </p>
        )}
        <div role="alert" class={error.value ? "alert" : "alert empty"}>
          {error.value}
        </div>
        <Field id="email" label="Email">
          <TextInput id="email" type="email" autocomplete="username" required value={email} />
        </Field>
        <Field id="password" label="Password">
          <TextInput
            id="password"
            ref={passwordInput}
            type="password"
            autocomplete="current-password"
            required
            value={password}
          />
        </Field>
        <SubmitButton busy={busy.value} label="Sign in" busyLabel="Signing in…" />
      </form>
    </main>
  );
}
