// Parley's website chat loader, served at /packs/js/sdk.js so Chatwoot's embed snippet works as it
// is: window.chatwootSDK.run({websiteToken, baseUrl}) draws the bubble and the chat frame
// (/widget?website_token=…) and exposes window.$chatwoot. Written from Chatwoot's documented SDK
// API; plain JavaScript served as is (no build step), kept small (test/web/widget-size.test.ts).
// The bubble lives in a shadow root so the host page's styles and ours never meet; the chat runs
// in the iframe, which talks to this script only by postMessage between the two known windows.
(() => {
  if (window.chatwootSDK?.parley) return;
  var COOKIE = "cw_conversation";
  var RTL = /^(ar|fa|he|ur)/;
  var state = {
    open: false,
    hidden: false,
    unread: 0,
    ready: false,
    queue: [],
    frame: null,
    host: null,
    root: null,
    origin: "",
    token: "",
    base: "",
    settings: {},
  };

  function readToken(websiteToken) {
    var m = document.cookie.match(new RegExp(`(?:^|; )${COOKIE}_${websiteToken}=([^;]*)`));
    if (m) return decodeURIComponent(m[1]);
    try {
      return localStorage.getItem(`${COOKIE}_${websiteToken}`) || "";
    } catch (_) {
      return "";
    }
  }

  function storeToken(websiteToken, token) {
    var name = `${COOKIE}_${websiteToken}`;
    var secure = location.protocol === "https:" ? "; Secure" : "";
    document.cookie =
      name +
      "=" +
      (token ? encodeURIComponent(token) : "") +
      "; path=/; SameSite=Lax" +
      (token ? "; max-age=31536000" : "; max-age=0") +
      secure;
    try {
      if (token) localStorage.setItem(name, token);
      else localStorage.removeItem(name);
    } catch (_) {}
  }

  function emit(name, detail) {
    window.dispatchEvent(new CustomEvent(name, { detail: detail }));
  }

  function post(type, data) {
    var msg = { parley: 1, type: type, data: data };
    if (!state.ready) return void state.queue.push(msg);
    state.frame.contentWindow.postMessage(msg, state.origin);
  }

  var CSS =
    ":host{all:initial}" +
    ".bubble{position:fixed;bottom:20px;z-index:2147483000;border:0;cursor:pointer;color:#fff;font:600 15px/1 system-ui,sans-serif;box-shadow:0 4px 14px rgba(0,0,0,.25);display:flex;align-items:center;gap:8px;justify-content:center}" +
    ".bubble.standard{width:56px;height:56px;border-radius:50%}" +
    ".bubble.expanded{height:48px;padding:0 18px;border-radius:24px}" +
    ".bubble svg{width:26px;height:26px;fill:currentColor}" +
    ".bubble:focus-visible{outline:3px solid #fff;outline-offset:2px}" +
    ".badge{position:absolute;top:-4px;right:-4px;min-width:20px;height:20px;padding:0 5px;box-sizing:border-box;border-radius:10px;background:#e0245e;color:#fff;font:700 12px/20px system-ui,sans-serif;text-align:center}" +
    ".frame{position:fixed;bottom:90px;z-index:2147483000;width:400px;height:min(640px,calc(100vh - 110px));border:0;border-radius:12px;box-shadow:0 8px 30px rgba(0,0,0,.25);background:#fff}" +
    ".left{left:20px}.right{right:20px}.hide{display:none!important}" +
    "@media (max-width:500px){.frame.open{inset:0;width:100%;height:100%;border-radius:0}.frame.open~.bubble{display:none}}";

  var ICON =
    '<svg viewBox="0 0 24 24" aria-hidden="true"><path d="M4 4h16a2 2 0 0 1 2 2v10a2 2 0 0 1-2 2H8l-4 4V6a2 2 0 0 1 2-2z"/></svg>';
  var CLOSE =
    '<svg viewBox="0 0 24 24" aria-hidden="true"><path d="M6.4 5 12 10.6 17.6 5 19 6.4 13.4 12l5.6 5.6-1.4 1.4-5.6-5.6L6.4 19 5 17.6l5.6-5.6L5 6.4z"/></svg>';

  function render() {
    var s = state.settings;
    var side = s.position === "left" ? "left" : "right";
    var bubble = state.bubble;
    var expanded = s.type === "expanded_bubble" && !state.open;
    bubble.className = `bubble ${side}${expanded ? " expanded" : " standard"}${state.hidden || s.hideMessageBubble ? " hide" : ""}`;
    bubble.style.background = state.color || "#1f93ff";
    bubble.setAttribute("aria-expanded", String(state.open));
    var label = state.open ? "Close chat" : s.launcherTitle || "Chat with us";
    bubble.setAttribute("aria-label", label + (state.unread && !state.open ? ` (${state.unread})` : ""));
    bubble.innerHTML = state.open ? CLOSE : ICON + (expanded ? "<span></span>" : "");
    if (expanded) bubble.querySelector("span").textContent = s.launcherTitle || "Chat with us";
    if (state.unread && !state.open) {
      const b = document.createElement("span");
      b.className = "badge";
      b.textContent = state.unread > 99 ? "99+" : String(state.unread);
      bubble.appendChild(b);
    }
    state.frame.className = `frame ${side}${state.open ? " open" : " hide"}`;
  }

  function toggle(want) {
    var open = want === "open" ? true : want === "close" ? false : !state.open;
    if (open === state.open) return;
    state.open = open;
    if (open) state.unread = 0;
    post("toggle", { open: open });
    render();
  }

  function frameUrl(extra) {
    var s = state.settings;
    var q = `website_token=${encodeURIComponent(state.websiteToken)}`;
    if (s.locale) q += `&locale=${encodeURIComponent(s.locale)}`;
    return `${state.base}/widget?${q}${extra || ""}`;
  }

  function onMessage(e) {
    if (!state.frame || e.source !== state.frame.contentWindow || e.origin !== state.origin) return;
    var m = e.data || {};
    if (m.parley !== 1) return;
    var d = m.data || {};
    if (m.type === "loaded") {
      state.ready = true;
      state.frame.contentWindow.postMessage(
        { parley: 1, type: "init", data: { token: state.token, settings: state.settings, open: state.open } },
        state.origin,
      );
      const queued = state.queue;
      state.queue = [];
      for (const msg of queued) state.frame.contentWindow.postMessage(msg, state.origin);
    } else if (m.type === "ready") {
      state.color = d.color;
      render();
      window.$chatwoot.hasLoaded = true;
      emit("chatwoot:ready", {});
    } else if (m.type === "token") {
      state.token = d.token || "";
      storeToken(state.websiteToken, state.token);
    } else if (m.type === "unread") {
      state.unread = state.open ? 0 : d.count | 0;
      render();
    } else if (m.type === "message") {
      emit("chatwoot:on-message", d);
    } else if (m.type === "error") {
      emit("chatwoot:error", d);
    } else if (m.type === "close") {
      toggle("close");
    }
  }

  function mount() {
    var host = document.createElement("div");
    host.id = "parley-chat";
    var root = host.attachShadow ? host.attachShadow({ mode: "open" }) : host;
    var style = document.createElement("style");
    style.textContent = CSS;
    var frame = document.createElement("iframe");
    frame.title = "Chat";
    frame.src = frameUrl("");
    frame.setAttribute("allow", "clipboard-write");
    var bubble = document.createElement("button");
    bubble.type = "button";
    bubble.addEventListener("click", () => toggle());
    root.appendChild(style);
    root.appendChild(frame);
    root.appendChild(bubble);
    document.body.appendChild(host);
    state.host = host;
    state.root = root;
    state.frame = frame;
    state.bubble = bubble;
    render();
  }

  function unmount() {
    if (state.host) state.host.remove();
    state.host = state.root = state.frame = state.bubble = null;
    state.ready = false;
    state.queue = [];
  }

  var api = {
    hasLoaded: false,
    isOpen: () => state.open,
    toggle: (s) => toggle(s),
    toggleBubbleVisibility: (v) => {
      state.hidden = v === "hide" ? true : v === "show" ? false : !state.hidden;
      render();
    },
    popoutChatWindow: () => {
      var url = frameUrl(`&popout=1${state.token ? `&cw_conversation=${encodeURIComponent(state.token)}` : ""}`);
      window.open(url, "parley-chat", "resizable=yes,width=420,height=640");
      toggle("close");
    },
    setUser: (identifier, user) => post("set-user", { identifier: String(identifier), user: user || {} }),
    setCustomAttributes: (attrs) => post("set-custom-attributes", { attributes: attrs || {} }),
    deleteCustomAttribute: (key) => post("delete-custom-attribute", { key: String(key) }),
    setConversationCustomAttributes: (attrs) => post("set-conversation-custom-attributes", { attributes: attrs || {} }),
    setLabel: (label) => post("set-label", { label: String(label) }),
    removeLabel: (label) => post("remove-label", { label: String(label) }),
    setLocale: (locale) => {
      state.settings.locale = String(locale);
      post("set-locale", { locale: state.settings.locale, rtl: RTL.test(state.settings.locale) });
    },
    setColorScheme: (mode) => post("set-dark-mode", { darkMode: mode }),
    reset: () => {
      storeToken(state.websiteToken, "");
      state.token = "";
      state.open = false;
      state.unread = 0;
      unmount();
      mount();
    },
  };

  window.chatwootSDK = {
    parley: true,
    run: (opts) => {
      if (state.frame) return;
      opts = opts || {};
      state.websiteToken = String(opts.websiteToken || "");
      state.base = String(opts.baseUrl || "").replace(/\/+$/, "");
      state.origin = new URL(state.base || location.origin, location.href).origin;
      state.settings = Object.assign(
        { position: "right", type: "standard", darkMode: "light" },
        window.chatwootSettings || {},
      );
      state.token = readToken(state.websiteToken);
      window.$chatwoot = api;
      window.addEventListener("message", onMessage);
      if (document.body) mount();
      else document.addEventListener("DOMContentLoaded", mount);
    },
  };
})();
