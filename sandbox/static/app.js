// The sandbox page: one member's view of the emulated server, refreshed whenever the emulator
// says something changed (server-sent events), so it never needs a reload.

import { Composer } from "./composer.js";
import { escapeHtml } from "./markdown.js";
import { avatar, markPending, messageHtml } from "./messages.js";

const MEMBER_KEY = "tabula-sandbox-member";
const GROUP_SECONDS = 7 * 60;
const BURST_MS = 12;

const $ = (selector) => document.querySelector(selector);
const ui = {
  app: $("#app"),
  sidebar: $("#sidebar"),
  scrim: $("#scrim"),
  menu: $("#menu-button"),
  guild: $("#guild-name"),
  channels: $("#channel-list"),
  title: $("#chat-title"),
  switcher: $("#member-switcher"),
  banner: $("#status-banner"),
  messages: $("#messages"),
};

const page = {
  data: null,
  member: localStorage.getItem(MEMBER_KEY) || "",
  channel: channelFromHash(),
  loading: false,
  again: false,
  connected: true,
  pending: new Map(), // message id -> custom_id being clicked
  failed: new Map(), // message id -> "This interaction failed"
  dismissed: new Set(),
  rendered: new Map(), // message id -> signature of what is drawn
  highlight: null,
};

const composer = new Composer($("#composer"), () => page.data, sendText);

function channelFromHash() {
  const match = location.hash.match(/^#channel=(\d+)$/);
  return match ? match[1] : "";
}

// -- talking to the sandbox --------------------------------------------------------------------

async function refresh() {
  if (page.loading) {
    page.again = true;
    return;
  }
  page.loading = true;
  try {
    do {
      page.again = false;
      const query = new URLSearchParams({ member: page.member, channel: page.channel });
      const response = await fetch(`/sandbox/state?${query}`, { cache: "no-store" });
      if (!response.ok) throw new Error(`state: HTTP ${response.status}`);
      const data = await response.json();
      // A switch while this was on its way: draw the next answer instead.
      if (page.again) continue;
      page.data = data;
      page.member = data.me;
      page.channel = data.channel.id;
      render();
    } while (page.again);
  } catch (error) {
    showBanner(`The sandbox does not answer (${error.message}).`, "error");
  } finally {
    page.loading = false;
  }
}

async function post(path, body) {
  try {
    const response = await fetch(path, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify(body),
    });
    const result = await response.json().catch(() => ({ ok: false, error: `HTTP ${response.status}` }));
    return response.ok ? result : { ok: false, error: result.error || `HTTP ${response.status}` };
  } catch (error) {
    return { ok: false, error: "The sandbox does not answer." };
  }
}

async function sendText(text) {
  return post("/sandbox/send", { member: page.member, channel: page.channel, text });
}

async function click(messageId, customId, values) {
  page.pending.set(messageId, customId);
  const failedBefore = page.failed.delete(messageId);
  const element = ui.messages.querySelector(`[data-message-id="${messageId}"]`);
  if (element) markPending(element, customId);
  if (failedBefore) drawMessages();
  const result = await post("/sandbox/click", {
    member: page.member,
    message: messageId,
    custom_id: customId,
    values: values || null,
  });
  page.pending.delete(messageId);
  const now = ui.messages.querySelector(`[data-message-id="${messageId}"]`);
  if (now) markPending(now, null);
  if (!result.ok) {
    page.failed.set(messageId, result.failed || result.error || "This interaction failed");
    drawMessages();
  }
}

function listen() {
  const events = new EventSource("/sandbox/events");
  // The bot answers a click with a burst of requests a few ms apart: one fetch for the burst.
  let soon = null;
  events.onmessage = () => {
    if (soon === null) {
      soon = setTimeout(() => {
        soon = null;
        refresh();
      }, BURST_MS);
    }
  };
  events.onopen = () => {
    page.connected = true;
    refresh();
  };
  events.onerror = () => {
    page.connected = false;
    drawBanner();
  };
}

// -- drawing -------------------------------------------------------------------------------------

function context() {
  const data = page.data;
  const users = new Map(data.members.map((m) => [m.id, m.name]));
  return {
    me: data.me,
    members: data.members,
    channels: data.channels,
    roles: data.roles,
    userName: (id) => users.get(id) || "unknown-user",
    roleName: (id) => data.roles[id] || "unknown-role",
    channelName: (id) => data.channel_names[id] || "",
  };
}

