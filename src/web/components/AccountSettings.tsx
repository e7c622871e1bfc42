// The account's name and language, saved with PATCH /api/v1/accounts/:id. A new name shows in the
// header at once.
import { useSignal } from "@preact/signals";
import { useEffect } from "preact/hooks";
import { ApiError, api } from "../lib/api.ts";
import { accountRenamed } from "../lib/session.ts";
import { setLocale, t } from "../lib/i18n.ts";
import { Field, describedBy } from "./Field.tsx";
import { TextInput } from "./TextInput.tsx";
import { SubmitButton } from "./SubmitButton.tsx";
import { Options } from "./Options.tsx";

interface Account {
  id: number;
  name: string;
  locale: string;
}

// Chatwoot's locale codes for the most used of its languages.
const LOCALES: [string, string][] = [
  ["en", "English"],
  ["ar", "العربية (Arabic)"],
  ["de", "Deutsch (German)"],
  ["es", "Español (Spanish)"],
  ["fr", "Français (French)"],
  ["it", "Italiano (Italian)"],
  ["ja", "日本語 (Japanese)"],
  ["nl", "Nederlands (Dutch)"],
  ["pl", "Polski (Polish)"],
  ["pt", "Português (Portuguese)"],
  ["pt_BR", "Português do Brasil (Brazilian Portuguese)"],
  ["ru", "Русский (Russian)"],
  ["tr", "Türkçe (Turkish)"],
  ["zh_CN", "简体中文 (Chinese, simplified)"],
];

export function AccountSettings({ accountId }: { accountId: number }) {
  const loaded = useSignal<Account | null>(null);
  const loadError = useSignal<string | null>(null);
  const name = useSignal("");
  const locale = useSignal("en");
  const errors = useSignal<Record<string, string>>({});
  const status = useSignal("");
  const saving = useSignal(false);

  useEffect(() => {
    loaded.value = null;
    api<Account>("GET", `/api/v1/accounts/${accountId}`).then(
      (a) => {
        loaded.value = a;
        name.value = a.name;
        locale.value = a.locale;
      },
      (e) => (loadError.value = e instanceof ApiError ? e.description : t("account.load_failed")),
    );
  }, [accountId]);

  const submit = async (e: SubmitEvent) => {
    e.preventDefault();
    if (saving.value) return;
    status.value = "";
    if (name.value.trim() === "") {
      errors.value = { name: t("account.name_required") };
      document.getElementById("account-name")?.focus();
      return;
    }
    errors.value = {};
    saving.value = true;
    try {
      const saved = await api<Account>("PATCH", `/api/v1/accounts/${accountId}`, {
        name: name.value.trim(),
        locale: locale.value,
      });
      loaded.value = saved;
      name.value = saved.name;
      accountRenamed(saved.id, saved.name);
      await setLocale(saved.locale); // the words below are in the language just chosen
      status.value = t("common.saved");
    } catch (err) {
      if (err instanceof ApiError && err.errors.some((x) => x.field === "name" || x.field === "locale")) {
        errors.value = { name: err.forField("name") ?? "", locale: err.forField("locale") ?? "" };
      } else {
        status.value = err instanceof ApiError ? err.description : t("account.save_failed");
      }
    } finally {
      saving.value = false;
    }
  };

  if (loadError.value) return <p role="alert">{loadError.value}</p>;
  if (!loaded.value) return <p role="status">{t("account.loading")}</p>;
  const options = LOCALES.some(([code]) => code === locale.value)
    ? LOCALES
    : [[locale.value, locale.value] as [string, string], ...LOCALES];
  const nameError = errors.value.name || undefined;
  const localeError = errors.value.locale || undefined;
  return (
    <form class="settings-form" onSubmit={submit} noValidate aria-labelledby="account-settings-title">
      <h2 id="account-settings-title">{t("account.title")}</h2>
      <Field id="account-name" label={t("account.name")} error={nameError}>
        <TextInput
          {...describedBy("account-name", nameError)}
          maxLength={255}
          autocomplete="organization"
          value={name}
        />
      </Field>
      <Field id="account-locale" label={t("account.language")} error={localeError} hint={t("account.language_hint")}>
        <select
          {...describedBy("account-locale", localeError, true)}
          value={locale.value}
          onChange={(e) => (locale.value = e.currentTarget.value)}
        >
          <Options items={options} />
        </select>
      </Field>
      <div class="form-actions">
        <SubmitButton busy={saving.value} label={t("common.save_changes")} busyLabel={t("common.saving")} />
        <p role="status" class="form-status">
          {status.value}
        </p>
      </div>
    </form>
  );
}
