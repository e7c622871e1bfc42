// The part of @rails/actioncable (Chatwoot's realtime client, a test devDependency without types)
// that the tests use.
declare module "@rails/actioncable" {
  export interface Subscription {
    unsubscribe(): void;
    perform(action: string, data?: Record<string, unknown>): void;
  }
  export interface Consumer {
    subscriptions: {
      create(
        params: Record<string, unknown>,
        mixin: { connected?(): void; disconnected?(): void; rejected?(): void; received?(data: any): void },
      ): Subscription;
    };
    disconnect(): void;
  }
  export function createConsumer(url: string): Consumer;
}
