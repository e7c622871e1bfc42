// A value that is either here or coming: what readSoon answers (src/db/reads.ts), a value on SQLite
// and a promise on PostgreSQL. A route handler that gets the value answers synchronously; under
// load an awaited answer cost SQLite a measurable share of its requests a second.

/** `f` of the value: at once if it is here, when it comes if it is a promise. */
export function whenReady<T, U>(value: T | Promise<T>, f: (value: T) => U): U | Promise<U> {
  return value instanceof Promise ? value.then(f) : f(value);
}
