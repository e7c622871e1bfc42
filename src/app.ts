// createApp builds the HTTP application and never listens: tests drive it with app.handle().
import { transcriptRoutes } from "./http/transcript.routes.ts";
import { openapi } from "@elysiajs/openapi";
import { Elysia } from "elysia";
import pkg from "../package.json" with { type: "json" };
import type { Deps } from "./deps.ts";
import { accountRoutes } from "./http/accounts.routes.ts";
import { cableRoutes, WEBSOCKET_OPTIONS } from "./http/cable.routes.ts";
import { eventRoutes } from "./http/events.routes.ts";
import { typingRoutes } from "./http/typing.routes.ts";
import { automationRuleRoutes } from "./http/automation-rules.routes.ts";
import { agentRoutes } from "./http/agents.routes.ts";
import { contactRoutes } from "./http/contacts.routes.ts";
import { contactTransferRoutes } from "./http/contacts-transfer.routes.ts";
import { notificationRoutes } from "./http/notifications.routes.ts";
import { cannedResponseRoutes } from "./http/canned-responses.routes.ts";
import { conversationActionRoutes } from "./http/conversation-actions.routes.ts";
import { conversationRoutes } from "./http/conversations.routes.ts";
import { messageRoutes } from "./http/messages.routes.ts";
import { attachmentRoutes } from "./http/attachments.routes.ts";
import { agentBotRoutes } from "./http/agent-bots.routes.ts";
import { platformAgentBotRoutes } from "./http/platform-agent-bots.routes.ts";
import { participantRoutes } from "./http/participants.routes.ts";
import { customAttributeDefinitionRoutes } from "./http/custom-attribute-definitions.routes.ts";
import { fileRoutes } from "./http/files.routes.ts";
import type { BodyLimits } from "./http/body.ts";
import { openapiRequestBodies } from "./http/openapi-bodies.ts";
import { apiReferenceRoutes } from "./http/api-reference.routes.ts";
import { errorHandling } from "./http/errors.ts";
import { commitWait } from "./http/commit-wait.ts";
import { healthRoutes } from "./http/health.routes.ts";
import { inboxMemberRoutes } from "./http/inbox-members.routes.ts";
import { assignableAgentRoutes } from "./http/assignable-agents.routes.ts";
import { bulkActionRoutes } from "./http/bulk-actions.routes.ts";
import { searchRoutes } from "./http/search.routes.ts";
import { dashboardAppRoutes } from "./http/dashboard-apps.routes.ts";
import { macroRoutes } from "./http/macros.routes.ts";
import { inboxRoutes } from "./http/inboxes.routes.ts";
import { labelRoutes } from "./http/labels.routes.ts";
import { platformRoutes } from "./http/platform.routes.ts";
import { teamRoutes } from "./http/teams.routes.ts";
import { profileRoutes } from "./http/profile.routes.ts";
import { reportRoutes } from "./http/reports.routes.ts";
import { requestParsing } from "./http/request.ts";
import { webhookRoutes } from "./http/webhooks.routes.ts";
import { notificationSubscriptionRoutes } from "./http/notification-subscriptions.routes.ts";
import { passwordResetRoutes } from "./http/password-reset.routes.ts";
import { sessionRoutes } from "./http/sessions.routes.ts";
import { webRoutes } from "./http/web.routes.ts";
import { csatRoutes } from "./http/csat.routes.ts";
import { publicContactRoutes, publicInboxRoutes } from "./http/public-contacts.routes.ts";
import { publicConversationRoutes } from "./http/public-conversations.routes.ts";
import { publicMessageRoutes } from "./http/public-messages.routes.ts";
import { publicRequestLimit } from "./http/public-scope.ts";
import { putAsPatch } from "./http/rails-conventions.ts";
import { recordFilterRoutes } from "./http/record-filters.routes.ts";
import { contactExtraRoutes } from "./http/contact-extras.routes.ts";
import { customFilterRoutes } from "./http/custom-filters.routes.ts";
import { widgetRoutes } from "./http/widget.routes.ts";

