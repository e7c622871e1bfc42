// Every migration, in order, embedded as text so the compiled binary carries its own schema.
// Files are forward-only: once landed on main, a migration is never edited; add the next number.
import m001 from "../../migrations/001_foundation.sql" with { type: "text" };
import m002 from "../../migrations/002_directory.sql" with { type: "text" };
import m003 from "../../migrations/003_platform.sql" with { type: "text" };
import m004 from "../../migrations/004_webhooks.sql" with { type: "text" };
import m005 from "../../migrations/005_sessions.sql" with { type: "text" };
import m006 from "../../migrations/006_conversations.sql" with { type: "text" };
import m007 from "../../migrations/007_labels_automation.sql" with { type: "text" };
import m008 from "../../migrations/008_public_api.sql" with { type: "text" };
import m009 from "../../migrations/009_reporting.sql" with { type: "text" };
import m010 from "../../migrations/010_conversation_list.sql" with { type: "text" };
import m011 from "../../migrations/011_notifications.sql" with { type: "text" };
import m012 from "../../migrations/012_query_plans.sql" with { type: "text" };
import m013 from "../../migrations/013_contact_notes_custom_filters.sql" with { type: "text" };
import m014 from "../../migrations/014_website_chat.sql" with { type: "text" };
import m015 from "../../migrations/015_canned_responses.sql" with { type: "text" };
import m016 from "../../migrations/016_attachments.sql" with { type: "text" };
import m017 from "../../migrations/017_custom_attributes_participants.sql" with { type: "text" };
import m018 from "../../migrations/018_agent_bots.sql" with { type: "text" };
import m019 from "../../migrations/019_label_counts.sql" with { type: "text" };
import m020 from "../../migrations/020_label_list_order.sql" with { type: "text" };
import m021 from "../../migrations/021_email_channels.sql" with { type: "text" };
import m022 from "../../migrations/022_conversation_list_columns.sql" with { type: "text" };
import m023 from "../../migrations/023_account_user_active_at.sql" with { type: "text" };
import m024 from "../../migrations/024_dashboard_apps.sql" with { type: "text" };
import m025 from "../../migrations/025_macros.sql" with { type: "text" };
import m026 from "../../migrations/026_password_resets.sql" with { type: "text" };
import m027 from "../../migrations/027_invitations.sql" with { type: "text" };
import m028 from "../../migrations/028_notification_mail.sql" with { type: "text" };
import m029 from "../../migrations/029_message_signature.sql" with { type: "text" };
import m030 from "../../migrations/030_push_notifications.sql" with { type: "text" };
import m031 from "../../migrations/031_conversation_order_ties.sql" with { type: "text" };
import m032 from "../../migrations/032_contact_list_order.sql" with { type: "text" };
import m033 from "../../migrations/033_contact_list_sorts.sql" with { type: "text" };
import m034 from "../../migrations/034_search_version_once_per_transaction.sql" with { type: "text" };
import m035 from "../../migrations/035_drop_contact_activity_index.sql" with { type: "text" };

export interface Migration {
  version: number;
  name: string;
  sql: string;
}

export const MIGRATIONS: Migration[] = [
  { version: 1, name: "001_foundation", sql: m001 },
  { version: 2, name: "002_directory", sql: m002 },
  { version: 3, name: "003_platform", sql: m003 },
  { version: 4, name: "004_webhooks", sql: m004 },
  { version: 5, name: "005_sessions", sql: m005 },
  { version: 6, name: "006_conversations", sql: m006 },
  { version: 7, name: "007_labels_automation", sql: m007 },
  { version: 8, name: "008_public_api", sql: m008 },
  { version: 9, name: "009_reporting", sql: m009 },
  { version: 10, name: "010_conversation_list", sql: m010 },
  { version: 11, name: "011_notifications", sql: m011 },
  { version: 12, name: "012_query_plans", sql: m012 },
  { version: 13, name: "013_contact_notes_custom_filters", sql: m013 },
  { version: 14, name: "014_website_chat", sql: m014 },
  { version: 15, name: "015_canned_responses", sql: m015 },
  { version: 16, name: "016_attachments", sql: m016 },
  { version: 17, name: "017_custom_attributes_participants", sql: m017 },
  { version: 18, name: "018_agent_bots", sql: m018 },
  { version: 19, name: "019_label_counts", sql: m019 },
  { version: 20, name: "020_label_list_order", sql: m020 },
  { version: 21, name: "021_email_channels", sql: m021 },
  { version: 22, name: "022_conversation_list_columns", sql: m022 },
  { version: 23, name: "023_account_user_active_at", sql: m023 },
  { version: 24, name: "024_dashboard_apps", sql: m024 },
  { version: 25, name: "025_macros", sql: m025 },
  { version: 26, name: "026_password_resets", sql: m026 },
  { version: 27, name: "027_invitations", sql: m027 },
  { version: 28, name: "028_notification_mail", sql: m028 },
  { version: 29, name: "029_message_signature", sql: m029 },
  { version: 30, name: "030_push_notifications", sql: m030 },
  { version: 31, name: "031_conversation_order_ties", sql: m031 },
  { version: 32, name: "032_contact_list_order", sql: m032 },
  { version: 33, name: "033_contact_list_sorts", sql: m033 },
  { version: 34, name: "034_search_version_once_per_transaction", sql: m034 },
  { version: 35, name: "035_drop_contact_activity_index", sql: m035 },
];

export const LATEST_VERSION = MIGRATIONS.length;
