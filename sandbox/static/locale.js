// The Discord language of the member one plays as: a small menu beside the member switcher,
// listing the languages the bot speaks (those its commands are localised into). Picking one
// tells the sandbox, which sends it as the `locale` of that member's interactions from then on.

const LABEL = "Discord language";

export class LocalePicker {
  constructor(after) {
    this.select = document.createElement("select");
    this.select.className = "member-locale";
    this.select.id = "member-locale";
    this.select.setAttribute("aria-label", LABEL);
    this.select.title = LABEL;
    after.insertAdjacentElement("afterend", this.select);
    this.member = "";
    this.signature = "";
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
    if (document.activeElement !== this.select && data.locale) this.select.value = data.locale;
    this.select.dataset.locale = this.select.value;
  }

  async choose(code) {
    const response = await fetch("/sandbox/locale", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ member: this.member, locale: code }),
    }).catch(() => null);
    const ok = response !== null && response.ok;
    // The state names the member's language once the sandbox stored it.
    if (ok) this.select.dataset.locale = code;
    this.select.blur();
  }
}
