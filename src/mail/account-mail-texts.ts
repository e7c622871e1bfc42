// The words of the mail Parley sends its users: a password-reset link, a new agent's invitation
// (the same kind of link, longer lived), and notifications, in the languages the web app speaks
// (the account's `locale`; English for any other). Plain text only: nothing in them needs markup,
// and a text part cannot carry a tracking pixel or a disguised link.
import { INVITATION_LINK_SECONDS, RESET_LINK_SECONDS } from "../domain/password-resets.service.ts";
import type { Locale } from "../shared/locale.ts";

interface Words {
  hello: (name: string) => string;
  resetSubject: string;
  resetBody: (email: string, hours: number) => string;
  resetIgnore: string;
  inviteSubject: (account: string) => string;
  inviteBody: (account: string, days: number, email: string) => string;
  inviteExpired: string;
  created: (id: number, inbox: string) => string;
  assigned: (id: number) => string;
  mentioned: (id: number) => string;
  newMessage: (id: number) => string;
  conversation: (id: number) => string;
  open: (link: string) => string;
  why: (account: string) => string;
}

const WORDS: Record<Locale, Words> = {
  en: {
    hello: (name) => `Hello ${name},`,
    resetSubject: "Reset your Parley password",
    resetBody: (email, hours) =>
      `Someone asked to reset the password of ${email} on Parley. To choose a new password, open this link within ${hours} hours:`,
    resetIgnore: "If you did not ask for this, ignore this mail: your password stays as it is.",
    inviteSubject: (account) => `You are invited to ${account} on Parley`,
    inviteBody: (account, days, email) =>
      `You have been added to ${account} on Parley, to answer its customers' conversations. Choose your password with this link within ${days} days; you then sign in with ${email}:`,
    inviteExpired: 'If the link has expired, ask for a new one with "Forgot your password?" on the sign-in page.',
    created: (id, inbox) => `New conversation #${id}${inbox ? ` in ${inbox}` : ""}`,
    assigned: (id) => `Conversation #${id} is assigned to you`,
    mentioned: (id) => `You were mentioned in conversation #${id}`,
    newMessage: (id) => `New message in conversation #${id}`,
    conversation: (id) => `Conversation #${id}`,
    open: (link) => `Open the conversation: ${link}`,
    why: (account) =>
      `You get this mail because of your notification settings in ${account}; change them in Parley's profile menu, under Notifications.`,
  },
  es: {
    hello: (name) => `Hola, ${name}:`,
    resetSubject: "Restablece tu contraseña de Parley",
    resetBody: (email, hours) =>
      `Alguien pidió restablecer la contraseña de ${email} en Parley. Para elegir una contraseña nueva, abre este enlace en las próximas ${hours} horas:`,
    resetIgnore: "Si no lo pediste tú, ignora este correo: tu contraseña sigue igual.",
    inviteSubject: (account) => `Te han invitado a ${account} en Parley`,
    inviteBody: (account, days, email) =>
      `Te han añadido a ${account} en Parley, para responder las conversaciones de sus clientes. Elige tu contraseña con este enlace en los próximos ${days} días; después inicia sesión con ${email}:`,
    inviteExpired:
      'Si el enlace ha caducado, pide uno nuevo con "¿Olvidaste tu contraseña?" en la página de inicio de sesión.',
    created: (id, inbox) => `Conversación nueva #${id}${inbox ? ` en ${inbox}` : ""}`,
    assigned: (id) => `Te han asignado la conversación #${id}`,
    mentioned: (id) => `Te han mencionado en la conversación #${id}`,
    newMessage: (id) => `Mensaje nuevo en la conversación #${id}`,
    conversation: (id) => `Conversación #${id}`,
    open: (link) => `Abrir la conversación: ${link}`,
    why: (account) =>
      `Recibes este correo por tu configuración de notificaciones en ${account}; cámbiala en el menú de tu perfil de Parley, en Notificaciones.`,
  },
  pt_BR: {
    hello: (name) => `Olá, ${name},`,
    resetSubject: "Redefina sua senha do Parley",
    resetBody: (email, hours) =>
      `Alguém pediu para redefinir a senha de ${email} no Parley. Para escolher uma nova senha, abra este link nas próximas ${hours} horas:`,
    resetIgnore: "Se não foi você, ignore este e-mail: sua senha continua a mesma.",
    inviteSubject: (account) => `Você foi convidado para ${account} no Parley`,
    inviteBody: (account, days, email) =>
      `Você foi adicionado a ${account} no Parley, para responder às conversas dos clientes. Escolha sua senha com este link nos próximos ${days} dias; depois entre com ${email}:`,
    inviteExpired: 'Se o link expirou, peça um novo em "Esqueceu sua senha?" na página de entrada.',
    created: (id, inbox) => `Nova conversa #${id}${inbox ? ` em ${inbox}` : ""}`,
    assigned: (id) => `A conversa #${id} foi atribuída a você`,
    mentioned: (id) => `Você foi mencionado na conversa #${id}`,
    newMessage: (id) => `Nova mensagem na conversa #${id}`,
    conversation: (id) => `Conversa #${id}`,
    open: (link) => `Abrir a conversa: ${link}`,
    why: (account) =>
      `Você recebe este e-mail pelas suas configurações de notificação em ${account}; altere-as no menu do seu perfil no Parley, em Notificações.`,
  },
};

/** The web app's page for a reset link: Chatwoot's path, so links look as its users know them. */
export function resetPath(token: string): string {
  return `/app/auth/password/edit?reset_password_token=${encodeURIComponent(token)}`;
}

type Person = { name: string; email: string };
const body = (...lines: string[]) => [...lines, ""].join("\n");

export function resetMail(locale: Locale, from: string, user: Person, link: string) {
  const w = WORDS[locale];
  return {
    from,
    to: { name: user.name, address: user.email },
    subject: w.resetSubject,
    text: body(w.hello(user.name), "", w.resetBody(user.email, RESET_LINK_SECONDS / 3600), "", link, "", w.resetIgnore),
  };
}

export function invitationMail(locale: Locale, from: string, user: Person, account: string, link: string) {
  const w = WORDS[locale];
  const days = INVITATION_LINK_SECONDS / 86_400;
  return {
    from,
    to: { name: user.name, address: user.email },
    subject: w.inviteSubject(account),
    text: body(w.hello(user.name), "", w.inviteBody(account, days, user.email), "", link, "", w.inviteExpired),
  };
}

export interface NotificationMailInput {
  to: { name: string; address: string };
  type: string;
  account: string;
  inbox: string;
  displayId: number;
  /** The message the notification is about (a new message, a mention), as text; "" for none. */
  message: string;
  link: string;
}

/** A notification by email: what happened, in the subject, the message if there is one, and a link. */
export function notificationMail(locale: Locale, n: NotificationMailInput) {
  const w = WORDS[locale];
  const what: Record<string, string> = {
    conversation_creation: w.created(n.displayId, n.inbox),
    conversation_assignment: w.assigned(n.displayId),
    conversation_mention: w.mentioned(n.displayId),
    assigned_conversation_new_message: w.newMessage(n.displayId),
  };
  const line = what[n.type] ?? w.conversation(n.displayId);
  const quoted = n.message ? ["", ...n.message.split("\n").map((l) => `> ${l}`)] : [];
  return {
    to: n.to,
    subject: `[${n.account}] ${line}`,
    text: body(w.hello(n.to.name), "", `${line}.`, ...quoted, "", w.open(n.link), "", w.why(n.account)),
  };
}
