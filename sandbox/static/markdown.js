// Discord's message markdown, as far as a game bot uses it: bold, italics, underline, strike,
// spoilers, code, quotes, headings, "-#" small print, lists, links, mentions and timestamps.
// Everything is escaped first; only the markup below becomes HTML.

const JUMP = /^https:\/\/discord\.com\/channels\/(\d+|@me)\/(\d+)(?:\/(\d+))?/;

export function escapeHtml(text) {
  return String(text)
    .replaceAll("&", "&amp;")
    .replaceAll("<", "&lt;")
    .replaceAll(">", "&gt;")
    .replaceAll('"', "&quot;")
    .replaceAll("'", "&#39;");
}

// Only web links become links: a bot's message must not be able to run script in the page.
export function safeUrl(url) {
  return /^https?:\/\//i.test(String(url)) ? String(url) : "#";
}

// ctx: { userName(id), roleName(id), channelName(id), me }
export function renderMarkdown(text, ctx) {
  const parts = String(text).split(/```(?:[a-z0-9_+-]*\n)?([\s\S]*?)```/gi);
  let html = "";
  parts.forEach((part, index) => {
    if (index % 2 === 1) {
      html += `<pre class="code-block"><code>${escapeHtml(part.replace(/\n$/, ""))}</code></pre>`;
    } else if (part) {
      html += renderLines(part, ctx);
    }
  });
  return html;
}

function renderLines(text, ctx) {
  const lines = text.split("\n");
  // A code block's neighbours leave an empty first or last line behind: not a gap.
  if (lines.length > 1 && lines[0] === "") lines.shift();
  if (lines.length > 1 && lines.at(-1) === "") lines.pop();
  return lines.map((line) => renderLine(line, ctx)).join("");
}

