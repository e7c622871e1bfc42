-- Website chat (web_widget inboxes): the chat page and its API find the inbox by its public
-- website_token, kept in channel_attributes; this index makes that one probe and keeps tokens unique.
CREATE UNIQUE INDEX inboxes_website_token ON inboxes(((channel_attributes::jsonb) ->> 'website_token'))
  WHERE channel_type = 'web_widget';