function render() {
  const data = page.data;
  document.title = `${channelLabel(data.channel)} · Tabula sandbox`;
  ui.guild.textContent = data.guild.name;
  history.replaceState(null, "", `#channel=${data.channel.id}`);
  localStorage.setItem(MEMBER_KEY, data.me);
  drawChannels();
  drawHeader();
  drawBanner();
  drawMessages();
  composer.setPlaceholder(`Message ${data.channel.thread ? "" : "#"}${data.channel.name}`);
  composer.refresh();
}

function channelLabel(channel) {
  return channel.thread ? channel.name : `#${channel.name}`;
}

function drawChannels() {
  const data = page.data;
  let html = `<div class="channel-group">Text channels</div>`;
  for (const channel of data.channels) {
    html += channelLink(channel, `<span class="hash" aria-hidden="true">#</span>${escapeHtml(channel.name)}`, "channel");
    for (const thread of channel.threads) {
      html += channelLink(thread, `<span class="thread-spine" aria-hidden="true"></span>${escapeHtml(thread.name)}`, "thread");
    }
  }
  if (ui.channels.innerHTML !== html) ui.channels.innerHTML = html;
}

function channelLink(channel, label, kind) {
  const active = channel.id === page.channel ? " active" : "";
  const current = channel.id === page.channel ? ' aria-current="page"' : "";
  return (
    `<a href="#channel=${channel.id}" class="channel-link ${kind}${active}" data-channel="${channel.id}"` +
    ` data-channel-name="${escapeHtml(channel.name)}"${current}>${label}</a>`
  );
}

function drawHeader() {
  const data = page.data;
  const channel = data.channel;
  let title = "";
  if (channel.thread && channel.parent) {
    title =
      `<a href="#" class="header-parent" data-channel="${channel.parent.id}"><span class="hash">#</span>${escapeHtml(channel.parent.name)}</a>` +
      `<span class="header-sep" aria-hidden="true">›</span><span class="header-thread">${escapeHtml(channel.name)}</span>`;
  } else {
    title = `<span class="hash">#</span>${escapeHtml(channel.name)}`;
  }
  if (ui.title.innerHTML !== title) ui.title.innerHTML = title;
  const people = data.members.filter((m) => m.pretend);
  const html =
    `<span class="switcher-label">Playing as</span>` +
    people
      .map((m) => {
        const mine = m.id === data.me;
        return (
          `<button type="button" class="member${mine ? " active" : ""}" data-member="${m.id}" data-member-name="${escapeHtml(m.name)}"` +
          ` aria-pressed="${mine}" title="Play as ${escapeHtml(m.name)}">${avatar(m.name, false)}` +
          `<span class="member-name">${escapeHtml(m.name)}</span></button>`
        );
      })
      .join("");
  if (ui.switcher.innerHTML !== html) ui.switcher.innerHTML = html;
}

function drawBanner() {
  const data = page.data;
  if (!page.connected) {
    showBanner("The sandbox has stopped. Start it again with: tabula sandbox", "error");
  } else if (!data) {
    showBanner("Loading…", "info");
  } else if (data.bot.state === "starting") {
    showBanner(`${data.bot.name} is starting: its commands appear in a few seconds.`, "info");
  } else if (data.bot.state === "stopped") {
    showBanner(`${data.bot.name} has stopped (${data.bot.detail}).`, "error");
  } else {
    ui.banner.hidden = true;
  }
}

function showBanner(text, kind) {
  ui.banner.textContent = text;
  ui.banner.className = `status-banner ${kind}`;
  ui.banner.hidden = false;
}