function renderLine(line, ctx) {
  let match;
  if ((match = line.match(/^-# (.*)$/))) {
    return `<div class="md-subtext">${inline(match[1], ctx)}</div>`;
  }
  if ((match = line.match(/^(#{1,3}) (.*)$/))) {
    return `<div class="md-h${match[1].length}">${inline(match[2], ctx)}</div>`;
  }
  if ((match = line.match(/^>>?>? ?(.*)$/))) {
    return `<div class="md-quote">${inline(match[1], ctx) || "&nbsp;"}</div>`;
  }
  if ((match = line.match(/^(\s*)[-*] (.*)$/))) {
    const depth = Math.min(3, Math.floor(match[1].length / 2));
    return `<div class="md-li md-depth-${depth}">${inline(match[2], ctx)}</div>`;
  }
  if ((match = line.match(/^(\s*)(\d+)\. (.*)$/))) {
    return `<div class="md-li md-numbered" data-n="${match[2]}">${inline(match[3], ctx)}</div>`;
  }
  return line.trim() ? `<div class="md-line">${inline(line, ctx)}</div>` : `<div class="md-gap"></div>`;
}

const RULES = [
  [/`([^`]+)`/, (m) => `<code class="md-code">${escapeHtml(m[1])}</code>`],
  [/<@!?(\d+)>/, (m, ctx) => mention(`@${ctx.userName(m[1])}`, m[1] === ctx.me)],
  [/<@&(\d+)>/, (m, ctx) => mention(`@${ctx.roleName(m[1])}`, false)],
  [/<#(\d+)>/, (m, ctx) => channelChip(m[1], null, ctx)],
  [/<t:(-?\d+)(?::([tTdDfFR]))?>/, (m) => timestamp(Number(m[1]), m[2] || "f")],
  [/<a?:(\w+):(\d+)>/, (m) => `<span class="md-emoji">:${escapeHtml(m[1])}:</span>`],
  [/@(everyone|here)\b/, (m) => mention(`@${m[1]}`, false)],
  [/\[([^\]\n]+)\]\(<?(https?:\/\/[^\s)>]+)>?\)/, (m, ctx) => link(m[2], inline(m[1], ctx), ctx)],
  [/<?(https?:\/\/[^\s<>]*[^\s<>.,:;"')\]])>?/, (m, ctx) => link(m[1], escapeHtml(m[1]), ctx)],
  [/\*\*\*([\s\S]+?)\*\*\*/, (m, ctx) => `<strong><em>${inline(m[1], ctx)}</em></strong>`],
  [/\*\*([\s\S]+?)\*\*/, (m, ctx) => `<strong>${inline(m[1], ctx)}</strong>`],
  [/__([\s\S]+?)__/, (m, ctx) => `<u>${inline(m[1], ctx)}</u>`],
  [/\*([^*\s](?:[\s\S]*?[^*\s])?)\*/, (m, ctx) => `<em>${inline(m[1], ctx)}</em>`],
  [/\b_([^_]+)_\b/, (m, ctx) => `<em>${inline(m[1], ctx)}</em>`],
  [/~~([\s\S]+?)~~/, (m, ctx) => `<s>${inline(m[1], ctx)}</s>`],
  [/\|\|([\s\S]+?)\|\|/, (m, ctx) => `<span class="md-spoiler" tabindex="0">${inline(m[1], ctx)}</span>`],
  // Discord shows a backslash before any punctuation as that character alone.
  [/\\([^0-9A-Za-z\s])/, (m) => escapeHtml(m[1])],
  [/\p{Extended_Pictographic}\uFE0F?/u, (m) => emoji(m[0])],
];

// Words for the emoji the bot writes, shown where this machine has no font that draws them
// (an empty box says nothing). The emoji itself stays in the text, hidden, so that copying
// (and a test reading the page) still gets it.
const EMOJI_WORDS = {
  "🏁": "[end]", "🤖": "[AI]", "➡": "→", "💡": "[hint]", "🔎": "[review]", "🏆": "[cup]",
  "📊": "[chart]", "✅": "[ok]", "❌": "[x]", "🎲": "[dice]", "📄": "[file]", "🧩": "[puzzle]",
  // A tournament's podium.
  "🥇": "[1st]", "🥈": "[2nd]", "🥉": "[3rd]",
};
const drawable = new Map();

function emoji(text) {
  const bare = text.replace("\uFE0F", "");
  const words = EMOJI_WORDS[bare];
  if (!words || drawn(text)) return escapeHtml(text);
  return `<span class="md-uni-emoji" data-text="${escapeHtml(words)}"><span class="glyph">${escapeHtml(text)}</span></span>`;
}

// Whether a font here draws ``text``: its pixels differ from those of a code point no font
// has (the same empty box otherwise). Measured once per emoji.
function drawn(text) {
  if (drawable.has(text)) return drawable.get(text);
  let result = true;
  try {
    const canvas = document.createElement("canvas");
    canvas.width = canvas.height = 40;
    const context = canvas.getContext("2d", { willReadFrequently: true });
    const pixels = (sample) => {
      context.clearRect(0, 0, 40, 40);
      context.font = "28px sans-serif";
      context.textBaseline = "top";
      context.fillText(sample, 2, 2);
      return context.getImageData(0, 0, 40, 40).data.join(",");
    };
    result = pixels(text) !== pixels("\u{10FFFD}");
  } catch {
    result = true; // no canvas: leave the emoji alone
  }
  drawable.set(text, result);
  return result;
}

export function inline(text, ctx) {
  let html = "";
  let rest = text;
  while (rest) {
    let best = null;
    for (const [pattern, render] of RULES) {
      const match = pattern.exec(rest);
      if (match && (best === null || match.index < best.match.index)) {
        best = { match, render };
      }
    }
    if (best === null) {
      html += escapeHtml(rest);
      break;
    }
    html += escapeHtml(rest.slice(0, best.match.index));
    html += best.render(best.match, ctx);
    rest = rest.slice(best.match.index + best.match[0].length);
  }
  return html;
}

function mention(label, mine) {
  return `<span class="md-mention${mine ? " md-mention-me" : ""}">${escapeHtml(label)}</span>`;
}

function channelChip(channelId, messageId, ctx) {
  const name = ctx.channelName(channelId);
  const label = name ? `#${name}` : "#unknown";
  const target = messageId ? ` data-message="${escapeHtml(messageId)}"` : "";
  const tail = messageId ? ` <span class="md-jump-tail">› message</span>` : "";
  return `<a href="#" class="md-mention md-jump" data-channel="${escapeHtml(channelId)}"${target}>${escapeHtml(label)}${tail}</a>`;
}

function link(url, label, ctx) {
  const jump = url.match(JUMP);
  if (jump) return channelChip(jump[2], jump[3] || null, ctx);
  return `<a href="${escapeHtml(url)}" target="_blank" rel="noopener noreferrer">${label}</a>`;
}

function timestamp(seconds, style) {
  const date = new Date(seconds * 1000);
  let text;
  if (style === "R") {
    text = relative(seconds - Date.now() / 1000);
  } else {
    const options = {
      t: { timeStyle: "short" },
      T: { timeStyle: "medium" },
      d: { dateStyle: "short" },
      D: { dateStyle: "long" },
      f: { dateStyle: "long", timeStyle: "short" },
      F: { dateStyle: "full", timeStyle: "short" },
    }[style];
    text = new Intl.DateTimeFormat(undefined, options).format(date);
  }
  return `<time class="md-time" datetime="${date.toISOString()}" title="${escapeHtml(date.toLocaleString())}">${escapeHtml(text)}</time>`;
}

function relative(delta) {
  const format = new Intl.RelativeTimeFormat(undefined, { numeric: "auto" });
  const steps = [
    [60, "second", 1],
    [3600, "minute", 60],
    [86400, "hour", 3600],
    [2592000, "day", 86400],
    [31536000, "month", 2592000],
    [Infinity, "year", 31536000],
  ];
  for (const [limit, unit, size] of steps) {
    if (Math.abs(delta) < limit) return format.format(Math.round(delta / size), unit);
  }
  return "";
}
