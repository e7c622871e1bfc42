// The web app in Portuguese (Brazil) and Spanish: the account's language, set through the API, decides
// the words of every screen; a change in Settings → Account applies at once, and the browser
// remembers the last language for its sign-in screen.
import { describe, expect, test } from "bun:test";
import type { Page } from "playwright-core";
import { browserSuite, haveChromium, shot, type WebServer } from "./browser.ts";
import { accountApi, seedConversation, type AccountApi, type Seeded } from "./seed.ts";

if (!haveChromium)
  console.warn("test/e2e/languages.test.ts: SKIPPED — /usr/bin/chromium is missing (apt-get install -y chromium)");

let server: WebServer;
let admin: AccountApi;
let seeded: Seeded;

const lang = (page: Page) => page.evaluate(() => document.documentElement.lang);
const settingsPath = (section: string) => `${server.base}/app/accounts/${server.first.account_id}/settings/${section}`;

describe.skipIf(!haveChromium)("languages", () => {
  const { openPage, signIn } = browserSuite({
    setup: async (s) => {
      server = s;
      admin = accountApi(s.base, s.first.account_id, s.first.api_access_token);
      const inbox = await admin.post("/inboxes", { name: "Suporte", channel: { type: "api" } });
      seeded = await seedConversation(
        admin,
        inbox.id,
        { name: "Dana Cliente", email: "dana@example.com" },
        "Olá, meu pedido não chegou.",
      );
    },
  });

  test("Portuguese (Brazil): the inbox and settings, then the sign-in screen after signing out", async () => {
    expect((await admin.patch("", { locale: "pt_BR" })).locale).toBe("pt_BR");
    const page = await openPage();
    await signIn(page);
    const nav = page.getByRole("navigation", { name: "Principal" });
    await nav.getByRole("link", { name: "Conversas" }).waitFor();
    expect(await nav.innerText()).toBe("Conversas\nContatos\nConfigurações");
    expect(await lang(page)).toBe("pt-BR");
    await page.getByRole("heading", { name: "Conversas", level: 1 }).waitFor();
    const tabs = page.getByRole("group", { name: "Atribuídas a" });
    for (const tab of [/^Minhas \d/, /^Não atribuídas \d/, /^Todas \d/])
      await tabs.getByRole("button", { name: tab }).waitFor();
    await page.getByRole("button", { name: /^Não atribuídas/ }).click();
    await page.locator(`[data-conversation-id="${seeded.id}"]`).click();
    await page.getByRole("heading", { name: "Dana Cliente", level: 2 }).waitFor();
    expect(await page.locator(".thread-sub .status-text").innerText()).toBe("Aberta");
    await page.getByRole("button", { name: "Resolver", exact: true }).waitFor();
    expect(await page.getByLabel("Responder a Dana Cliente").getAttribute("placeholder")).toBe(
      "Escreva uma resposta. Enter envia, Shift+Enter para uma nova linha.",
    );
    expect(await page.getByRole("group", { name: "Tipo de mensagem" }).innerText()).toBe("Responder\nNota privada");
    expect(await page.title()).toBe("Dana Cliente · Conversas · Parley");
    await shot(page, "90-inbox-pt-BR");

    await nav.getByRole("link", { name: "Contatos" }).click();
    await page.getByRole("heading", { name: "Contatos", level: 1 }).waitFor();
    await page.getByText("1 contato", { exact: true }).waitFor();
    expect((await page.locator(".data-table thead").innerText()).trim()).toBe(
      "Nome\tE-mail\tTelefone\tEmpresa\tÚltima atividade",
    );
    await page.getByRole("button", { name: "Novo contato" }).waitFor();

    await nav.getByRole("link", { name: "Configurações" }).click();
    await page.getByRole("heading", { name: "Configurações: Conta", level: 1 }).waitFor();
    await page.getByRole("heading", { name: "Nome e idioma" }).waitFor();
    expect(await page.getByLabel("Nome da conta").inputValue()).toBe((await admin.get("")).name);
    expect(await page.getByLabel("Idioma", { exact: true }).inputValue()).toBe("pt_BR");
    expect(await page.getByRole("navigation", { name: "Configurações" }).innerText()).toContain("Caixas de entrada");
    await shot(page, "91-settings-pt-BR");
    // The server's field message, in the form's language.
    await page
      .getByRole("navigation", { name: "Configurações" })
      .getByRole("link", { name: "Caixas de entrada" })
      .click();
    await page.getByRole("button", { name: "Criar caixa de entrada", exact: true }).click();
    await page.getByText("Nome não pode ficar em branco").waitFor();

    await page.getByRole("button", { name: /menu do perfil/ }).click();
    await page.getByRole("button", { name: "Sair" }).click();
    // Signed out, the screen keeps the language this browser used last.
    await page.getByRole("heading", { name: "Entrar", level: 1 }).waitFor();
    await page.getByText("Você saiu.").waitFor();
    expect(await page.getByLabel("Senha").count()).toBe(1);
  }, 60_000);

  test("Spanish: the inbox and settings; choosing English in Settings → Account applies at once", async () => {
    expect((await admin.patch("", { locale: "es" })).locale).toBe("es");
    const page = await openPage();
    await page.goto(`${server.base}/app`);
    // This browser was last in Portuguese; forgetting that, it starts in English like a new one.
    await page.getByRole("heading", { name: "Entrar", level: 1 }).waitFor();
    await page.evaluate(() => localStorage.removeItem("parley-locale"));
    await signIn(page);
    const nav = page.getByRole("navigation", { name: "Principal" });
    await nav.getByRole("link", { name: "Conversaciones" }).waitFor();
    expect(await nav.innerText()).toBe("Conversaciones\nContactos\nConfiguración");
    expect(await lang(page)).toBe("es");
    await page.getByRole("heading", { name: "Conversaciones", level: 1 }).waitFor();
    await page.getByRole("button", { name: /^Mías/ }).waitFor();
    await page.getByRole("button", { name: /^Sin asignar/ }).click();
    await page.locator(`[data-conversation-id="${seeded.id}"]`).click();
    await page.getByRole("heading", { name: "Dana Cliente", level: 2 }).waitFor();
    expect(await page.locator(".thread-sub .status-text").innerText()).toBe("Abierta");
    await page.getByRole("button", { name: "Resolver", exact: true }).waitFor();
    expect(await page.getByLabel("Responder a Dana Cliente").getAttribute("placeholder")).toBe(
      "Escribe una respuesta. Enter envía, Mayús+Enter para una nueva línea.",
    );
    await page.getByRole("button", { name: "Más opciones de estado" }).click();
    await page.getByRole("button", { name: "Hasta que el cliente responda" }).waitFor();
    await shot(page, "92-inbox-es");

    await page.goto(settingsPath("automation"));
    await page.getByRole("heading", { name: "Añadir una regla" }).waitFor();
    expect(await page.getByLabel("Cuando", { exact: true }).locator("option").first().innerText()).toBe(
      "Conversación creada",
    );
    expect(await page.locator("#action-0-name").inputValue()).toBe("add_label");
    expect(await page.locator("#action-0-name option:checked").innerText()).toBe("Añadir etiqueta");

    await page.goto(settingsPath("agents"));
    await page.getByRole("heading", { name: "Configuración: Agentes", level: 1 }).waitFor();
    await page.getByRole("heading", { name: "Añadir un agente" }).waitFor();
    expect(await page.getByLabel("Rol", { exact: true }).locator("option").allInnerTexts()).toEqual([
      "Agente: responde las conversaciones de sus bandejas de entrada",
      "Administrador: también gestiona la configuración",
    ]);
    await page.getByRole("link", { name: "Bandejas de entrada" }).click();
    await page.getByRole("heading", { name: "Añadir una bandeja de entrada de API" }).waitFor();

    await page.goto(settingsPath("general"));
    await page.getByRole("heading", { name: "Configuración: Cuenta", level: 1 }).waitFor();
    await page.getByRole("heading", { name: "Nombre e idioma" }).waitFor();
    expect(await page.getByLabel("Idioma", { exact: true }).inputValue()).toBe("es");
    await shot(page, "93-settings-es");

    await page.getByLabel("Idioma", { exact: true }).selectOption("en");
    await page.getByRole("button", { name: "Guardar cambios" }).click();
    await page.getByRole("heading", { name: "Settings: Account", level: 1 }).waitFor();
    await page.getByText("Saved.").waitFor();
    expect(await lang(page)).toBe("en");
    expect((await admin.get("")).locale).toBe("en");
  }, 60_000);
});
