// Questions in the page's own dialog: the default button is the form's first, so Enter answers
// with it, and Escape cancels — in every dialog the app asks.

import { el } from './util.js';

// ask({ title, message, confirm, danger }) → true when confirmed;
// ask({ title, input: { label, value }, confirm }) → the text entered (trimmed), or null.
export function ask({ title, message, confirm = 'OK', cancel = 'Cancel', danger = false, input = null }) {
  return new Promise((resolve) => {
    const field = input ? el('input', { name: 'answer', required: true, maxlength: '200', autocomplete: 'off', value: input.value ?? '' }) : null;
    const form = el('form', { method: 'dialog', class: 'ask-form' },
      el('h2', { id: 'ask-title' }, title),
      message ? el('p', { class: 'usage' }, message) : null,
      field ? el('label', {}, input.label ?? 'Name', ' ', field) : null,
      el('div', { class: 'dialog-buttons row' },
        el('button', { type: 'submit', value: 'confirm', class: `button ${danger ? 'danger' : 'primary'}` }, confirm),
        el('button', { type: 'submit', value: 'cancel', class: 'button', formnovalidate: true }, cancel)));
    const dialog = el('dialog', { class: 'ask-dialog', 'aria-labelledby': 'ask-title' }, form);
    document.body.append(dialog);
    dialog.addEventListener('close', () => {
      const confirmed = dialog.returnValue === 'confirm';
      dialog.remove();
      if (field) resolve(confirmed && field.value.trim() ? field.value.trim() : null);
      else resolve(confirmed);
    });
    dialog.showModal();
    if (field) { field.focus(); field.select(); } else form.querySelector('button[value="confirm"]').focus();
  });
}

// Asks whether to drop the changes made to `what` ('photo', 'movie'), as Photos does; resolves
// with true to discard.
export function askToDiscardChanges(what) {
  return ask({
    title: 'Discard Changes?', message: `The changes you made to this ${what} will be lost.`,
    confirm: 'Discard Changes', cancel: 'Keep Editing', danger: true,
  });
}
