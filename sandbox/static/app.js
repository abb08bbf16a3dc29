// The sandbox page: one member's view of the emulated server, refreshed whenever the emulator
// says something changed (server-sent events), so it never needs a reload. It follows the
// conversation while the member is at its end (pictures included, once they load), loads older
// messages when scrolled to the top, and shows the forms (modals) the bot answers with.

import { Composer } from "./composer.js";
import { escapeHtml } from "./markdown.js";
import { avatar, markPending, messageHtml } from "./messages.js";
import { LocalePicker } from "./locale.js";
import { ModalDialog } from "./modal.js";

const MEMBER_KEY = "tabula-sandbox-member";
const GROUP_SECONDS = 7 * 60;
const BURST_MS = 12;
// Within this many pixels of the end, the member is following the conversation.
const FOLLOW_PX = 48;
// This near the top, the older messages are loaded.
const OLDER_PX = 120;

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
  input: $("#message-input"),
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
  from: null, // the oldest message shown once older ones were loaded; null: the newest only
  back: false, // the next state asks for older messages too
  keepBottom: null, // distance from the end to keep while older messages are put above
  stick: true, // at the end of the conversation: new messages and pictures keep it in view
};

const composer = new Composer($("#composer"), () => page.data, sendText, suggestFor);
const dialog = new ModalDialog($("#modal-layer"), submitModal);
const locale = new LocalePicker(ui.switcher, () => refresh());

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
      const back = page.back;
      const query = new URLSearchParams({ member: page.member, channel: page.channel });
      if (page.from) query.set("from", page.from);
      if (back) query.set("back", "1");
      const response = await fetch(`/sandbox/state?${query}`, { cache: "no-store" });
      if (!response.ok) throw new Error(`state: HTTP ${response.status}`);
      const data = await response.json();
      // A switch while this was on its way: draw the next answer instead.
      if (page.again) continue;
      if (data.channel.id !== page.channel || data.me !== page.member) page.from = null;
      if (back) {
        page.back = false;
        // From now on the window starts there, however many messages come after.
        if (data.channel.id === page.channel && data.messages.length) page.from = data.messages[0].id;
      }
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
  // Whoever writes is taken to the end of the conversation, where the answer will be.
  page.stick = true;
  scrollToEnd();
  const result = await post("/sandbox/send", { member: page.member, channel: page.channel, text });
  if (result.ok && result.modal) dialog.show(result.modal, context());
  return result;
}

// The bot's suggestions for the option being typed (its autocomplete); [] when none.
async function suggestFor(text, option) {
  const result = await post("/sandbox/autocomplete", { member: page.member, channel: page.channel, text, option });
  return result.choices || [];
}

async function submitModal(interactionId, values) {
  const result = await post("/sandbox/modal", { member: page.member, interaction: interactionId, values });
  // The bot may answer a form with another form: it replaces this one once this one closes.
  if (result.ok && result.modal) setTimeout(() => dialog.show(result.modal, context()), 0);
  return result;
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
  if (result.ok && result.modal) dialog.show(result.modal, context());
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
  if (data.channel.bot_dm) {
    composer.setPlaceholder(`${data.bot.name} writes to you here; it reads no direct messages`);
    composer.setEnabled(false);
  } else {
    composer.setPlaceholder(`Message ${channelLabel(data.channel)}`);
    composer.setEnabled(true);
  }
  composer.refresh();
}

function channelLabel(channel) {
  if (channel.bot_dm) return `@${channel.name}`;
  return channel.thread || channel.private ? channel.name : `#${channel.name}`;
}

function drawChannels() {
  const data = page.data;
  let html = `<div class="channel-group">Text channels</div>`;
  for (const channel of data.channels) {
    html += channelLink(channel, `<span class="hash" aria-hidden="true">#</span>${escapeHtml(channel.name)}`, "channel");
    for (const thread of channel.threads) {
      html += channelLink(thread, `<span class="thread-spine" aria-hidden="true"></span><span class="channel-name">${escapeHtml(thread.name)}</span>`, "thread");
    }
  }
  // Each member's direct messages: the bot's DM to them (Follow notices) once it wrote, and
  // the DMs and group DMs where the app installed on their account plays.
  html += `<div class="channel-group">Direct messages</div>`;
  for (const dm of data.direct) {
    const count = dm.count ? `<span class="dm-count" title="${dm.count} messages">${dm.count}</span>` : "";
    html += channelLink(dm, `${avatar(dm.name, dm.bot, "avatar-small")}<span class="channel-name">${escapeHtml(dm.name)}</span>${count}`, "dm");
  }
  if (!data.direct.length) html += `<div class="dm-empty">None yet</div>`;
  if (ui.channels.innerHTML !== html) ui.channels.innerHTML = html;
}

function channelLink(channel, label, kind) {
  const active = channel.id === page.channel ? " active" : "";
  const current = channel.id === page.channel ? ' aria-current="page"' : "";
  // The whole name on hover, where the list is too narrow for it.
  return (
    `<a href="#channel=${channel.id}" class="channel-link ${kind}${active}" data-channel="${channel.id}"` +
    ` data-channel-name="${escapeHtml(channel.name)}" title="${escapeHtml(channel.name)}"${current}>${label}</a>`
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
  } else if (channel.bot_dm) {
    title = `<span class="hash">@</span>${escapeHtml(channel.name)}`;
  } else if (channel.private) {
    title = `<span class="header-dm">${escapeHtml(channel.name)}</span>`;
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
  locale.draw(data);
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
  const switched = list.dataset.showing !== data.channel.id;
  if (switched) {
    list.innerHTML = "";
    page.rendered.clear();
    list.dataset.showing = data.channel.id;
    page.stick = true;
    page.keepBottom = null;
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
  if (!shown.length && data.channel.bot_dm) {
    list.innerHTML = `<div class="empty-channel">${escapeHtml(data.bot.name)} has written nothing to you yet.</div>`;
    page.rendered.clear();
  } else if (!shown.length) {
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
  } else if (page.keepBottom !== null) {
    // Older messages went in above: what was on screen stays where it was.
    list.scrollTop = list.scrollHeight - page.keepBottom;
    page.keepBottom = null;
  } else if (switched || page.stick) {
    scrollToEnd();
  }
  list.dataset.older = String(Boolean(data.older));
}

function scrollToEnd() {
  ui.messages.scrollTop = ui.messages.scrollHeight;
}

function loadOlder() {
  if (!page.data || !page.data.older || page.back) return;
  page.back = true;
  page.keepBottom = ui.messages.scrollHeight - ui.messages.scrollTop;
  refresh();
}

ui.messages.addEventListener(
  "scroll",
  () => {
    const list = ui.messages;
    page.stick = list.scrollHeight - list.scrollTop - list.clientHeight < FOLLOW_PX;
    if (list.scrollTop < OLDER_PX) loadOlder();
  },
  { passive: true },
);
// A picture that loads makes its message taller after it was drawn: still at the end.
ui.messages.addEventListener(
  "load",
  (event) => {
    if (event.target.tagName === "IMG" && page.stick) scrollToEnd();
  },
  true,
);

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
  if (id !== page.channel) page.from = null;
  page.channel = id;
  page.highlight = messageId || null;
  closeDrawer();
  refresh();
}

function switchMember(id) {
  if (id === page.member) return;
  page.member = id;
  page.from = null;
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
