// Spanish: the server's most frequent field messages, as the forms show them.
import type { errors as en } from "../en/errors.ts";
import type { Area } from "../en/index.ts";

export const errors: Area<typeof en> = {
  "errors.blank": "no puede estar en blanco",
  "errors.taken": "ya está en uso",
  "errors.email": "no es una dirección de correo válida",
  "errors.too_long": "es demasiado largo (máximo {max} caracteres)",
  "errors.url": "debe ser una dirección http o https",
  "errors.phone": "debe estar en formato e164: un + y el código del país, luego el número (p. ej. +34612345678)",
  "errors.port": "debe ser un número de puerto entre 1 y 65535",
  "errors.boolean": "debe ser verdadero o falso",
};
