// Portuguese (Brazil): the server's most frequent field messages, as the forms show them.
import type { errors as en } from "../en/errors.ts";
import type { Area } from "../en/index.ts";

export const errors: Area<typeof en> = {
  "errors.blank": "não pode ficar em branco",
  "errors.taken": "já está em uso",
  "errors.email": "não é um endereço de e-mail válido",
  "errors.too_long": "é longo demais (máximo de {max} caracteres)",
  "errors.url": "precisa ser um endereço http ou https",
  "errors.phone": "deve estar no formato e164: um + e o código do país, depois o número (ex.: +5511912345678)",
  "errors.port": "precisa ser um número de porta entre 1 e 65535",
  "errors.boolean": "precisa ser verdadeiro ou falso",
};
