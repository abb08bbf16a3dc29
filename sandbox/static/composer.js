// The message box. A line starting with "/" is a slash command: the box offers the bot's
// commands, then their options, then each option's values (choices, members, channels), as
// Discord's box does; an option with autocomplete shows the bot's own suggestions (the
// sandbox asks the bot with an APPLICATION_COMMAND_AUTOCOMPLETE interaction as Discord does).
// Enter sends the line once nothing it offers is still needed; the server reads the line again
// (sandbox/command_line.py) and reports mistakes.

import { escapeHtml } from "./markdown.js";

const SUBCOMMAND = 1;
const GROUP = 2;
const USER = 6;
const CHANNEL = 7;
const BOOLEAN = 5;
const MENTIONABLE = 9;
const LIMIT = 25;

export class Composer {
  // data(): the latest page state; send(text): a promise of {ok, error, failed};
  // suggest(text, option): a promise of the bot's choices [{name, value}] for the option
  constructor(form, data, send, suggest) {
    this.form = form;
    this.input = form.querySelector("#message-input");
    this.box = form.querySelector("#suggestions");
    this.errorBox = form.querySelector("#composer-error");
    this.data = data;
    this.sendText = send;
    this.askBot = suggest;
    this.asked = new Map(); // line typed + option -> the bot's choices (null: on its way)
    this.items = [];
    this.active = 0;
    this.chosen = false; // the person moved through the list: Enter takes the item
    this.busy = false;
    this.input.addEventListener("input", () => {
      this.chosen = false;
      this.showError("");
      this.suggest();
    });
    this.input.addEventListener("focus", () => this.suggest());
    this.input.addEventListener("blur", () => setTimeout(() => this.hide(), 150));
    this.input.addEventListener("keydown", (event) => this.onKey(event));
    form.addEventListener("submit", (event) => {
      event.preventDefault();
      this.submit();
    });
    this.box.addEventListener("mousedown", (event) => event.preventDefault());
    this.box.addEventListener("click", (event) => {
      const item = event.target.closest("[data-index]");
      if (item) this.accept(Number(item.dataset.index));
    });
  }

  setPlaceholder(text) {
    this.input.placeholder = text;
  }

  setEnabled(enabled) {
    this.input.disabled = !enabled;
    if (!enabled) this.hide();
  }

  refresh() {
    if (document.activeElement === this.input) this.suggest();
  }

  onKey(event) {
    const open = !this.box.hidden && this.items.length > 0;
    if (event.key === "ArrowDown" && open) {
      event.preventDefault();
      this.move(1);
    } else if (event.key === "ArrowUp" && open) {
      event.preventDefault();
      this.move(-1);
    } else if (event.key === "Tab" && open) {
      event.preventDefault();
      this.accept(this.active);
    } else if (event.key === "Escape") {
      this.hide();
    } else if (event.key === "Enter") {
      event.preventDefault();
      if (open && (this.chosen || this.needsMore())) {
        this.accept(this.active);
      } else {
        this.submit();
      }
    }
  }

  move(step) {
    this.chosen = true;
    this.active = (this.active + step + this.items.length) % this.items.length;
    this.draw();
  }

  async submit() {
    const text = this.input.value.trim();
    if (!text || this.busy) return;
    this.busy = true;
    this.hide();
    try {
      const result = await this.sendText(text);
      if (result.ok) {
        this.input.value = "";
        this.asked.clear();
        this.showError("");
      } else {
        this.showError(result.error || result.failed || "That did not work.");
      }
    } finally {
      this.busy = false;
    }
  }

  showError(text) {
    this.errorBox.textContent = text;
    this.errorBox.hidden = !text;
  }

  hide() {
    this.box.hidden = true;
    this.items = [];
  }

  // -- reading the line ----------------------------------------------------------------------

  commands() {
    const data = this.data();
    return data ? data.commands : [];
  }

