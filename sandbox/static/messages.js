// One message as Discord draws it: author line, text, embeds, files, components, and the
// private-reply footer. Returns plain HTML strings; app.js patches the list by message id.

import { escapeHtml, renderMarkdown, safeUrl } from "./markdown.js";

const BUTTON_STYLES = { 1: "primary", 2: "secondary", 3: "success", 4: "danger", 5: "link", 6: "premium" };
const SELECT_TYPES = new Set([3, 5, 6, 7, 8]);
const AVATAR_COLOURS = ["#3ba55c", "#faa61a", "#ed4245", "#eb459e", "#757e8a", "#00a8fc"];
// Drawn rather than emoji: not every system has an emoji font.
const EYE_ICON =
  '<svg class="icon" viewBox="0 0 24 24" aria-hidden="true"><path fill="currentColor" d="M12 5C5.6 5 2 12 2 12s3.6 7 10 7 10-7 10-7-3.6-7-10-7Zm0 11a4 4 0 1 1 0-8 4 4 0 0 1 0 8Zm0-2a2 2 0 1 0 0-4 2 2 0 0 0 0 4Z"/></svg>';
export const THREAD_ICON =
  '<svg class="icon" viewBox="0 0 24 24" aria-hidden="true"><path fill="currentColor" d="M5 4h14a2 2 0 0 1 2 2v8a2 2 0 0 1-2 2h-7l-5 4v-4H5a2 2 0 0 1-2-2V6a2 2 0 0 1 2-2Zm2 4v2h10V8H7Zm0 4v2h6v-2H7Z"/></svg>';

// A member keeps one colour, whatever ids this run of the sandbox gave out.
export function avatarColour(name, bot) {
  if (bot) return "#5865f2";
  let hash = 0;
  for (const char of String(name)) hash = (hash * 31 + char.charCodeAt(0)) % 9973;
  return AVATAR_COLOURS[hash % AVATAR_COLOURS.length];
}

export function avatar(name, bot, extra = "") {
  const initial = escapeHtml((name || "?").slice(0, 1).toUpperCase());
  return `<span class="avatar ${extra}" style="background:${avatarColour(name, bot)}" aria-hidden="true">${initial}</span>`;
}

function clock(iso) {
  const date = new Date(iso);
  const time = date.toLocaleTimeString(undefined, { hour: "2-digit", minute: "2-digit" });
  const today = new Date().toDateString() === date.toDateString();
  return today ? `Today at ${time}` : `${date.toLocaleDateString()} ${time}`;
}

// view: { grouped, failed (text or null) }; a click under way is shown by markPending.
export function messageHtml(message, ctx, view) {
  if (message.kind === "thread_created") return threadCreatedHtml(message, ctx);
  const classes = ["message"];
  if (view.grouped) classes.push("grouped");
  if (message.ephemeral) classes.push("ephemeral");
  if (message.mentions_me) classes.push("mentioned");
  const author = message.author;
  const head = view.grouped
    ? `<span class="gutter-time">${escapeHtml(shortTime(message.timestamp))}</span>`
    : avatar(author.name, author.bot);
  const header = view.grouped
    ? ""
    : `<header class="message-header"><span class="author" style="color:${author.bot ? "#fff" : avatarColour(author.name, false)}">${escapeHtml(author.name)}</span>` +
      (author.bot ? `<span class="app-tag">APP</span>` : "") +
      `<time class="message-time" datetime="${escapeHtml(message.timestamp)}">${escapeHtml(clock(message.timestamp))}</time></header>`;
  return (
    `<article class="${classes.join(" ")}" data-message-id="${escapeHtml(message.id)}">` +
    interactionLine(message, ctx) +
    replyLine(message, ctx) +
    `<div class="message-row">${head}<div class="message-body">${header}` +
    contentHtml(message, ctx) +
    message.embeds.map((embed) => embedHtml(embed, ctx)).join("") +
    attachmentsHtml(message) +
    componentsHtml(message.components, ctx) +
    threadChip(message) +
    (view.failed ? `<div class="interaction-failed" role="alert">${escapeHtml(view.failed)}</div>` : "") +
    (message.ephemeral
      ? `<div class="ephemeral-note">${EYE_ICON} Only you can see this · <button type="button" class="dismiss" data-dismiss="${escapeHtml(message.id)}">Dismiss message</button></div>`
      : "") +
    `</div></div></article>`
  );
}

function shortTime(iso) {
  return new Date(iso).toLocaleTimeString(undefined, { hour: "2-digit", minute: "2-digit" });
}

