// A form (a modal) the bot shows in answer to a click or a command, drawn as Discord's client
// draws it: the title, then each field. Components V2 forms wrap each input in a label (type
// 18: its text, description and one component); classic forms put text inputs in action rows
// (type 1), each with its own label. Submitting sends the answers by custom id to the sandbox,
// which delivers them to the bot as Discord does (a MODAL_SUBMIT interaction).

import { escapeHtml, renderMarkdown } from "./markdown.js";

const TEXT_INPUT = 4;
const STRING_SELECT = 3;
const TEXT_DISPLAY = 10;
const LABEL = 18;
const RADIO_GROUP = 21;
const CHECKBOX_GROUP = 22;
const CHECKBOX = 23;

export class ModalDialog {
  // submit(interactionId, values): a promise of {ok, error, failed, modal}
  constructor(root, submit) {
    this.root = root;
    this.submitTo = submit;
    this.modal = null;
    this.busy = false;
    root.addEventListener("click", (event) => {
      if (event.target === root || event.target.closest("[data-modal-close]")) this.close();
    });
    root.addEventListener("keydown", (event) => {
      if (event.key === "Escape") this.close();
    });
    root.addEventListener("submit", (event) => {
      event.preventDefault();
      this.submit();
    });
  }

  get open() {
    return !this.root.hidden;
  }

  show(modal, ctx) {
    this.modal = modal;
    const fields = (modal.components || []).map((c) => fieldHtml(c, ctx)).join("");
    this.root.innerHTML =
      `<form class="modal" role="dialog" aria-modal="true" aria-labelledby="modal-title" data-modal-id="${escapeHtml(modal.custom_id)}" novalidate>` +
      `<header class="modal-header"><h2 id="modal-title" class="modal-title">${escapeHtml(modal.title || "")}</h2>` +
      `<button type="button" class="modal-close" data-modal-close aria-label="Close">&#10005;</button></header>` +
      `<div class="modal-body">${fields}</div>` +
      `<div class="modal-error" role="alert" hidden></div>` +
      `<footer class="modal-footer"><button type="button" class="button button-link-plain" data-modal-close>Cancel</button>` +
      `<button type="submit" class="button button-primary modal-submit">Submit</button></footer></form>`;
    this.root.hidden = false;
    const first = this.root.querySelector(".modal-body input, .modal-body select, .modal-body textarea");
    (first || this.root.querySelector(".modal-submit")).focus();
  }

  close() {
    this.root.hidden = true;
    this.root.innerHTML = "";
    this.modal = null;
  }

  showError(text) {
    const box = this.root.querySelector(".modal-error");
    if (!box) return;
    box.textContent = text;
    box.hidden = !text;
  }

  // The answers by custom id, as the sandbox's /sandbox/modal takes them; null (and a word
  // under the form) when a required field is empty, which Discord's client refuses too.
  values() {
    const values = {};
    for (const field of this.root.querySelectorAll("[data-field]")) {
      const id = field.dataset.field;
      const kind = Number(field.dataset.kind);
      if (kind === CHECKBOX) {
        values[id] = field.querySelector("input").checked;
      } else if (kind === RADIO_GROUP) {
        const chosen = field.querySelector("input:checked");
        values[id] = chosen ? chosen.value : "";
      } else if (kind === CHECKBOX_GROUP) {
        values[id] = [...field.querySelectorAll("input:checked")].map((i) => i.value);
      } else if (kind === TEXT_INPUT) {
        values[id] = field.querySelector("input, textarea").value;
      } else if (kind === STRING_SELECT) {
        values[id] = [...field.querySelector("select").selectedOptions].map((o) => o.value).filter(Boolean);
      } else {
        continue;
      }
      if (field.dataset.required === "true") {
        const answer = values[id];
        if (answer === "" || (Array.isArray(answer) && !answer.length)) {
          this.showError(`${field.dataset.label || id} is required.`);
          return null;
        }
      }
    }
    return values;
  }

