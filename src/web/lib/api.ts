// Talking to Parley's API from the browser: same-origin fetch, the session cookie goes by itself,
// the CSRF token goes in a header on every change, errors come back as ApiError with the
// server's envelope ({description, errors[{field, message, code}]}).
import { t } from "./i18n.ts";

export interface FieldError {
  field: string;
  message: string;
  code: string;
}

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly description: string,
    readonly errors: FieldError[] = [],
    /** Seconds, from Retry-After on a 429. */
    readonly retryAfter: number | null = null,
  ) {
    super(description);
  }

  /** The message for one field, if the server named it. */
  forField(field: string): string | undefined {
    return this.errors.find((e) => e.field === field)?.message;
  }
}

let csrfToken: string | null = null;
let onUnauthorized: ((error: ApiError) => void) | null = null;
let refreshCsrf: (() => Promise<void>) | null = null;

export function setCsrfToken(token: string | null): void {
  csrfToken = token;
}

/** The CSRF header a change needs (for uploads sent with XMLHttpRequest, which reports progress). */
export function csrfHeaders(): Record<string, string> {
  return csrfToken ? { "x-csrf-token": csrfToken } : {};
}

/** The error `api` would throw for this status and body (shared with the upload path). */
export function apiError(
  status: number,
  statusText: string,
  data: { description?: string; errors?: FieldError[] } | null,
): ApiError {
  return new ApiError(status, data?.description ?? `${status} ${statusText}`, data?.errors ?? []);
}

/** Called when an authenticated request is refused with 401 (the session ended elsewhere or expired). */
export function handleUnauthorized(fn: (error: ApiError) => void): void {
  onUnauthorized = fn;
}

/**
 * Called when a change is refused for its CSRF token: signing in again in another tab replaces the
 * session (and its token) under this one. The request is retried once with the fresh token.
 */
export function handleStaleCsrf(fn: () => Promise<void>): void {
  refreshCsrf = fn;
}

type Method = "GET" | "POST" | "PATCH" | "PUT" | "DELETE";

/** A JSON answer; `body` goes as JSON, or as multipart when it is FormData (a file upload). */
export async function api<T>(method: Method, path: string, body?: unknown, retried = false): Promise<T> {
  const response = await send(method, path, body, "application/json");
  const data = (await response.json().catch(() => null)) as { description?: string; errors?: FieldError[] } | null;
  if (response.ok) return data as T;
  if (
    response.status === 403 &&
    data?.errors?.[0]?.code === "csrf" &&
    !retried &&
    refreshCsrf &&
    path !== "/auth/sign_in"
  ) {
    await refreshCsrf();
    return api<T>(method, path, body, true);
  }
  throw failure(response, path, data);
}

/** A file answer (a CSV export): its bytes, or the same ApiError as `api` gives. */
export async function apiFile(method: Method, path: string, body?: unknown): Promise<Blob> {
  const response = await send(method, path, body, "*/*");
  if (response.ok) return response.blob();
  throw failure(response, path, await response.json().catch(() => null));
}

async function send(method: Method, path: string, body: unknown, accept: string): Promise<Response> {
  const headers: Record<string, string> = { accept };
  const form = body instanceof FormData;
  if (body !== undefined && !form) headers["content-type"] = "application/json";
  if (method !== "GET" && csrfToken) headers["x-csrf-token"] = csrfToken;
  try {
    return await fetch(path, {
      method,
      headers,
      credentials: "same-origin",
      body: body === undefined ? undefined : form ? body : JSON.stringify(body),
    });
  } catch {
    throw new ApiError(0, t("app.unreachable"));
  }
}

function failure(
  response: Response,
  path: string,
  data: { description?: string; errors?: FieldError[] } | null,
): ApiError {
  const retryAfter = Number(response.headers.get("retry-after")) || null;
  const error = new ApiError(
    response.status,
    data?.description ?? `${response.status} ${response.statusText}`,
    data?.errors ?? [],
    retryAfter,
  );
  if (response.status === 401 && path !== "/auth/sign_in") onUnauthorized?.(error);
  return error;
}
