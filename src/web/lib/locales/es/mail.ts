// Spanish: email inboxes: the new-inbox form, the mail servers card, an email's quoted history.
import type { mail as en } from "../en/mail.ts";
import type { Area } from "../en/index.ts";

export const mail: Area<typeof en> = {
  "mail.new_title": "Añadir una bandeja de correo electrónico",
  "mail.new_hint":
    "Los correos a tu dirección de soporte se convierten en conversaciones; las respuestas de los agentes salen como correo.",
  "mail.inbox_name": "Nombre de la bandeja de correo",
  "mail.address": "Dirección de soporte",
  "mail.create": "Crear bandeja de correo",
  "mail.servers": "Servidores de correo",
  "mail.saving_what": "Guardar la configuración de correo",
  "mail.last_problem": "Último problema: {error}",
  "mail.last_read": "Buzón leído por última vez {when}.",
  "mail.never_read": "El buzón aún no se ha leído.",
  "mail.incoming": "Correo entrante (IMAP)",
  "mail.read_mailbox": "Leer el correo de este buzón",
  "mail.imap_server": "Servidor IMAP",
  "mail.imap_port": "Puerto IMAP",
  "mail.imap_login": "Usuario IMAP",
  "mail.imap_password": "Contraseña IMAP",
  "mail.imap_ssl": "SSL/TLS (puerto 993)",
  "mail.folder": "Carpeta",
  "mail.outgoing": "Respuestas (SMTP)",
  "mail.send_replies": "Enviar por correo las respuestas de los agentes",
  "mail.smtp_server": "Servidor SMTP",
  "mail.smtp_port": "Puerto SMTP",
  "mail.smtp_login": "Usuario SMTP",
  "mail.smtp_password": "Contraseña SMTP",
  "mail.smtp_ssl": "SSL/TLS (puerto 465)",
  "mail.starttls": "STARTTLS cuando se ofrezca (puerto 587)",
  "mail.plus":
    "Identificar la conversación en la dirección de respuesta (soporte+…@): el buzón debe aceptar direcciones con +",
  "mail.password_kept": "Definida. Déjala en blanco para conservarla.",
  "mail.save": "Guardar configuración de correo",
  "mail.test": "Probar conexión",
  "mail.testing": "Probando…",
  "mail.test_results": "Prueba de conexión",
  "mail.quoted": "Texto citado",
};
