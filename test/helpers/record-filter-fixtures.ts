// One condition of a contacts/filter or conversations/filter payload, as Chatwoot's clients send
// it (test/http/contact-filters.test.ts, conversation-filters.test.ts).
export const cond = (
  attribute_key: string,
  filter_operator: string,
  values: unknown,
  query_operator: string | null = null,
  extra: Record<string, unknown> = {},
) => ({
  attribute_key,
  filter_operator,
  values,
  query_operator,
  ...extra,
});
