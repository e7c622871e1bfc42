// The chat page's strings: English, Portuguese (Brazil) and Spanish. A locale picks its own
// table, then its language's, then English; right-to-left scripts turn the page around.

const en = {
  title: "Chat with us",
  close: "Close chat",
  online: "We are online",
  in_a_few_minutes: "Typically replies in a few minutes",
  in_a_few_hours: "Typically replies in a few hours",
  in_a_day: "Typically replies in a day",
  away: "We are away at the moment.",
  back_at: "We will be back {time}.",
  name: "Full name",
  email: "Email",
  phone: "Phone number",
  message: "Message",
  start: "Start conversation",
  placeholder: "Type your message…",
  send: "Send",
  attach: "Attach a file",
  typing: "{name} is typing…",
  agent: "Support",
  you: "You",
  required: "Please fill in {field}",
  invalid_email: "Please enter a valid email address",
  rate: "Rate your conversation",
  rating: ["Very unsatisfied", "Unsatisfied", "Neutral", "Satisfied", "Very satisfied"],
  feedback: "Tell us more (optional)",
  submit: "Submit",
  thanks: "Thank you for your feedback",
  resolved: "This conversation has ended.",
  new_conversation: "Start a new conversation",
  failed: "Not sent. Try again.",
  notify_me: "Get the reply by email",
  save: "Save",
  messages: "Messages",
  popout: "Open in a new window",
  earlier: "Earlier conversations",
  sent: "Sent",
  read: "Read",
};

export type Strings = typeof en;

const pt_BR: Strings = {
  title: "Fale conosco",
  close: "Fechar chat",
  online: "Estamos online",
  in_a_few_minutes: "Normalmente responde em alguns minutos",
  in_a_few_hours: "Normalmente responde em algumas horas",
  in_a_day: "Normalmente responde em um dia",
  away: "No momento estamos ausentes.",
  back_at: "Voltaremos {time}.",
  name: "Nome completo",
  email: "E-mail",
  phone: "Telefone",
  message: "Mensagem",
  start: "Iniciar conversa",
  placeholder: "Digite sua mensagem…",
  send: "Enviar",
  attach: "Anexar um arquivo",
  typing: "{name} está digitando…",
  agent: "Suporte",
  you: "Você",
  required: "Preencha {field}",
  invalid_email: "Informe um e-mail válido",
  rate: "Avalie sua conversa",
  rating: ["Muito insatisfeito", "Insatisfeito", "Neutro", "Satisfeito", "Muito satisfeito"],
  feedback: "Conte-nos mais (opcional)",
  submit: "Enviar",
  thanks: "Obrigado pela sua avaliação",
  resolved: "Esta conversa foi encerrada.",
  new_conversation: "Iniciar nova conversa",
  failed: "Não enviada. Tente novamente.",
  notify_me: "Receba a resposta por e-mail",
  save: "Salvar",
  messages: "Mensagens",
  popout: "Abrir em uma nova janela",
  earlier: "Conversas anteriores",
  sent: "Enviada",
  read: "Lida",
};

const es: Strings = {
  title: "Chatea con nosotros",
  close: "Cerrar chat",
  online: "Estamos en línea",
  in_a_few_minutes: "Suele responder en unos minutos",
  in_a_few_hours: "Suele responder en unas horas",
  in_a_day: "Suele responder en un día",
  away: "En este momento no estamos disponibles.",
  back_at: "Volveremos {time}.",
  name: "Nombre completo",
  email: "Correo electrónico",
  phone: "Teléfono",
  message: "Mensaje",
  start: "Iniciar conversación",
  placeholder: "Escribe tu mensaje…",
  send: "Enviar",
  attach: "Adjuntar un archivo",
  typing: "{name} está escribiendo…",
  agent: "Soporte",
  you: "Tú",
  required: "Completa {field}",
  invalid_email: "Introduce un correo electrónico válido",
  rate: "Valora tu conversación",
  rating: ["Muy insatisfecho", "Insatisfecho", "Neutral", "Satisfecho", "Muy satisfecho"],
  feedback: "Cuéntanos más (opcional)",
  submit: "Enviar",
  thanks: "Gracias por tu opinión",
  resolved: "Esta conversación ha terminado.",
  new_conversation: "Iniciar una nueva conversación",
  failed: "No enviado. Inténtalo de nuevo.",
  notify_me: "Recibe la respuesta por correo",
  save: "Guardar",
  messages: "Mensajes",
  popout: "Abrir en una ventana nueva",
  earlier: "Conversaciones anteriores",
  sent: "Enviado",
  read: "Leído",
};

const TABLES: Record<string, Strings> = { en, pt_BR: pt_BR, pt: pt_BR, es };

/** Chatwoot's locale names (pt_BR) and browsers' (pt-BR) alike. */
export function stringsFor(locale: string | null | undefined): Strings {
  const l = (locale ?? "").replace("-", "_");
  return TABLES[l] ?? TABLES[l.split("_")[0]!] ?? en;
}

export const isRtl = (locale: string | null | undefined) => /^(ar|fa|he|ur)([_-]|$)/.test(locale ?? "");

export const fill = (s: string, values: Record<string, string>) =>
  s.replace(/\{(\w+)\}/g, (_, k: string) => values[k] ?? "");
