// PostgreSQL's migrations: the same numbers and names as SQLite's (src/db/migrations.ts), in
// PostgreSQL's dialect, embedded so the binary carries both schemas. A new migration is added to both
// lists; test/db/schema-parity.test.ts fails until the two schemas match again.
import p001 from "../../migrations/postgres/001_foundation.sql" with { type: "text" };
import p002 from "../../migrations/postgres/002_directory.sql" with { type: "text" };
import p003 from "../../migrations/postgres/003_platform.sql" with { type: "text" };
import p004 from "../../migrations/postgres/004_webhooks.sql" with { type: "text" };
import p005 from "../../migrations/postgres/005_sessions.sql" with { type: "text" };
import p006 from "../../migrations/postgres/006_conversations.sql" with { type: "text" };
import p007 from "../../migrations/postgres/007_labels_automation.sql" with { type: "text" };
import p008 from "../../migrations/postgres/008_public_api.sql" with { type: "text" };
import p009 from "../../migrations/postgres/009_reporting.sql" with { type: "text" };
import p010 from "../../migrations/postgres/010_conversation_list.sql" with { type: "text" };
import p011 from "../../migrations/postgres/011_notifications.sql" with { type: "text" };
import p012 from "../../migrations/postgres/012_query_plans.sql" with { type: "text" };
import p013 from "../../migrations/postgres/013_contact_notes_custom_filters.sql" with { type: "text" };
import p014 from "../../migrations/postgres/014_website_chat.sql" with { type: "text" };
import p015 from "../../migrations/postgres/015_canned_responses.sql" with { type: "text" };
import p016 from "../../migrations/postgres/016_attachments.sql" with { type: "text" };
import p017 from "../../migrations/postgres/017_custom_attributes_participants.sql" with { type: "text" };
import p018 from "../../migrations/postgres/018_agent_bots.sql" with { type: "text" };
import p019 from "../../migrations/postgres/019_label_counts.sql" with { type: "text" };
import p020 from "../../migrations/postgres/020_label_list_order.sql" with { type: "text" };
import p021 from "../../migrations/postgres/021_email_channels.sql" with { type: "text" };
import p022 from "../../migrations/postgres/022_conversation_list_columns.sql" with { type: "text" };
import p023 from "../../migrations/postgres/023_account_user_active_at.sql" with { type: "text" };
import p024 from "../../migrations/postgres/024_dashboard_apps.sql" with { type: "text" };
import p025 from "../../migrations/postgres/025_macros.sql" with { type: "text" };
import p026 from "../../migrations/postgres/026_password_resets.sql" with { type: "text" };
import p027 from "../../migrations/postgres/027_invitations.sql" with { type: "text" };
import p028 from "../../migrations/postgres/028_notification_mail.sql" with { type: "text" };
import p029 from "../../migrations/postgres/029_message_signature.sql" with { type: "text" };
import p030 from "../../migrations/postgres/030_push_notifications.sql" with { type: "text" };
import p031 from "../../migrations/postgres/031_conversation_order_ties.sql" with { type: "text" };
import p032 from "../../migrations/postgres/032_contact_list_order.sql" with { type: "text" };
import p033 from "../../migrations/postgres/033_contact_list_sorts.sql" with { type: "text" };
import p034 from "../../migrations/postgres/034_search_version_once_per_transaction.sql" with { type: "text" };
import p035 from "../../migrations/postgres/035_drop_contact_activity_index.sql" with { type: "text" };
import type { Migration } from "./migrations.ts";

export const POSTGRES_MIGRATIONS: Migration[] = [
  { version: 1, name: "001_foundation", sql: p001 },
  { version: 2, name: "002_directory", sql: p002 },
  { version: 3, name: "003_platform", sql: p003 },
  { version: 4, name: "004_webhooks", sql: p004 },
  { version: 5, name: "005_sessions", sql: p005 },
  { version: 6, name: "006_conversations", sql: p006 },
  { version: 7, name: "007_labels_automation", sql: p007 },
  { version: 8, name: "008_public_api", sql: p008 },
  { version: 9, name: "009_reporting", sql: p009 },
  { version: 10, name: "010_conversation_list", sql: p010 },
  { version: 11, name: "011_notifications", sql: p011 },
  { version: 12, name: "012_query_plans", sql: p012 },
  { version: 13, name: "013_contact_notes_custom_filters", sql: p013 },
  { version: 14, name: "014_website_chat", sql: p014 },
  { version: 15, name: "015_canned_responses", sql: p015 },
  { version: 16, name: "016_attachments", sql: p016 },
  { version: 17, name: "017_custom_attributes_participants", sql: p017 },
  { version: 18, name: "018_agent_bots", sql: p018 },
  { version: 19, name: "019_label_counts", sql: p019 },
  { version: 20, name: "020_label_list_order", sql: p020 },
  { version: 21, name: "021_email_channels", sql: p021 },
  { version: 22, name: "022_conversation_list_columns", sql: p022 },
  { version: 23, name: "023_account_user_active_at", sql: p023 },
  { version: 24, name: "024_dashboard_apps", sql: p024 },
  { version: 25, name: "025_macros", sql: p025 },
  { version: 26, name: "026_password_resets", sql: p026 },
  { version: 27, name: "027_invitations", sql: p027 },
  { version: 28, name: "028_notification_mail", sql: p028 },
  { version: 29, name: "029_message_signature", sql: p029 },
  { version: 30, name: "030_push_notifications", sql: p030 },
  { version: 31, name: "031_conversation_order_ties", sql: p031 },
  { version: 32, name: "032_contact_list_order", sql: p032 },
  { version: 33, name: "033_contact_list_sorts", sql: p033 },
  { version: 34, name: "034_search_version_once_per_transaction", sql: p034 },
  { version: 35, name: "035_drop_contact_activity_index", sql: p035 },
];
