// Spanish: the settings screens.
import type { Area } from "../en/index.ts";
import type { settings as en } from "../en/settings.ts";

export const settings: Area<typeof en> = {
  "settings.title": "Configuración: {section}",
  "settings.nav.general": "Cuenta",
  "settings.nav.inboxes": "Bandejas de entrada",
  "settings.nav.agents": "Agentes",
  "settings.nav.teams": "Equipos",
  "settings.nav.labels": "Etiquetas",
  "settings.nav.canned": "Respuestas predefinidas",
  "settings.nav.automation": "Automatización",
  "settings.nav.webhooks": "Webhooks",
  "settings.nav.reports": "Informes",
  "account.loading": "Cargando la cuenta…",
  "account.load_failed": "No se pudo cargar la cuenta.",
  "account.save_failed": "No se pudo guardar la cuenta.",
  "account.title": "Nombre e idioma",
  "account.name": "Nombre de la cuenta",
  "account.name_required": "Escribe el nombre de la cuenta.",
  "account.language": "Idioma",
  "account.language_hint":
    "El idioma predeterminado de la cuenta. Las pantallas de Parley lo usan para todos en la cuenta (English, Português do Brasil, Español).",
};