  async submit() {
    if (!this.modal || this.busy) return;
    const values = this.values();
    if (values === null) return;
    this.busy = true;
    const button = this.root.querySelector(".modal-submit");
    button.disabled = true;
    try {
      const result = await this.submitTo(this.modal.interaction, values);
      if (result.ok) {
        this.close();
      } else {
        this.showError(result.failed || result.error || "Something went wrong. Try again.");
      }
      return result;
    } finally {
      this.busy = false;
      if (this.open) button.disabled = false;
    }
  }
}

function fieldHtml(component, ctx) {
  if (component.type === LABEL) {
    return inputHtml(component.component || {}, component.label || "", component.description || "");
  }
  if (component.type === 1) {
    // A classic form: action rows of text inputs (or selects), each labelled by itself.
    return (component.components || []).map((c) => inputHtml(c, c.label || "", "")).join("");
  }
  if (component.type === TEXT_DISPLAY) {
    return `<div class="modal-text">${renderMarkdown(component.content || "", ctx)}</div>`;
  }
  return "";
}

function inputHtml(input, label, description) {
  const id = input.custom_id || "";
  const domId = `modal-field-${id.replace(/[^\w-]/g, "_")}`;
  const required = input.required !== false && input.type !== CHECKBOX;
  const star = required && input.type !== CHECKBOX ? `<span class="modal-required" aria-hidden="true">*</span>` : "";
  const head =
    `<label class="modal-label" for="${domId}">${escapeHtml(label)}${star}</label>` +
    (description ? `<div class="modal-description">${escapeHtml(description)}</div>` : "");
  const open = `<div class="modal-field" data-field="${escapeHtml(id)}" data-kind="${input.type}" data-required="${required}" data-label="${escapeHtml(label)}">`;
  switch (input.type) {
    case TEXT_INPUT: {
      const common =
        ` id="${domId}" class="modal-input" placeholder="${escapeHtml(input.placeholder || "")}"` +
        (input.max_length ? ` maxlength="${input.max_length}"` : "") +
        (input.min_length ? ` minlength="${input.min_length}"` : "");
      const control =
        input.style === 2
          ? `<textarea${common} rows="4">${escapeHtml(input.value || "")}</textarea>`
          : `<input type="text"${common} value="${escapeHtml(input.value || "")}">`;
      return `${open}${head}${control}</div>`;
    }
    case CHECKBOX:
      return (
        `${open}<label class="modal-check"><input type="checkbox" id="${domId}"${input.default ? " checked" : ""}>` +
        `<span>${escapeHtml(label)}</span></label>` +
        (description ? `<div class="modal-description">${escapeHtml(description)}</div>` : "") +
        `</div>`
      );
    case RADIO_GROUP:
    case CHECKBOX_GROUP: {
      const kind = input.type === RADIO_GROUP ? "radio" : "checkbox";
      const options = (input.options || [])
        .map(
          (o, index) =>
            `<label class="modal-option"><input type="${kind}" name="${domId}" value="${escapeHtml(o.value)}"` +
            `${index === 0 ? ` id="${domId}"` : ""}${o.default ? " checked" : ""}>` +
            `<span class="modal-option-label">${escapeHtml(o.label)}</span>` +
            (o.description ? `<span class="modal-option-description">${escapeHtml(o.description)}</span>` : "") +
            `</label>`,
        )
        .join("");
      return `${open}${head}<div class="modal-options" role="${kind === "radio" ? "radiogroup" : "group"}">${options}</div></div>`;
    }
    case STRING_SELECT: {
      const many = (input.max_values || 1) > 1;
      const chosen = (input.options || []).some((o) => o.default);
      const placeholder = many
        ? ""
        : `<option value=""${chosen ? "" : " selected"} disabled>${escapeHtml(input.placeholder || "Make a selection")}</option>`;
      const options = (input.options || [])
        .map((o) => `<option value="${escapeHtml(o.value)}"${o.default ? " selected" : ""}>${escapeHtml(o.label)}</option>`)
        .join("");
      return `${open}${head}<select class="select modal-select" id="${domId}"${many ? " multiple" : ""}>${placeholder}${options}</select></div>`;
    }
    default:
      // A field the sandbox cannot fill in (a file upload, a member select): said, not hidden.
      return `${open}${head}<div class="modal-description">The sandbox cannot fill in this kind of field (type ${Number(input.type)}).</div></div>`;
  }
}
