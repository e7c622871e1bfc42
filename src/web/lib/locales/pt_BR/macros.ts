// Brazilian Portuguese: as macros.
import type { Area } from "../en/index.ts";
import type { macros as en } from "../en/macros.ts";

export const macros: Area<typeof en> = {
  "macros.what": "As macros",
  "macros.title": "Macros",
  "macros.hint":
    "Passos aplicados a uma conversa de uma só vez, pelo menu Macros ao lado das suas ações. As macros globais são de todos os membros; as pessoais, só de quem as criou.",
  "macros.none": "Ainda não há macros.",
  "macros.name": "Nome",
  "macros.visibility": "Visibilidade",
  "macros.vis.global": "Global",
  "macros.vis.personal": "Pessoal",
  "macros.global_hint": "Global: qualquer membro da conta pode executá-la. Pessoal: só você.",
  "macros.personal_only": "Suas macros são pessoais: só administradores criam macros globais.",
  "macros.author": "Autor",
  "macros.count": "Ações",
  "macros.actions": "Ações",
  "macros.add_title": "Adicionar uma macro",
  "macros.edit": "Editar {name}",
  "macros.create": "Criar macro",
  "macros.save": "Salvar macro",
  "macros.saving_what": "Salvando a macro",
  "macros.created": "{name} criada.",
  "macros.saved": "{name} salva.",
  "macros.deleted": "{name} excluída.",
  "macros.delete_failed": "Não foi possível excluir a macro.",
  "macros.delete_question": "Excluir {name}?",
  "macros.menu": "Macros",
  "macros.menu_label": "Executar uma macro",
  "macros.menu_none": "Ainda não há macros.",
  "macros.run": "Executar",
  "macros.run_question": "Executar {name} nesta conversa?",
  "macros.ran": "{name} concluída.",
  "macros.run_failed": "Não foi possível executar a macro.",
  "macros.manage": "Gerenciar macros",
};
