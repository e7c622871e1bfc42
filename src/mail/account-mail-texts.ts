// The words of the mail Parley sends its users: a password-reset link, and a new agent's invitation
// (the same kind of link, longer lived). Plain text only: nothing in them needs markup, and a text
// part cannot carry a tracking pixel or a disguised link.
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
