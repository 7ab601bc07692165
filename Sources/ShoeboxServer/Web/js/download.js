// Downloads: one photo as its file, several or an album as a ZIP the server makes as it sends it.
// A dialog asks which files (the current versions, or every original) and whether the place each
// was taken goes with them.

import { el } from './util.js';

// Asks what to download; resolves to {files: 'current'|'originals', location: 'keep'|'strip',
// sidecars: 'none'|'xmp'} or null (sidecars are offered for an archive of several).
export function askDownload({ title, several }) {
  return new Promise((resolve) => {
    const choice = (name, value, label, checked) => el('label', { class: 'choice' },
      el('input', { type: 'radio', name, value, checked }), ' ', label);
    const form = el('form', { method: 'dialog', class: 'ask-form download-form' },
      el('h2', { id: 'download-title' }, title),
      el('fieldset', {}, el('legend', {}, 'Files'),
        choice('files', 'current', several ? 'Current versions (with edits)' : 'Current version (with edits)', true),
        choice('files', 'originals', several ? 'Originals, as imported (a Live Photo’s movie and a RAW too)' : 'Original, as imported', false)),
      el('label', { class: 'choice' }, el('input', { type: 'checkbox', name: 'location', checked: true }), ' ', 'Include location'),
      several ? el('label', { class: 'choice' }, el('input', { type: 'checkbox', name: 'sidecars' }), ' ', 'Include XMP sidecars (dates, places, keywords, ratings)') : null,
      el('div', { class: 'dialog-buttons row' },
        el('button', { type: 'submit', value: 'confirm', class: 'button primary' }, 'Download'),
        el('button', { type: 'submit', value: 'cancel', class: 'button', formnovalidate: true }, 'Cancel')));
    const dialog = el('dialog', { class: 'ask-dialog', 'aria-labelledby': 'download-title' }, form);
    document.body.append(dialog);
    dialog.addEventListener('close', () => {
      const confirmed = dialog.returnValue === 'confirm';
      const data = new FormData(form);
      dialog.remove();
      resolve(confirmed ? { files: data.get('files') ?? 'current', location: data.get('location') ? 'keep' : 'strip', sidecars: data.get('sidecars') ? 'xmp' : 'none' } : null);
    });
    dialog.showModal();
    form.querySelector('button[value="confirm"]').focus();
  });
}

// Starts the browser's download of `url` (the server answers with an attachment).
export function startDownload(url) {
  const link = el('a', { href: url, download: '', hidden: true });
  document.body.append(link);
  link.click();
  link.remove();
}

// The archive of these assets (or a fetch but its exceptions) with the chosen options.
export function archiveURL({ assets = null, fetch = null, except = [], files, location, sidecars = 'none', name }) {
  const query = new URLSearchParams();
  if (fetch) {
    query.set('fetch', fetch);
    if (except.length) query.set('except', except.join(','));
  } else {
    query.set('assets', assets.join(','));
  }
  query.set('files', files);
  query.set('location', location);
  if (sidecars !== 'none') query.set('sidecars', sidecars);
  if (name) query.set('name', name);
  // URLSearchParams writes a space as '+' (an HTML form's encoding), which the server's query
  // reads as a '+' (RFC 3986): a literal '+' is %2B already, so every '+' here is a space.
  return `/api/archive?${query.toString().replaceAll('+', '%20')}`;
}