  // The command, its option list, the options named so far, the positional words, the token
  // being typed; null when the line is not a command of the bot.
  read() {
    const text = this.input.value;
    if (!text.startsWith("/")) return null;
    const tokenStart = text.lastIndexOf(" ") + 1;
    const token = text.slice(tokenStart);
    const words = text.slice(1).split(" ");
    if (words.length === 1) return { stage: "command", token: words[0], tokenStart: 1 };
    const command = this.commands().find((c) => c.name === words[0].toLowerCase());
    if (!command) return null;
    let options = command.options || [];
    let index = 1;
    while (options.some((o) => o.type === SUBCOMMAND || o.type === GROUP)) {
      if (index === words.length - 1) {
        return { stage: "subcommand", token, tokenStart, options };
      }
      const sub = options.find((o) => o.name === words[index].toLowerCase());
      if (!sub) return null;
      options = sub.options || [];
      index += 1;
    }
    const rest = words.slice(index).join(" ");
    const named = new Set();
    const marker = new RegExp(`(?:^|\\s)(${options.map((o) => escapeRegExp(o.name)).join("|") || "(?!)"}):`, "gi");
    let first = rest.length;
    for (const match of rest.matchAll(marker)) {
      named.add(match[1].toLowerCase());
      first = Math.min(first, match.index);
    }
    const before = rest.slice(0, first).trim();
    const positional = before ? before.split(/\s+/).length : 0;
    const free = options.filter((o) => !named.has(o.name));
    const filled = new Set([...named, ...free.slice(0, positional).map((o) => o.name)]);
    // The token being typed is not filled yet.
    const option = token.match(/^([\w-]+):(.*)$/);
    if (option && !token.includes(" ")) {
      const spec = options.find((o) => o.name === option[1].toLowerCase());
      if (spec) return { stage: "value", spec, value: option[2], token, tokenStart, options, filled };
    }
    if (token && !option && first === rest.length && positional > 0) {
      filled.delete(free[positional - 1] ? free[positional - 1].name : "");
    }
    return { stage: "option", token: option ? "" : token, tokenStart, options, filled };
  }

  missingRequired(read) {
    return read.options.filter((o) => o.required && !read.filled.has(o.name));
  }

  // Enter takes the offered item (rather than sending) while the line still needs it.
  needsMore() {
    const read = this.read();
    if (!read) return false;
    if (read.stage === "command") return !this.commands().some((c) => c.name === read.token.toLowerCase());
    if (read.stage === "subcommand") return true;
    if (read.stage === "value") {
      const values = this.values(read.spec, "");
      if (!read.value) return true;
      if (values === null) return false; // free text or a number: anything typed will do
      return !values.some((v) => v.value.toLowerCase() === read.value.toLowerCase());
    }
    return !read.token && this.missingRequired(read).length > 0;
  }

  // -- offering ------------------------------------------------------------------------------

  suggest() {
    const read = this.read();
    this.items = read ? this.itemsFor(read) : [];
    if (!this.items.length) {
      this.hide();
      return;
    }
    this.active = Math.min(this.active, this.items.length - 1);
    if (!this.chosen) this.active = 0;
    this.draw();
  }

  itemsFor(read) {
    if (read.stage === "command") {
      const prefix = read.token.toLowerCase();
      return this.commands()
        .filter((c) => c.name.startsWith(prefix))
        .map((c) => ({ title: `/${c.name}`, detail: c.description, insert: `${c.name} `, command: c }));
    }
    if (read.stage === "subcommand") {
      return read.options
        .filter((o) => o.name.startsWith(read.token.toLowerCase()))
        .map((o) => ({ title: o.name, detail: o.description, insert: `${o.name} ` }));
    }
    if (read.stage === "value") {
      const values = this.values(read.spec, read.value) || [];
      return values.map((v) => ({
        title: v.label,
        detail: read.spec.name,
        insert: `${read.spec.name}:${v.value} `,
        after: read,
      }));
    }
    const prefix = read.token.toLowerCase();
    const open = read.options.filter((o) => !read.filled.has(o.name) && o.name.startsWith(prefix));
    open.sort((a, b) => Number(Boolean(b.required)) - Number(Boolean(a.required)));
    return open.map((o) => ({
      title: `${o.name}:`,
      detail: o.description + (o.required ? " (required)" : ""),
      insert: `${o.name}:`,
      option: o,
    }));
  }

