// A socket's commands, done in the order it sent them. On PostgreSQL some are awaited: opening the
// socket and subscribing look up who holds a token on the read pool (the process serves others
// meanwhile). While one is, the socket's later commands wait behind it, so that an unsubscribe, a
// message or another subscribe sent right after a subscribe is done after it, never before. On
// SQLite every command is done in place and nothing ever waits.

/** A command: done in place, or a promise of its end. */
export type Command = () => void | Promise<void>;

export class CommandQueue {
  /** Commands waiting behind one that is awaited; null while none is. */
  private waiting: Command[] | null = null;

  /** `failed`: a command done after an awaited one threw, or an awaited one rejected. */
  constructor(private readonly failed: (error: unknown) => void) {}

  /** Does `command` now (what it throws is the caller's), or after the earlier ones when one of them is awaited. */
  run(command: Command): void {
    if (this.waiting) this.waiting.push(command);
    else this.follow(command());
  }

  /** The socket is gone: the commands still waiting are dropped. */
  clear(): void {
    if (this.waiting) this.waiting.length = 0;
  }

  private follow(result: void | Promise<void>): void {
    if (!(result instanceof Promise)) return;
    this.waiting ??= [];
    result.then(
      () => this.next(),
      (error) => this.fail(error),
    );
  }

  /** The awaited command is done: the waiting ones in order, until one is awaited again. */
  private next(): void {
    const waiting = this.waiting!;
    while (waiting.length > 0) {
      let result: void | Promise<void>;
      try {
        result = waiting.shift()!();
      } catch (error) {
        this.fail(error);
        return;
      }
      if (result instanceof Promise) {
        this.follow(result);
        return;
      }
    }
    this.waiting = null;
  }

  private fail(error: unknown): void {
    this.waiting = null;
    this.failed(error);
  }
}