export function createApp(d: Deps) {
  // normalize "typebox": Elysia's default cleaner (exact-mirror) turns a string sent for an object
  // field into {"0": "a", ...} and accepts it; TypeBox's Clean leaves it for validation to refuse,
  // and still strips undeclared fields from responses.
  // systemRouter false: requests are routed by Elysia's own router, the one app.handle() — and so
  // every test — uses, instead of a table of ~200 routes handed to Bun.serve, whose building took
  // ~6 of a restart's ~40 ms before listening. It costs ~1 µs a request (felt only by /health).
  const holder: { app?: { routes: { method: string; path: string }[]; handle(r: Request): Promise<Response> } } = {};
  const app = new Elysia({ normalize: "typebox", websocket: WEBSOCKET_OPTIONS, systemRouter: false })
    .use(putAsPatch(holder))
    .use(errorHandling(d.logger))
    .use(commitWait(d.commits, d.logger))
    .use(requestParsing(bodyLimits(d)))
    .use(openapiRequestBodies(holder))
    .use(publicRequestLimit(d))
    .use(
      openapi({
        path: "/openapi",
        provider: null,
        documentation: {
          info: { title: "Parley API", version: pkg.version, description: "A Chatwoot-compatible helpdesk API" },
          components: {
            securitySchemes: {
              api_access_token: { type: "apiKey", in: "header", name: "api_access_token" },
              // The web app's session (POST /auth/sign_in); changes also need the X-CSRF-Token header.
              session_cookie: { type: "apiKey", in: "cookie", name: "parley_session" },
            },
          },
          security: [{ api_access_token: [] }, { session_cookie: [] }],
        },
      }),
    )
    .use(directoryApi(d))
    .use(conversationApi(d))
    .use(otherApi(d))
    .use(apiReferenceRoutes(holder))
    .use(webRoutes());
  holder.app = app;
  return app;
}

export type App = ReturnType<typeof createApp>;

/** Request body limits; uploaded files spool where the file store says. */
function bodyLimits(d: Deps): BodyLimits {
  const f = d.config.files;
  return {
    body: d.config.bodyLimit,
    uploads: {
      spoolDir: d.files.store.spoolDir,
      fileBytes: f.maxFileBytes,
      totalBytes: f.maxRequestBytes,
      files: f.maxFiles,
    },
  };
}

// The routes in three groups: one chain of every route plugin is deeper than TypeScript will
// instantiate (TS2589), and the groups also say where a new resource belongs.

/** Sign-in, profile, accounts, inboxes, agents, teams, the Platform API, webhooks. */
function directoryApi(d: Deps) {
  return new Elysia()
    .use(healthRoutes(d))
    .use(sessionRoutes(d))
    .use(passwordResetRoutes(d))
    .use(profileRoutes(d))
    .use(notificationSubscriptionRoutes(d))
    .use(accountRoutes(d))
    .use(inboxRoutes(d))
    .use(inboxMemberRoutes(d))
    .use(assignableAgentRoutes(d))
    .use(agentRoutes(d))
    .use(teamRoutes(d))
    .use(platformRoutes(d))
    .use(platformAgentBotRoutes(d))
    .use(agentBotRoutes(d))
    .use(webhookRoutes(d));
}

/** Contacts, conversations, messages, typing, events and the realtime socket. */
function conversationApi(d: Deps) {
  return new Elysia()
    .use(contactTransferRoutes(d))
    .use(recordFilterRoutes(d))
    .use(contactExtraRoutes(d))
    .use(customFilterRoutes(d))
    .use(contactRoutes(d))
    .use(conversationRoutes(d))
    .use(conversationActionRoutes(d))
    .use(bulkActionRoutes(d))
    .use(searchRoutes(d))
    .use(messageRoutes(d))
    .use(attachmentRoutes(d))
    .use(participantRoutes(d))
    .use(transcriptRoutes(d))
    .use(fileRoutes(d))
    .use(typingRoutes(d))
    .use(eventRoutes(d))
    .use(cableRoutes(d));
}

/** Labels, automation, CSAT, notifications, reports, the public (client) API and the website chat. */
function otherApi(d: Deps) {
  return new Elysia()
    .use(labelRoutes(d))
    .use(automationRuleRoutes(d))
    .use(csatRoutes(d))
    .use(notificationRoutes(d))
    .use(cannedResponseRoutes(d))
    .use(dashboardAppRoutes(d))
    .use(macroRoutes(d))
    .use(customAttributeDefinitionRoutes(d))
    .use(reportRoutes(d))
    .use(publicInboxRoutes(d))
    .use(publicContactRoutes(d))
    .use(publicConversationRoutes(d))
    .use(publicMessageRoutes(d))
    .use(widgetRoutes(d));
}
