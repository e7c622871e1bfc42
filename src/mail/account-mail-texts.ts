// The words of the mail Parley sends its users: a password-reset link, a new agent's invitation
// (the same kind of link, longer lived), and notifications. Plain text only: nothing in them needs
// markup, and a text part cannot carry a tracking pixel or a disguised link.
import { INVITATION_LINK_SECONDS, RESET_LINK_SECONDS } from "../domain/password-resets.service.ts";

/** The web app's page for a reset link: Chatwoot's path, so links look as its users know them. */
export function resetPath(token: string): string {
  return `/app/auth/password/edit?reset_password_token=${encodeURIComponent(token)}`;
}

export function resetMail(from: string, user: { name: string; email: string }, link: string) {
  const hours = RESET_LINK_SECONDS / 3600;
  return {
    from,
    to: { name: user.name, address: user.email },
    subject: "Reset your Parley password",
    text: [
      `Hello ${user.name},`,
      "",
      `Someone asked to reset the password of ${user.email} on Parley. To choose a new password, open this link within ${hours} hours:`,
      "",
      link,
      "",
      "If you did not ask for this, ignore this mail: your password stays as it is.",
      "",
    ].join("\n"),
  };
}

export function invitationMail(from: string, user: { name: string; email: string }, account: string, link: string) {
  const days = INVITATION_LINK_SECONDS / 86_400;
  return {
    from,
    to: { name: user.name, address: user.email },
    subject: `You are invited to ${account} on Parley`,
    text: [
      `Hello ${user.name},`,
      "",
      `You have been added to ${account} on Parley, to answer its customers' conversations. Choose your password with this link within ${days} days; you then sign in with ${user.email}:`,
      "",
      link,
      "",
      'If the link has expired, ask for a new one with "Forgot your password?" on the sign-in page.',
      "",
    ].join("\n"),
  };
}

export interface NotificationMailInput {
  to: { name: string; address: string };
  type: string;
  account: string;
  inbox: string;
  displayId: number;
  /** The notification's own line (Chatwoot's push_message_title), e.g. the message that was written. */
  title: string;
  link: string;
}

/** A notification by email: what happened, in the subject, and a link to the conversation. */
export function notificationMail(n: NotificationMailInput) {
  const what: Record<string, string> = {
    conversation_creation: `New conversation #${n.displayId}${n.inbox ? ` in ${n.inbox}` : ""}`,
    conversation_assignment: `Conversation #${n.displayId} is assigned to you`,
    conversation_mention: `You were mentioned in conversation #${n.displayId}`,
    assigned_conversation_new_message: `New message in conversation #${n.displayId}`,
  };
  const subject = `[${n.account}] ${what[n.type] ?? `Conversation #${n.displayId}`}`;
  return {
    to: n.to,
    subject,
    text: [
      `Hello ${n.to.name},`,
      "",
      n.title || subject,
      "",
      `Open the conversation: ${n.link}`,
      "",
      `You get this mail because of your notification settings in ${n.account}; change them in Parley's profile menu, under Notifications.`,
      "",
    ].join("\n"),
  };
}
