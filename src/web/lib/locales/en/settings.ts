// English: the settings screens (for administrators).
export const settings = {
  "settings.title": "Settings: {section}",
  "settings.nav.general": "Account",
  "settings.nav.inboxes": "Inboxes",
  "settings.nav.agents": "Agents",
  "settings.nav.teams": "Teams",
  "settings.nav.labels": "Labels",
  "settings.nav.canned": "Canned responses",
  "settings.nav.automation": "Automation",
  "settings.nav.webhooks": "Webhooks",
  "settings.nav.reports": "Reports",
  "account.loading": "Loading the account…",
  "account.load_failed": "The account could not be loaded.",
  "account.save_failed": "The account could not be saved.",
  "account.title": "Name and language",
  "account.name": "Account name",
  "account.name_required": "Enter the account's name.",
  "account.language": "Language",
  "account.language_hint":
    "The account's default language. Parley's screens use it for everyone in the account (English, Português do Brasil, Español).",
};
