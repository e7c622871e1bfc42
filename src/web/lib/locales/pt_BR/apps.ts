// Portuguese (Brazil): os aplicativos do painel.
import type { Area } from "../en/index.ts";
import type { apps as en } from "../en/apps.ts";

export const apps: Area<typeof en> = {
  "apps.what": "Os aplicativos do painel",
  "apps.title": "Aplicativos do painel",
  "apps.hint":
    "Páginas que abrem ao lado de uma conversa, cada uma na sua própria aba. A página recebe a conversa, o contato e o agente, como os aplicativos do painel do Chatwoot.",
  "apps.none": "Nenhum aplicativo do painel ainda.",
  "apps.name": "Nome",
  "apps.url": "URL",
  "apps.url_hint": "A página a mostrar (http:// ou https://). Abre num quadro isolado, sem referenciador.",
  "apps.add_title": "Adicionar um aplicativo do painel",
  "apps.edit": "Editar {title}",
  "apps.create": "Criar aplicativo do painel",
  "apps.save": "Salvar aplicativo do painel",
  "apps.saving_what": "Salvando o aplicativo do painel",
  "apps.created": "{title} criado.",
  "apps.saved": "{title} salvo.",
  "apps.deleted": "{title} excluído.",
  "apps.delete_failed": "Não foi possível excluir o aplicativo do painel.",
  "apps.delete_question": "Excluir {title}?",
  "apps.views": "Visualizações",
  "apps.messages": "Mensagens",
  "apps.no_page": "Este aplicativo não tem página para mostrar.",
};
