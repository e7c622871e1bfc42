// Domain errors carry their HTTP status and the spec's error envelope fields, so that
// http/errors.ts is the only place that renders them and services never import the web layer.

export interface FieldError {
  field: string;
  message: string;
  code: string;
}

export class AppError extends Error {
  constructor(
    readonly status: number,
    readonly description: string,
    readonly errors: FieldError[] = [],
    readonly headers: Record<string, string> = {},
    /** Further top-level keys of the error body (e.g. a resync's `event` and `data`). */
    readonly extra: Record<string, unknown> = {},
  ) {
    super(description);
  }
}

/** 400: the request could not be read at all (malformed JSON, bad multipart). */
export class BadRequestError extends AppError {
  constructor(description: string, errors: FieldError[] = []) {
    super(400, description, errors);
  }
}

/** 401: no credentials, or credentials that do not open this door. */
export class UnauthorizedError extends AppError {
  constructor(description = "You need to sign in or sign up before continuing.", field = "api_access_token") {
    super(401, description, [{ field, message: description, code: "unauthorized" }]);
  }
}

/** 403: who you are is known, but your role may not do this. */
export class ForbiddenError extends AppError {
  constructor(description = "You are not authorized to do this action") {
    super(403, description, [{ field: "role", message: description, code: "forbidden" }]);
  }
}

/** 403: a change sent with the session cookie but without that session's CSRF token. */
export class CsrfError extends AppError {
  constructor(message = "send the session's CSRF token in the X-CSRF-Token header") {
    super(403, "Invalid CSRF token", [{ field: "x-csrf-token", message, code: "csrf" }]);
  }
}

/** 404: the record does not exist, or not in this account (the two are never told apart). */
export class NotFoundError extends AppError {
  constructor(entity: string, field = "id", message?: string) {
    const description = `${entity} not found`;
    super(404, description, [{ field, message: message ?? description, code: "not_found" }]);
  }
}

/** 409: the request conflicts with the current state (a duplicate in flight, a stale update). */
export class ConflictError extends AppError {
  constructor(description: string, errors: FieldError[] = []) {
    super(409, description, errors);
  }
}

/** 413: the body is larger than the configured limit. */
export class PayloadTooLargeError extends AppError {
  constructor(limitBytes: number, message = `request body is larger than ${limitBytes} bytes`, field = "body") {
    super(413, "Request body too large", [{ field, message, code: "too_large" }]);
  }
}

/** 422: the request was read but its values are not acceptable; one item per bad field. */
export class ValidationError extends AppError {
  constructor(errors: FieldError[], description?: string) {
    super(422, description ?? errors.map((e) => `${e.field} ${e.message}`).join(", "), errors);
  }

  static of(field: string, message: string, code = "invalid"): ValidationError {
    return new ValidationError([{ field, message, code }]);
  }
}

/** 429: too many requests; tells the client when to come back. */
export class RateLimitedError extends AppError {
  constructor(retryAfterSeconds: number, field = "rate", message = "Too many requests") {
    const seconds = Math.max(1, Math.ceil(retryAfterSeconds));
    super(429, message, [{ field, message: `${message}; retry after ${seconds} s`, code: "rate_limited" }], {
      "retry-after": String(seconds),
    });
  }
}

/**
 * 410: the events after `since` are no longer kept (or the client's numbers are not this server's):
 * reload, then follow from `latest_seq`. The body carries the realtime stream's resync message too.
 */
export class ResyncError extends AppError {
  constructor(data: { oldest_seq: number; latest_seq: number }) {
    const message = `events after this seq are not available (kept: ${data.oldest_seq} to ${data.latest_seq}); reload and continue from latest_seq`;
    super(410, "Resync required", [{ field: "since", message, code: "resync" }], {}, { event: "resync", data });
  }
}

/** Collects field errors while checking several fields, then throws them together. */
export class FieldErrors {
  readonly items: FieldError[] = [];

  add(field: string, message: string, code = "invalid"): this {
    this.items.push({ field, message, code });
    return this;
  }

  get empty(): boolean {
    return this.items.length === 0;
  }

  throwIfAny(description?: string): void {
    if (this.items.length > 0) throw new ValidationError(this.items, description);
  }
}
