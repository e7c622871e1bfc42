// The visitor's chat, without the screen: who the visitor is (token, contact), their current
// conversation and its messages, the live stream, unread counting, typing both ways and what
// the loader's SDK calls ask for. The components render `state` and call these methods.
import {
  ApiError,
  WidgetApi,
  type ChannelConfig,
  type Contact,
  type ConversationSummary,
  type ListedConversation,
  type Message,
} from "./api.ts";
import { tell } from "./bridge.ts";
import { connectCable } from "./cable.ts";
import { AGENT_SIDE, onEvent } from "./live-events.ts";

export interface ChatState {
  contact: Contact | null;
  conversation: ConversationSummary | null;
  messages: Message[];
  /** The visitor's other (earlier) conversations, newest first. */
  earlier: ListedConversation[];
  agentTyping: string | null;
  open: boolean;
  unread: number;
  sending: boolean;
  error: string | null;
}

const TYPING_IDLE_MS = 3000;

export class ChatSession {
  state: ChatState = {
    contact: null,
    conversation: null,
    messages: [],
    earlier: [],
    agentTyping: null,
    open: false,
    unread: 0,
    sending: false,
    error: null,
  };
  private readonly api: WidgetApi;
  private stopCable: (() => void) | null = null;
  private typingOn = false;
  private typingTimer: ReturnType<typeof setTimeout> | null = null;
  private starting: Promise<void> | null = null;
  private triggered = false;

  constructor(
    readonly config: ChannelConfig,
    private readonly changed: () => void,
    private readonly storeToken: (token: string) => void,
  ) {
    this.api = new WidgetApi(config.website_token);
  }

  /** Not private: live-events.ts changes the state through it (and upsert, markSeen) as events arrive. */
  set(patch: Partial<ChatState>): void {
    this.state = { ...this.state, ...patch };
    this.changed();
  }

  /**
   * A returning visitor (token) is loaded at once, to count unread replies; a new one on first open.
   * The token is taken synchronously, so a setOpen() right after resumes this visitor too.
   */
  resume(token: string | null): Promise<void> {
    if (!token) return Promise.resolve();
    this.api.token = token;
    return this.ensureVisitor();
  }

  /** The visitor's identity: POST /config (a new visitor when the token is missing or stale). */
  ensureVisitor(): Promise<void> {
    this.starting ??= this.api
      .call<{ contact: Contact; auth_token: string }>("POST", "/config")
      .then(async (r) => {
        if (r.auth_token !== this.api.token) {
          this.api.token = r.auth_token;
          this.storeToken(r.auth_token);
        }
        this.set({ contact: r.contact });
        await this.reload();
        this.stopCable?.();
        this.stopCable = connectCable(
          r.contact.pubsub_token,
          this.config.account_id,
          (e) => onEvent(this, e),
          () => void this.reload(),
        );
      })
      .catch((error) => {
        this.starting = null;
        this.fail(error);
      });
    return this.starting;
  }

  async reload(): Promise<void> {
    const [conversation, messages, list] = await Promise.all([
      this.api.call<ConversationSummary>("GET", "/conversations"),
      this.api.call<Message[]>("GET", "/messages"),
      this.api.call<{ payload: ListedConversation[] }>("GET", "/conversations/list"),
    ]);
    const earlier = list.payload.filter((c) => c.id !== conversation.id);
    const seen = conversation.contact_last_seen_at ?? 0;
    const unread = this.state.open
      ? 0
      : messages.filter((m) => AGENT_SIDE.has(m.message_type) && m.created_at > seen).length;
    this.set({ conversation: conversation.id ? conversation : null, messages, earlier, unread });
    tell("unread", { count: unread });
    if (this.state.open) void this.markSeen();
  }

  setOpen(open: boolean): void {
    this.set({ open, ...(open ? { unread: 0 } : {}) });
    if (open) {
      void this.ensureVisitor().then(() => this.trigger());
      void this.markSeen();
    }
  }

