// English: dashboard apps (Settings › Dashboard apps, and their tabs beside a conversation).
export const apps = {
  "apps.what": "The dashboard apps",
  "apps.title": "Dashboard apps",
  "apps.hint":
    "Pages that open beside a conversation, each in a tab of its own. The page receives the conversation, its contact and the agent, as Chatwoot's dashboard apps do.",
  "apps.none": "No dashboard apps yet.",
  "apps.name": "Name",
  "apps.url": "URL",
  "apps.url_hint": "The page to show (http:// or https://). It opens in a sandboxed frame, without a referrer.",
  "apps.add_title": "Add a dashboard app",
  "apps.edit": "Edit {title}",
  "apps.create": "Create dashboard app",
  "apps.save": "Save dashboard app",
  "apps.saving_what": "Saving the dashboard app",
  "apps.created": "{title} created.",
  "apps.saved": "{title} saved.",
  "apps.deleted": "{title} deleted.",
  "apps.delete_failed": "The dashboard app could not be deleted.",
  "apps.delete_question": "Delete {title}?",
  "apps.views": "Views",
  "apps.messages": "Messages",
  "apps.no_page": "This app has no page to show.",
};