function threadCreatedHtml(message, ctx) {
  const threadId = message.reference ? message.reference.channel_id : "";
  return (
    `<article class="message system" data-message-id="${escapeHtml(message.id)}">` +
    `<span class="system-icon">${THREAD_ICON}</span>` +
    `<span><strong>${escapeHtml(message.author.name)}</strong> started a thread: ` +
    `<a href="#" class="thread-link" data-channel="${escapeHtml(threadId)}">${escapeHtml(message.content)}</a>` +
    ` <time class="message-time">${escapeHtml(clock(message.timestamp))}</time></span></article>`
  );
}

function interactionLine(message, ctx) {
  const ix = message.interaction;
  if (!ix || !ix.command) return "";
  return (
    `<div class="interaction-line"><span class="reply-spine" aria-hidden="true"></span>` +
    avatar(ix.user, false, "avatar-tiny") +
    `<span class="ix-user">${escapeHtml(ix.user)}</span> used <span class="ix-command">/${escapeHtml(ix.command)}</span></div>`
  );
}

function replyLine(message, ctx) {
  const ref = message.reference;
  if (message.kind !== "reply" || !ref) return "";
  const text = ref.author
    ? `<span class="ix-user">@${escapeHtml(ref.author)}</span> ${escapeHtml(ref.content || "")}`
    : `<em>Original message was deleted</em>`;
  return `<div class="interaction-line"><span class="reply-spine" aria-hidden="true"></span>${text}</div>`;
}

function contentHtml(message, ctx) {
  if (message.loading) {
    return `<div class="content thinking">${escapeHtml(message.author.name)} is thinking<span class="dots"><span>.</span><span>.</span><span>.</span></span></div>`;
  }
  if (!message.content) return "";
  let html = renderMarkdown(message.content, ctx);
  if (message.edited) {
    // "(edited)" ends the last line, as in Discord, rather than taking a line of its own.
    const mark = `<span class="edited">(edited)</span>`;
    html = html.endsWith("</div>") ? `${html.slice(0, -6)}${mark}</div>` : html + mark;
  }
  return `<div class="content">${html}</div>`;
}

function colour(value) {
  return value ? `#${Number(value).toString(16).padStart(6, "0")}` : "#1e1f22";
}

function embedHtml(embed, ctx) {
  let html = `<div class="embed" style="border-left-color:${colour(embed.color)}"><div class="embed-main">`;
  if (embed.author && embed.author.name) {
    html += `<div class="embed-author">${escapeHtml(embed.author.name)}</div>`;
  }
  if (embed.title) {
    const title = renderInline(embed.title, ctx);
    html += embed.url
      ? `<a class="embed-title" href="${escapeHtml(safeUrl(embed.url))}" target="_blank" rel="noopener noreferrer">${title}</a>`
      : `<div class="embed-title">${title}</div>`;
  }
  if (embed.description) {
    html += `<div class="embed-description">${renderMarkdown(embed.description, ctx)}</div>`;
  }
  if (embed.fields && embed.fields.length) {
    html += `<div class="embed-fields">`;
    for (const field of embed.fields) {
      html +=
        `<div class="embed-field${field.inline ? " inline" : ""}">` +
        `<div class="embed-field-name">${renderInline(field.name, ctx)}</div>` +
        `<div class="embed-field-value">${renderMarkdown(field.value, ctx)}</div></div>`;
    }
    html += `</div>`;
  }
  if (embed.image && embed.image.url) html += imageHtml(embed.image, "embed-image");
  if (embed.footer && embed.footer.text) {
    html += `<div class="embed-footer">${escapeHtml(embed.footer.text)}</div>`;
  }
  html += `</div>`;
  if (embed.thumbnail && embed.thumbnail.url) html += imageHtml(embed.thumbnail, "embed-thumbnail");
  return html + `</div>`;
}

function renderInline(text, ctx) {
  return renderMarkdown(text, ctx).replace(/^<div class="md-line">([\s\S]*)<\/div>$/, "$1");
}

function imageHtml(image, className, alt = "") {
  const size = image.width && image.height ? ` width="${image.width}" height="${image.height}"` : "";
  return `<img class="${className}" src="${escapeHtml(image.url)}" alt="${escapeHtml(alt || "")}"${size} loading="lazy">`;
}

function attachmentsHtml(message) {
  if (!message.attachments.length) return "";
  const items = message.attachments.map((file) =>
    file.image
      ? `<a class="attachment-image" href="${escapeHtml(file.url)}" target="_blank" rel="noopener">` +
        `<img src="${escapeHtml(file.url)}" alt="${escapeHtml(file.filename)}" width="${file.width || 400}" height="${file.height || 300}"></a>`
      : `<a class="attachment-file" href="${escapeHtml(file.url)}" download="${escapeHtml(file.filename)}">&#128196; ${escapeHtml(file.filename)}</a>`,
  );
  return `<div class="attachments">${items.join("")}</div>`;
}

