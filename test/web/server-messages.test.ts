// The server's field messages in the forms: the frequent ones in the user's language (English as
// the server wrote it), anything else unchanged.
import { afterEach, describe, expect, test } from "bun:test";
import { addTable, locale } from "../../src/web/lib/i18n.ts";
import { es } from "../../src/web/lib/locales/es/index.ts";
import { pt_BR } from "../../src/web/lib/locales/pt_BR/index.ts";
import { localMessage } from "../../src/web/lib/server-messages.ts";
import { E164_HINT } from "../../src/domain/validate.ts";

describe("localMessage", () => {
  addTable("pt_BR", pt_BR);
  addTable("es", es);
  afterEach(() => void (locale.value = "en"));

  test("English shows the server's own words", () => {
    for (const m of ["can't be blank", "is too long (maximum is 255 characters)", E164_HINT])
      expect(localMessage(m)).toBe(m);
  });

  test("Portuguese and Spanish translate the frequent ones, with their numbers", () => {
    locale.value = "pt_BR";
    expect(localMessage("can't be blank")).toBe("não pode ficar em branco");
    expect(localMessage("is too long (maximum is 255 characters)")).toBe("é longo demais (máximo de 255 caracteres)");
    expect(localMessage("should be unique")).toBe("já está em uso");
    locale.value = "es";
    expect(localMessage(E164_HINT)).toStartWith("debe estar en formato e164");
    expect(localMessage("is not a valid email address")).toBe("no es una dirección de correo válida");
  });

  test("a message it does not know is shown as written", () => {
    locale.value = "pt_BR";
    expect(localMessage("must be conversation_attribute (0) or contact_attribute (1)")).toBe(
      "must be conversation_attribute (0) or contact_attribute (1)",
    );
  });
});
