// The authorization prompt: "NAME would like to access your photos", the app's reason, and
// Allow / Don't Allow (and for the library, Select Photos… to share only some). A client's
// deletion asks the same way: "NAME would like to delete 3 photos", with the photos, Delete /
// Don't Allow.

import { api } from './api.js';
import { PhotoChooser } from './chooser.js';
import { el, button } from './util.js';

const phrases = {
  camera: 'access the camera',
  microphone: 'access the microphone',
  photoLibrary: 'access your photos',
  photoLibraryAdd: 'add photos to your library',
};

export class PromptDialog {
  constructor(dialog) {
    this.dialog = dialog;
    this.queue = [];
    this.shown = null;
    this.onAnswered = () => {};
    dialog.addEventListener('cancel', (event) => event.preventDefault());  // an answer is needed
  }

  add(prompt) {
    if (this.shown?.id === prompt.id || this.queue.some((queued) => queued.id === prompt.id)) return;
    this.queue.push(prompt);
    if (!this.shown) this.next();
  }

  // A question answered elsewhere (another tab, another server) or expired: stop asking it.
  remove(id) {
    this.queue = this.queue.filter((queued) => queued.id !== id);
    if (this.shown?.id === id) this.next();
  }

  next() {
    this.shown = this.queue.shift() ?? null;
    if (!this.shown) { if (this.dialog.open) this.dialog.close(); return; }
    this.render(this.shown);
    if (!this.dialog.open) this.dialog.showModal();
  }

  render(prompt) {
    if (prompt.service.startsWith('deleteAssets')) { this.renderDeletion(prompt); return; }
    const answer = (kind, assets) => this.answer(prompt, kind, assets);
    const buttons = [];
    if (prompt.offersLimitedAccess) buttons.push(button('Select Photos…', () => this.selectPhotos(prompt, answer), { ariaLabel: 'Select Photos' }));
    buttons.push(button('Allow', () => answer('allow'), { className: 'button primary' }));
    buttons.push(button("Don't Allow", () => answer('deny')));
    this.dialog.replaceChildren(
      el('h2', { id: 'prompt-title' }, `“${prompt.clientName}” would like to ${phrases[prompt.service] ?? prompt.service}`),
      el('p', { class: 'usage' }, prompt.usageDescription),
      el('div', { class: 'dialog-buttons' }, buttons));
    buttons.at(-2)?.focus();
  }

  async answer(prompt, kind, assets) {
    try {
      await api.post(`/api/prompts/${encodeURIComponent(prompt.id)}`, { answer: kind, assets });
    } catch { /* timed out or answered elsewhere */ }
    this.onAnswered(prompt);
    this.next();
  }

  renderDeletion(prompt) {
    const assets = prompt.assets ?? [];
    const count = assets.length === 1 ? 'this item' : `${assets.length} items`;
    const shown = assets.slice(0, 8).map((id) => el('img', {
      src: `/api/assets/${encodeURIComponent(id)}/thumbnail?size=128&mode=fill`, alt: '', width: '64', height: '64', loading: 'lazy' }));
    const more = assets.length > shown.length ? [el('span', { class: 'more' }, `+${assets.length - shown.length}`)] : [];
    const remove = button('Delete', () => this.answer(prompt, 'allow'), { className: 'button danger' });
    const keep = button("Don't Allow", () => this.answer(prompt, 'deny'), { className: 'button primary' });
    keep.autofocus = true;  // the safe answer is the default (showModal focuses it)
    this.dialog.replaceChildren(
      el('h2', { id: 'prompt-title' }, `“${prompt.clientName}” would like to delete ${count}`),
      el('div', { class: 'prompt-assets' }, ...shown, ...more),
      el('p', { class: 'usage' }, prompt.usageDescription),
      el('div', { class: 'dialog-buttons' }, remove, keep));
    keep.focus();
  }

  selectPhotos(prompt, answer) {
    const chooser = new PhotoChooser();
    this.dialog.replaceChildren(
      el('h2', { id: 'prompt-title' }, `Share photos with “${prompt.clientName}”`),
      el('p', { class: 'usage' }, 'Only the photos you select here will be visible to the app.'),
      chooser.count,
      chooser.element,
      el('div', { class: 'dialog-buttons' },
        button('Done', () => { chooser.close(); answer('selectPhotos', chooser.selection); }, { className: 'button primary' }),
        button('Back', () => { chooser.close(); this.render(prompt); })));
  }
}
