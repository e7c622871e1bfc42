// Spanish: las macros.
import type { Area } from "../en/index.ts";
import type { macros as en } from "../en/macros.ts";

export const macros: Area<typeof en> = {
  "macros.what": "Las macros",
  "macros.title": "Macros",
  "macros.hint":
    "Pasos que se aplican a una conversación de una vez, desde el menú Macros junto a sus acciones. Las macros globales son de todos los miembros; las personales, solo de su autor.",
  "macros.none": "Todavía no hay macros.",
  "macros.name": "Nombre",
  "macros.visibility": "Visibilidad",
  "macros.vis.global": "Global",
  "macros.vis.personal": "Personal",
  "macros.global_hint": "Global: cualquier miembro de la cuenta puede ejecutarla. Personal: solo tú.",
  "macros.personal_only": "Tus macros son personales: solo los administradores crean macros globales.",
  "macros.author": "Autor",
  "macros.count": "Acciones",
  "macros.actions": "Acciones",
  "macros.add_title": "Añadir una macro",
  "macros.edit": "Editar {name}",
  "macros.create": "Crear macro",
  "macros.save": "Guardar macro",
  "macros.saving_what": "Guardando la macro",
  "macros.created": "{name} creada.",
  "macros.saved": "{name} guardada.",
  "macros.deleted": "{name} eliminada.",
  "macros.delete_failed": "No se pudo eliminar la macro.",
  "macros.delete_question": "¿Eliminar {name}?",
  "macros.menu": "Macros",
  "macros.menu_label": "Ejecutar una macro",
  "macros.menu_none": "Todavía no hay macros.",
  "macros.run": "Ejecutar",
  "macros.run_question": "¿Ejecutar {name} en esta conversación?",
  "macros.ran": "{name} hecha.",
  "macros.run_failed": "No se pudo ejecutar la macro.",
  "macros.manage": "Gestionar macros",
};
