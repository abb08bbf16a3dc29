// The Discord language of the member one plays as: a small menu beside the member switcher,
// listing the languages the bot speaks (those its commands are localised into). Picking one
// tells the sandbox, which sends it as the `locale` of that member's interactions from then on.

const LABEL = "Discord language";

export class LocalePicker {
  // `changed` is called once the sandbox stored a choice, to fetch a page state that has it.
  constructor(after, changed) {
    this.select = document.createElement("select");
    this.select.className = "member-locale";
    this.select.id = "member-locale";
    this.select.setAttribute("aria-label", LABEL);
    this.select.title = LABEL;
    after.insertAdjacentElement("afterend", this.select);
    this.member = "";
    this.signature = "";
    this.changed = changed;
    // A choice the page states may not show yet: a state fetched before the sandbox stored
    // it still names the old language, and must not put the menu back.
    this.pending = null;
    this.select.addEventListener("change", () => this.choose(this.select.value));
  }

  // Show the viewer's language among the bot's (called with every page state).
  draw(data) {
    const locales = data.locales || [];
    const signature = locales.map((l) => l.code).join(",");
    if (signature !== this.signature) {
      this.signature = signature;
      this.select.replaceChildren(
        ...locales.map((l) => {
          const option = document.createElement("option");
          option.value = l.code;
          option.textContent = l.name;
          return option;
        }),
      );
    }
    this.select.hidden = locales.length === 0;
    this.member = data.me;
    const pending = this.pending;
    if (pending !== null && (pending.member !== data.me || pending.code === data.locale)) {
      this.pending = null;
    }
    const shown = this.pending !== null ? this.pending.code : data.locale;
    if (document.activeElement !== this.select && shown) this.select.value = shown;
    // Named only once the sandbox has the choice (tests and the page wait on this).
    if (this.pending === null || this.pending.stored) this.select.dataset.locale = this.select.value;
  }

  async choose(code) {
    const choice = { member: this.member, code, stored: false };
    this.pending = choice;
    const response = await fetch("/sandbox/locale", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ member: choice.member, locale: code }),
    }).catch(() => null);
    const ok = response !== null && response.ok;
    if (this.pending === choice) {
      if (ok) {
        choice.stored = true;
        this.select.dataset.locale = code;
      } else {
        this.pending = null;
      }
    }
    this.select.blur();
    this.changed();
  }
}