function drawMessages() {
  const data = page.data;
  if (!data) return;
  const list = ui.messages;
  const nearBottom = list.scrollHeight - list.scrollTop - list.clientHeight < 120;
  const switched = list.dataset.showing !== data.channel.id;
  if (switched) {
    list.innerHTML = "";
    page.rendered.clear();
    list.dataset.showing = data.channel.id;
  }
  const ctx = context();
  const shown = data.messages.filter((m) => !page.dismissed.has(m.id));
  const keep = new Set(shown.map((m) => m.id));
  for (const element of [...list.children]) {
    if (!keep.has(element.dataset.messageId)) {
      page.rendered.delete(element.dataset.messageId);
      element.remove();
    }
  }
  let previous = null;
  let anchor = null;
  for (const message of shown) {
    const view = {
      grouped: groupedWith(previous, message),
      failed: page.failed.get(message.id) || null,
    };
    const signature = JSON.stringify([message, view]);
    let element = list.querySelector(`:scope > [data-message-id="${message.id}"]`);
    if (!element || page.rendered.get(message.id) !== signature) {
      const fresh = toElement(messageHtml(message, ctx, view));
      if (page.pending.has(message.id)) markPending(fresh, page.pending.get(message.id));
      if (element) element.replaceWith(fresh);
      element = fresh;
      page.rendered.set(message.id, signature);
    }
    const wanted = anchor ? anchor.nextElementSibling : list.firstElementChild;
    if (wanted !== element) list.insertBefore(element, wanted);
    anchor = element;
    previous = message;
  }
  if (!shown.length) {
    list.innerHTML = `<div class="empty-channel">No messages yet. Type <kbd>/</kbd> to see ${escapeHtml(data.bot.name)}'s commands, for example <code>/play game:ur difficulty:easy</code>.</div>`;
    page.rendered.clear();
  } else {
    const empty = list.querySelector(".empty-channel");
    if (empty) empty.remove();
  }
  if (page.highlight && keep.has(page.highlight)) {
    const target = list.querySelector(`[data-message-id="${page.highlight}"]`);
    target.classList.add("highlight");
    // The newest message (a game's board, usually) is shown whole, down to its buttons.
    if (target === list.lastElementChild) list.scrollTop = list.scrollHeight;
    else target.scrollIntoView({ block: "center" });
    page.highlight = null;
  } else if (switched || nearBottom) {
    list.scrollTop = list.scrollHeight;
  }
}

function groupedWith(previous, message) {
  if (!previous || previous.author.id !== message.author.id) return false;
  if (previous.kind === "thread_created" || message.kind === "thread_created") return false;
  if (message.interaction && message.interaction.command) return false;
  if (previous.ephemeral !== message.ephemeral) return false;
  const gap = (new Date(message.timestamp) - new Date(previous.timestamp)) / 1000;
  return gap >= 0 && gap < GROUP_SECONDS;
}

function toElement(html) {
  const template = document.createElement("template");
  template.innerHTML = html;
  return template.content.firstElementChild;
}

// -- acting --------------------------------------------------------------------------------------

function openChannel(id, messageId) {
  page.channel = id;
  page.highlight = messageId || null;
  closeDrawer();
  refresh();
}

function switchMember(id) {
  if (id === page.member) return;
  page.member = id;
  page.pending.clear();
  page.failed.clear();
  refresh();
}

function closeDrawer() {
  ui.app.classList.remove("drawer-open");
  ui.scrim.hidden = true;
  ui.menu.setAttribute("aria-expanded", "false");
}

document.addEventListener("click", (event) => {
  const link = event.target.closest("[data-channel]");
  if (link) {
    event.preventDefault();
    openChannel(link.dataset.channel, link.dataset.message);
    return;
  }
  const member = event.target.closest("[data-member]");
  if (member) {
    switchMember(member.dataset.member);
    return;
  }
  const dismiss = event.target.closest("[data-dismiss]");
  if (dismiss) {
    page.dismissed.add(dismiss.dataset.dismiss);
    drawMessages();
    return;
  }
  const button = event.target.closest("button[data-custom-id]");
  if (button && !button.disabled) {
    const message = button.closest("[data-message-id]");
    click(message.dataset.messageId, button.dataset.customId);
  }
});

document.addEventListener("change", (event) => {
  const select = event.target.closest("select[data-custom-id]");
  if (select && select.value) {
    const message = select.closest("[data-message-id]");
    click(message.dataset.messageId, select.dataset.customId, [select.value]);
  }
});

ui.menu.addEventListener("click", () => {
  const open = !ui.app.classList.contains("drawer-open");
  ui.app.classList.toggle("drawer-open", open);
  ui.scrim.hidden = !open;
  ui.menu.setAttribute("aria-expanded", String(open));
});
ui.scrim.addEventListener("click", closeDrawer);
window.addEventListener("hashchange", () => {
  const id = channelFromHash();
  if (id && id !== page.channel) openChannel(id);
});

drawBanner();
listen();
refresh();
