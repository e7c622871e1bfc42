// /api/v1/widget — config (the inbox's settings and the visitor, a new one without X-Auth-Token)
// and the visitor's contact: show, update, set_user (identity verification), custom attributes.
import { Elysia } from "elysia";
import { whenReady } from "../lib/when-ready.ts";
import type { Deps } from "../deps.ts";
import { widgetChannelConfig, widgetContactOf } from "../domain/presenters/widget.presenter.ts";
import { bodyOf } from "./request.ts";
import { clientAddress } from "./public-scope.ts";
import { errorResponses } from "./schemas.ts";
import {
  KeysBody,
  SetUserResult,
  WebsiteTokenQuery,
  WidgetConfig,
  WidgetContact,
  WidgetContactBody,
} from "./widget-schemas.ts";
import { WIDGET_PREFIX, widgetScope } from "./widget-scope.ts";

const tags = ["widget"];
export const widgetDetail = (summary: string) => ({ tags, summary, security: [] });

export function widgetContactRoutes(d: Deps) {
  const svc = d.services.widget;
  const contacts = d.services.contacts;
  return new Elysia({ prefix: WIDGET_PREFIX })
    .use(widgetScope(d))
    .post(
      "/config",
      async ({ inbox, authToken, request, server }) => {
        const { scope, token } = await svc.start(inbox, authToken, clientAddress(request, server, d.config.trustProxy));
        return {
          website_channel_config: widgetChannelConfig(inbox, svc.availability(inbox)),
          contact: widgetContactOf(scope.contactInbox, scope.contact),
          auth_token: token,
        };
      },
      {
        query: WebsiteTokenQuery,
        response: { 200: WidgetConfig, ...errorResponses },
        detail: widgetDetail(
          "The website inbox's settings and the visitor (with X-Auth-Token), or a new visitor and its auth_token",
        ),
      },
    )
    .get(
      "/contact",
      ({ inbox, authToken }) =>
        whenReady(d.services.widget.visitorSoon(inbox, authToken), (scope) =>
          widgetContactOf(scope.contactInbox, scope.contact),
        ),
      {
        query: WebsiteTokenQuery,
        response: { 200: WidgetContact, ...errorResponses },
        detail: widgetDetail("The visitor's contact"),
      },
    )
    .patch(
      "/contact",
      async ({ visitorSoon, body }) => {
        const scope = await visitorSoon();
        return widgetContactOf(scope.contactInbox, await d.services.publicContacts.update(scope, body));
      },
      {
        query: WebsiteTokenQuery,
        ...bodyOf(WidgetContactBody, "contact"),
        response: { 200: WidgetContact, ...errorResponses },
        detail: widgetDetail("Change the visitor's name, email, phone number, avatar or custom attributes (merged)"),
      },
    )
    .patch(
      "/contact/set_user",
      async ({ inbox, authToken, body, request, server }) => {
        const scope = await svc.visitorSoon(inbox, authToken);
        const r = await svc.setUser(scope, body, clientAddress(request, server, d.config.trustProxy));
        const { contactInbox, contact } = r.scope;
        return {
          id: contact.id,
          name: contact.name,
          email: contact.email,
          phone_number: contact.phone_number,
          pubsub_token: contactInbox.pubsub_token,
          ...(r.switched ? { widget_auth_token: r.token } : {}),
        };
      },
      {
        query: WebsiteTokenQuery,
        ...bodyOf(WidgetContactBody, "contact"),
        response: { 200: SetUserResult, ...errorResponses },
        detail: widgetDetail(
          "setUser: identify the visitor (identifier, identifier_hash = hex HMAC-SHA256 of the identifier with the inbox's hmac_token)",
        ),
      },
    )
    .post(
      "/contact/destroy_custom_attributes",
      async ({ visitorSoon, body }) => {
        const scope = await visitorSoon();
        return widgetContactOf(
          scope.contactInbox,
          await contacts.removeCustomAttributes(scope.acting, scope.contact.id, body.custom_attributes),
        );
      },
      {
        query: WebsiteTokenQuery,
        ...bodyOf(KeysBody),
        response: { 200: WidgetContact, ...errorResponses },
        detail: widgetDetail("Remove the visitor's custom attributes with these keys"),
      },
    );
}
