// English: the server's most frequent field messages, as the forms show them (src/web/lib/server-messages.ts).
export const errors = {
  "errors.blank": "can't be blank",
  "errors.taken": "has already been taken",
  "errors.email": "is not a valid email address",
  "errors.too_long": "is too long (maximum is {max} characters)",
  "errors.url": "must be an http or https URL",
  "errors.phone": "should be in e164 format: a + and the country code, then the number (e.g. +14155550100)",
  "errors.port": "must be a port number between 1 and 65535",
  "errors.boolean": "must be true or false",
};