  /** The first message (with the pre-chat form's answers) opens the conversation; later ones go into it. */
  async send(
    content: string,
    prechat?: {
      contact: Record<string, string>;
      contactAttributes: Record<string, unknown>;
      conversationAttributes: Record<string, unknown>;
    },
  ): Promise<void> {
    await this.ensureVisitor();
    this.stopTyping();
    this.set({ sending: true, error: null });
    const echo_id = `e${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
    try {
      if (!this.state.conversation || (this.state.conversation.status === "resolved" && prechat)) {
        const attrs =
          prechat && Object.keys(prechat.contactAttributes).length
            ? { custom_attributes: prechat.contactAttributes }
            : {};
        const c = await this.api.call<{ id: number; status: string; messages: Message[] }>("POST", "/conversations", {
          contact: { ...(prechat?.contact ?? {}), ...attrs },
          message: { content, echo_id },
          custom_attributes: prechat?.conversationAttributes ?? {},
        });
        this.set({ conversation: { id: c.id, status: c.status }, messages: c.messages });
      } else {
        const m = await this.api.call<Message>("POST", "/messages", { message: { content, echo_id } });
        // A resolved conversation the inbox does not reopen: the server started a new one.
        if (m.conversation_id !== this.state.conversation.id) await this.reload();
        else this.upsert(m);
      }
      this.set({ sending: false });
    } catch (error) {
      this.set({ sending: false });
      this.fail(error);
      throw error;
    }
  }

  /** A file from the visitor (opens the conversation when there is none, as a message does). */
  async sendFile(file: File): Promise<void> {
    await this.ensureVisitor();
    this.set({ sending: true, error: null });
    const form = new FormData();
    form.append("message[echo_id]", `e${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`);
    form.append("message[attachments][]", file, file.name);
    try {
      const m = await this.api.call<Message>("POST", "/messages", form);
      if (!this.state.conversation || m.conversation_id !== this.state.conversation.id) await this.reload();
      else this.upsert(m);
      this.set({ sending: false });
    } catch (error) {
      this.set({ sending: false });
      this.fail(error);
    }
  }

  /** The visitor is typing: "on" once, "off" after a pause or when the message is sent. */
  typing(): void {
    if (!this.state.conversation) return;
    if (!this.typingOn) {
      this.typingOn = true;
      void this.api.call("POST", "/conversations/toggle_typing", { typing_status: "on" }).catch(() => {});
    }
    if (this.typingTimer) clearTimeout(this.typingTimer);
    this.typingTimer = setTimeout(() => this.stopTyping(), TYPING_IDLE_MS);
  }

  async answerCsat(message: Message, rating: number, feedback: string): Promise<void> {
    const m = await this.api.call<Message>("PATCH", `/messages/${message.id}`, {
      message: { submitted_values: { csat_survey_response: { rating, feedback_message: feedback } } },
    });
    this.upsert(m);
  }

  async saveEmail(email: string): Promise<void> {
    const c = await this.api.call<Contact>("PATCH", "/contact", { email });
    this.set({ contact: c });
  }

  /** What the loader's $chatwoot calls ask for; a refusal becomes chatwoot:error on the host page. */
  async command(type: string, data: Record<string, any>): Promise<void> {
    try {
      await this.ensureVisitor();
      if (type === "set-user") await this.setUser(data.identifier, data.user ?? {});
      else if (type === "set-custom-attributes")
        await this.api.call("PATCH", "/contact", { custom_attributes: data.attributes });
      else if (type === "delete-custom-attribute")
        await this.api.call("POST", "/contact/destroy_custom_attributes", { custom_attributes: [data.key] });
      else if (type === "set-conversation-custom-attributes")
        await this.api.call("POST", "/conversations/set_custom_attributes", { custom_attributes: data.attributes });
      else if (type === "set-label") await this.api.call("POST", "/labels", { label: data.label });
      else if (type === "remove-label") await this.api.call("DELETE", `/labels/${encodeURIComponent(data.label)}`);
    } catch (error) {
      tell("error", { message: error instanceof Error ? error.message : String(error), command: type });
    }
  }

  private async setUser(identifier: string, user: Record<string, unknown>): Promise<void> {
    const r = await this.api.call<Contact & { widget_auth_token?: string }>("PATCH", "/contact/set_user", {
      ...user,
      identifier,
    });
    if (r.widget_auth_token) {
      this.api.token = r.widget_auth_token;
      this.storeToken(r.widget_auth_token);
      this.starting = null;
      await this.ensureVisitor();
    } else this.set({ contact: { ...(this.state.contact as Contact), name: r.name, email: r.email } });
  }

  /** Once per page: the visitor opened the chat (webhooks get webwidget_triggered). */
  private async trigger(): Promise<void> {
    if (this.triggered || !this.state.contact) return;
    this.triggered = true;
    const event_info = {
      browser_language: navigator.language,
      widget_language: document.documentElement.lang,
      referer: document.referrer,
      initiated_at: { timestamp: new Date().toString() },
    };
    await this.api.call("POST", "/events", { name: "webwidget.triggered", event_info }).catch(() => {});
  }

  private stopTyping(): void {
    if (this.typingTimer) clearTimeout(this.typingTimer);
    this.typingTimer = null;
    if (!this.typingOn) return;
    this.typingOn = false;
    void this.api.call("POST", "/conversations/toggle_typing", { typing_status: "off" }).catch(() => {});
  }

  async markSeen(): Promise<void> {
    if (!this.state.conversation) return;
    tell("unread", { count: 0 });
    await this.api.call("POST", "/conversations/update_last_seen").catch(() => {});
  }

  upsert(m: Message): void {
    const list = this.state.messages.filter((x) => x.id !== m.id && !(m.echo_id && x.echo_id === m.echo_id));
    list.push(m);
    list.sort((a, b) => a.id - b.id);
    this.set({ messages: list });
  }

  private fail(error: unknown): void {
    const message = error instanceof ApiError || error instanceof Error ? error.message : String(error);
    this.set({ error: message });
    tell("error", { message });
  }
}