function emojiHtml(emoji) {
  if (!emoji) return "";
  const text = emoji.id ? `:${emoji.name}:` : emoji.name;
  return `<span class="button-emoji">${escapeHtml(text || "")}</span>`;
}

// While a click waits for the bot's answer, Discord's client locks the message's components
// and spins on the one clicked. Done on the drawn elements, so the picture is not redrawn.
export function markPending(element, customId) {
  for (const control of element.querySelectorAll("[data-custom-id]")) {
    const busy = customId !== null && control.dataset.customId === customId;
    control.disabled = customId !== null || control.hasAttribute("aria-disabled");
    control.classList.toggle("busy", busy);
    const spinner = control.querySelector(".spinner");
    if (busy && !spinner) control.insertAdjacentHTML("beforeend", `<span class="spinner" aria-label="waiting"></span>`);
    if (!busy && spinner) spinner.remove();
  }
}

export function componentsHtml(components, ctx) {
  if (!components || !components.length) return "";
  return `<div class="components">${components.map((c) => componentHtml(c, ctx)).join("")}</div>`;
}

function componentHtml(component, ctx) {
  switch (component.type) {
    case 1:
      return `<div class="action-row">${(component.components || []).map((c) => componentHtml(c, ctx)).join("")}</div>`;
    case 2:
      return buttonHtml(component);
    case 9: // section: text beside a button or thumbnail
      return (
        `<div class="v2-section"><div class="v2-section-text">${(component.components || []).map((c) => componentHtml(c, ctx)).join("")}</div>` +
        (component.accessory ? componentHtml(component.accessory, ctx) : "") +
        `</div>`
      );
    case 10:
      return `<div class="v2-text">${renderMarkdown(component.content || "", ctx)}</div>`;
    case 11:
      return component.media ? imageHtml(component.media, "v2-thumbnail") : "";
    case 12:
      // The item's description is the image's alt text, as Discord's client uses it.
      return `<div class="v2-gallery">${(component.items || []).map((item) => imageHtml(item.media || {}, "v2-media", item.description)).join("")}</div>`;
    case 14:
      return `<hr class="v2-separator">`;
    case 17: {
      const accent = component.accent_color ? ` style="border-left-color:${colour(component.accent_color)}"` : "";
      return `<div class="v2-container"${accent}>${(component.components || []).map((c) => componentHtml(c, ctx)).join("")}</div>`;
    }
    default:
      return SELECT_TYPES.has(component.type) ? selectHtml(component, ctx) : "";
  }
}

function buttonHtml(button) {
  const style = BUTTON_STYLES[button.style] || "secondary";
  const label = emojiHtml(button.emoji) + (button.label ? `<span class="button-label">${escapeHtml(button.label)}</span>` : "");
  if (button.style === 5) {
    return `<a class="button button-link" href="${escapeHtml(safeUrl(button.url))}" target="_blank" rel="noopener noreferrer">${label}<span aria-hidden="true"> &#8599;</span></a>`;
  }
  const disabled = button.disabled ? ' disabled aria-disabled="true"' : "";
  return (
    `<button type="button" class="button button-${style}" data-custom-id="${escapeHtml(button.custom_id || "")}"` +
    `${disabled}>${label}</button>`
  );
}

function selectHtml(select, ctx) {
  let options;
  if (select.type === 3) {
    options = (select.options || []).map((o) => [o.value, o.label]);
  } else if (select.type === 5) {
    options = ctx.members.map((m) => [m.id, m.name]);
  } else if (select.type === 8) {
    options = ctx.channels.map((c) => [c.id, `#${c.name}`]);
  } else {
    options = Object.entries(ctx.roles).map(([id, name]) => [id, name]);
  }
  const disabled = select.disabled ? ' disabled aria-disabled="true"' : "";
  const placeholder = `<option value="" selected disabled>${escapeHtml(select.placeholder || "Make a selection")}</option>`;
  return (
    `<select class="select" data-custom-id="${escapeHtml(select.custom_id)}"${disabled}>${placeholder}` +
    options.map(([value, label]) => `<option value="${escapeHtml(value)}">${escapeHtml(label)}</option>`).join("") +
    `</select>`
  );
}

function threadChip(message) {
  if (!message.thread) return "";
  return `<a href="#" class="thread-chip" data-channel="${escapeHtml(message.thread.id)}">${THREAD_ICON} ${escapeHtml(message.thread.name)}</a>`;
}
