// The root: asks the server who is signed in, then shows the sign-in form or the app. The pages of
// "Forgot your password?" show whoever is signed in: a mailed link must work in any browser.
import { useEffect } from "preact/hooks";
import { currentPath, currentSearch } from "../lib/router.ts";
import { loadSession, user } from "../lib/session.ts";
import { ChooseNewPassword, FORGOT_PATH, ForgotPassword, RESET_PATH } from "./PasswordReset.tsx";
import { Shell } from "./Shell.tsx";
import { SignIn } from "./SignIn.tsx";
import { t } from "../lib/i18n.ts";

export function App() {
  useEffect(() => void loadSession(), []);
  const path = currentPath.value.replace(/\/+$/, "");
  if (path === RESET_PATH) {
    const token = new URLSearchParams(currentSearch.value).get("reset_password_token") ?? "";
    return <ChooseNewPassword token={token} />;
  }
  if (path === FORGOT_PATH) return <ForgotPassword />;
  const u = user.value;
  if (u === undefined) {
    return (
      <p class="boot" role="status">
        {t("app.loading")}
      </p>
    );
  }
  if (u === null) return <SignIn />;
  return <Shell user={u} />;
}
