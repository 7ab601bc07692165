// The authorization prompt: "NAME would like to access your photos", the app's reason, and
// Allow / Don't Allow (and for the library, Select Photos… to share only some).

import { api } from './api.js';
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
    dialog.addEventListener('cancel', (event) => event.preventDefault());  // an answer is needed
  }

  add(prompt) {
    if (this.shown?.id === prompt.id || this.queue.some((queued) => queued.id === prompt.id)) return;
    this.queue.push(prompt);
    if (!this.shown) this.next();
  }

  next() {
    this.shown = this.queue.shift() ?? null;
    if (!this.shown) { if (this.dialog.open) this.dialog.close(); return; }
    this.render(this.shown);
    if (!this.dialog.open) this.dialog.showModal();
  }

  render(prompt) {
    const answer = async (kind, assets) => {
      try {
        await api.post(`/api/prompts/${encodeURIComponent(prompt.id)}`, { answer: kind, assets });
      } catch { /* timed out or answered elsewhere */ }
      this.next();
    };
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

  async selectPhotos(prompt, answer) {
    const chosen = new Set();
    const grid = el('div', { class: 'select-photos', role: 'group', 'aria-label': 'Photos to share' });
    this.dialog.replaceChildren(
      el('h2', { id: 'prompt-title' }, `Share photos with “${prompt.clientName}”`),
      el('p', { class: 'usage' }, 'Only the photos you select here will be visible to the app.'),
      grid,
      el('div', { class: 'dialog-buttons' },
        button('Done', () => answer('selectPhotos', [...chosen]), { className: 'button primary' }),
        button('Back', () => this.render(prompt))));
    const page = await api.get('/api/assets?limit=300&ascending=false');
    for (const asset of page.assets) {
      const toggle = el('button', { type: 'button', 'aria-pressed': 'false', 'aria-label': asset.originalFilename },
        el('img', { src: `/api/assets/${encodeURIComponent(asset.localIdentifier)}/thumbnail?size=128&v=${asset.version}`, alt: '' }));
      toggle.addEventListener('click', () => {
        const on = !chosen.has(asset.localIdentifier);
        if (on) chosen.add(asset.localIdentifier); else chosen.delete(asset.localIdentifier);
        toggle.setAttribute('aria-pressed', String(on));
      });
      grid.append(toggle);
    }
  }
}
