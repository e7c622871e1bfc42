// Portuguese (Brazil): the settings screens.
import type { Area } from "../en/index.ts";
import type { settings as en } from "../en/settings.ts";

export const settings: Area<typeof en> = {
  "settings.title": "Configurações: {section}",
  "settings.nav.general": "Conta",
  "settings.nav.inboxes": "Caixas de entrada",
  "settings.nav.agents": "Agentes",
  "settings.nav.teams": "Equipes",
  "settings.nav.labels": "Etiquetas",
  "settings.nav.canned": "Respostas prontas",
  "settings.nav.automation": "Automação",
  "settings.nav.webhooks": "Webhooks",
  "settings.nav.reports": "Relatórios",
  "account.loading": "Carregando a conta…",
  "account.load_failed": "Não foi possível carregar a conta.",
  "account.save_failed": "Não foi possível salvar a conta.",
  "account.title": "Nome e idioma",
  "account.name": "Nome da conta",
  "account.name_required": "Informe o nome da conta.",
  "account.language": "Idioma",
  "account.language_hint":
    "O idioma padrão da conta. As telas do Parley o usam para todos na conta (English, Português do Brasil, Español).",
};
