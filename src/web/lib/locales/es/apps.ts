// Spanish: las aplicaciones del panel.
import type { Area } from "../en/index.ts";
import type { apps as en } from "../en/apps.ts";

export const apps: Area<typeof en> = {
  "apps.what": "Las aplicaciones del panel",
  "apps.title": "Aplicaciones del panel",
  "apps.hint":
    "Páginas que se abren junto a una conversación, cada una en su propia pestaña. La página recibe la conversación, su contacto y el agente, como las aplicaciones del panel de Chatwoot.",
  "apps.none": "Todavía no hay aplicaciones del panel.",
  "apps.name": "Nombre",
  "apps.url": "URL",
  "apps.url_hint": "La página que se muestra (http:// o https://). Se abre en un marco aislado, sin referente.",
  "apps.add_title": "Añadir una aplicación del panel",
  "apps.edit": "Editar {title}",
  "apps.create": "Crear aplicación del panel",
  "apps.save": "Guardar aplicación del panel",
  "apps.saving_what": "Guardando la aplicación del panel",
  "apps.created": "{title} creada.",
  "apps.saved": "{title} guardada.",
  "apps.deleted": "{title} eliminada.",
  "apps.delete_failed": "No se pudo eliminar la aplicación del panel.",
  "apps.delete_question": "¿Eliminar {title}?",
  "apps.views": "Vistas",
  "apps.messages": "Mensajes",
  "apps.no_page": "Esta aplicación no tiene ninguna página que mostrar.",
};
