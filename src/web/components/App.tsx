// The root: asks the server who is signed in, then shows the sign-in form or the app.
import { useEffect } from "preact/hooks";
import { loadSession, user } from "../lib/session.ts";
import { Shell } from "./Shell.tsx";
import { SignIn } from "./SignIn.tsx";
import { t } from "../lib/i18n.ts";

export function App() {
  useEffect(() => void loadSession(), []);
  const u = user.value;
  if (u === undefined) {
    return (
      <p class="boot" role="status">
        {t("app.loading")}
      </p>
    );
  }
  return u === null ? <SignIn /> : <Shell user={u} />;
}
