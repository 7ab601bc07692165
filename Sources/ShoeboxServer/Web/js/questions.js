// What apps ask the person, as the change stream brings it: an authorization prompt (a dialog
// that waits for the answer) or a pick (a banner that opens the picker).

import { PromptDialog } from './prompt.js';
import { showPrivacy } from './privacy.js';
import { $, el, button } from './util.js';

export const prompts = new PromptDialog($('.prompt-dialog'));
// An answer changes a client's grants: the Privacy page, when shown, shows the new ones.
prompts.onAnswered = () => { if (location.hash === '#/privacy') showPrivacy($('.client-list')); };

export function showPickerBanner(picker) {
  const banner = el('div', { class: 'banner' },
    el('span', {}, `${picker.client || 'An app'} asks you to pick photos.`),
    el('a', { class: 'button primary', href: picker.url }, 'Open Picker'),
    button('Dismiss', () => banner.remove(), { className: 'link-button' }));
  $('.banner-area').append(banner);
}
