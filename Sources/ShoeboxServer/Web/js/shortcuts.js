// ?: the keyboard shortcuts, in a sheet that Escape closes.

import { el } from './util.js';

const SHORTCUTS = [
  ['The photos', [['← → ↑ ↓', 'Move between photos'], ['Home, End, Page Up, Page Down', 'First, last, a screen up or down'],
    ['[ ]', 'Up a month, down a month (the timeline on the right jumps anywhere)'],
    ['Enter', 'Open the photo'], ['Space', 'Select or deselect'], ['Ctrl+A / ⌘A', 'Select All'], ['F', 'Favorite (the selection, or the photo in focus)'],
    ['Delete', 'Delete (Undo in the note that follows)'], ['Escape', 'Deselect']]],
  ['The viewer', [['← →', 'Previous, next (a movie too)'], ['Shift+← →', 'A movie: back or on 5 seconds'], ['J L', 'A movie: back or on 10 seconds'], ['F', 'Favorite'], ['Delete', 'Delete (Undo in the note)'], ['S', 'Slideshow'], ['E', 'Edit'],
    ['Space', 'Pause or go on with the slideshow'], ['+ − 0', 'Zoom in, out, to fit'], ['I', 'Info'], ['Escape', 'Close']]],
  ['Anywhere', [['/', 'Search'], ['?', 'These shortcuts']]],
];
function showShortcuts() {
  let sheet = document.querySelector('dialog.shortcuts');
  if (!sheet) {
    sheet = el('dialog', { class: 'shortcuts', 'aria-labelledby': 'shortcuts-title' },
      el('h2', { id: 'shortcuts-title' }, 'Keyboard Shortcuts'),
      ...SHORTCUTS.map(([title, rows]) => el('section', {}, el('h3', {}, title),
        el('dl', {}, ...rows.flatMap(([keys, what]) => [el('dt', {}, el('kbd', {}, keys)), el('dd', {}, what)])))),
      el('form', { method: 'dialog' }, el('button', { class: 'button primary', value: 'close' }, 'Done')));
    document.body.append(sheet);
  }
  if (!sheet.open) sheet.showModal();
}
export function watchShortcutKey() {
  document.addEventListener('keydown', (event) => {
    if (event.key !== '?' || event.target.closest?.('input, textarea, select') || document.querySelector('dialog[open]:not(.shortcuts)')) return;
    event.preventDefault();
    showShortcuts();
  });
}