  // What an option takes, filtered by what is typed; null when it is free text or a number
  // (or the bot's suggestions are still on their way).
  values(spec, typed) {
    const data = this.data();
    const wanted = typed.toLowerCase().replace(/^[@#]/, "");
    let values = null;
    if (spec.autocomplete) {
      // The bot filters its suggestions by what is typed itself.
      const choices = this.botChoices(spec);
      if (choices === null) return null;
      return choices.slice(0, LIMIT).map((c) => ({ value: String(c.value), label: c.name, match: String(c.value) }));
    }
    if (spec.choices && spec.choices.length) {
      values = spec.choices.map((c) => ({ value: String(c.value), label: c.name, match: `${c.name} ${c.value}` }));
    } else if (spec.type === USER || spec.type === MENTIONABLE) {
      values = data.members.map((m) => ({
        value: `@${m.name}`,
        label: `@${m.name}${m.id === data.me ? " (you)" : ""}${m.bot ? " · bot" : ""}`,
        match: m.name,
      }));
    } else if (spec.type === CHANNEL) {
      values = data.channels.map((c) => ({ value: `#${c.name}`, label: `#${c.name}`, match: c.name }));
    } else if (spec.type === BOOLEAN) {
      values = ["True", "False"].map((v) => ({ value: v, label: v, match: v }));
    }
    if (values === null) return null;
    return values.filter((v) => v.match.toLowerCase().split(" ").some((w) => w.startsWith(wanted))).slice(0, LIMIT);
  }

  // The bot's suggestions for ``spec`` on the line as typed now; null until they arrive (the
  // list is drawn again then, if the line is still the same).
  botChoices(spec) {
    const text = this.input.value;
    const key = `${spec.name}\n${text}`;
    if (this.asked.has(key)) return this.asked.get(key);
    this.asked.set(key, null);
    if (this.asked.size > 200) this.asked.delete(this.asked.keys().next().value);
    this.askBot(text, spec.name).then((choices) => {
      this.asked.set(key, choices);
      if (this.input.value === text && document.activeElement === this.input) this.suggest();
    });
    return null;
  }

  accept(index) {
    const item = this.items[index];
    if (!item) return;
    const text = this.input.value;
    const read = this.read();
    const start = read ? read.tokenStart : text.length;
    let line = text.slice(0, start) + item.insert;
    // After a command or a value, go straight to the next required option, as Discord does.
    const next = this.nextRequired(line);
    if (next && !item.option) line += `${next}:`;
    this.input.value = line;
    this.chosen = false;
    this.input.focus();
    this.input.setSelectionRange(line.length, line.length);
    this.suggest();
  }

  nextRequired(line) {
    const saved = this.input.value;
    this.input.value = line;
    const read = this.read();
    this.input.value = saved;
    if (!read || read.stage !== "option" || read.token) return null;
    const missing = this.missingRequired(read);
    return missing.length ? missing[0].name : null;
  }

  draw() {
    this.box.innerHTML = this.items
      .map(
        (item, index) =>
          `<div class="suggestion${index === this.active ? " active" : ""}" role="option" data-index="${index}"` +
          ` aria-selected="${index === this.active}"><span class="suggestion-title">${escapeHtml(item.title)}</span>` +
          `<span class="suggestion-detail">${escapeHtml(item.detail || "")}</span></div>`,
      )
      .join("");
    this.box.hidden = false;
    const active = this.box.querySelector(".active");
    if (active) active.scrollIntoView({ block: "nearest" });
  }
}

function escapeRegExp(text) {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
