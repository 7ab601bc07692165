// A shared link's gallery: the photos the link shows, by their number in it, and nothing else
// of the library. Asks for the link's password when it has one; downloads when it allows them.

import { request } from './api.js';

const base = location.pathname.replace(/\/+$/, '');  // /s/TOKEN
const $ = (selector) => document.querySelector(selector);
let gallery = null;
let shown = -1;

function element(tag, attributes = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attributes)) {
    if (key.startsWith('on')) node.addEventListener(key.slice(2), value);
    else node.setAttribute(key, value);
  }
  node.append(...children);
  return node;
}

async function load() {
  try {
    gallery = await request('GET', `${base}/data`);
  } catch (error) {
    if (!error.status) throw error;  // no answer: nothing to say about the link
    if (error.status === 401) { $('.shared-password').hidden = false; $('#shared-password-field').focus(); return; }
    const notice = $('.shared-notice');
    notice.hidden = false;
    notice.textContent = error.status === 410 ? 'This shared link has expired.' : 'There is no shared link here. It may have been turned off.';
    return;
  }
  $('.shared-password').hidden = true;
  document.title = gallery.title;
  $('.shared-title').textContent = gallery.title;
  $('.shared-count').textContent = `${gallery.count.toLocaleString()} item${gallery.count === 1 ? '' : 's'}`;
  $('.shared-grid').replaceChildren(...gallery.items.map((item) => element('li', {},
    element('button', { type: 'button', class: 'shared-cell', 'aria-label': `${item.mediaType === 'video' ? 'Video' : 'Photo'} ${item.index + 1} of ${gallery.count}`,
      onclick: () => show(item.index) },
    element('img', { src: `${base}/${item.index}/thumbnail`, alt: '', loading: 'lazy', decoding: 'async', onerror: retried }),
    item.mediaType === 'video' ? element('span', { class: 'badge' }, '▶') : ''))));
}

// A busy link (its visitors' renders all under way) answers 503 with Retry-After: ask again a
// few times, a little later each time.
function retried(event) {
  const image = event.currentTarget;
  const tries = Number(image.dataset.tries || 0);
  if (tries >= 4) return;
  image.dataset.tries = String(tries + 1);
  const source = image.src.split('?')[0];
  setTimeout(() => { image.src = `${source}?try=${tries + 1}`; }, 2000 * (tries + 1));
}

function show(index) {
  if (!gallery || index < 0 || index >= gallery.count) return;
  shown = index;
  const item = gallery.items[index];
  const media = item.mediaType === 'video'
    ? element('video', { src: `${base}/${index}/video`, controls: '', autoplay: '', playsinline: '', poster: `${base}/${index}/image` })
    : element('img', { src: `${base}/${index}/image`, alt: `Photo ${index + 1} of ${gallery.count}`, onerror: retried });
  $('.shared-stage').replaceChildren(media);
  $('.shared-position').textContent = `${index + 1} of ${gallery.count}`;
  const download = $('.shared-download');
  download.hidden = !gallery.allowsDownload;
  if (gallery.allowsDownload) download.href = `${base}/${index}/download`;
  const dialog = $('.shared-viewer');
  if (!dialog.open) dialog.showModal();
}

$('.shared-password').addEventListener('submit', async (event) => {
  event.preventDefault();
  try {
    await request('POST', `${base}/unlock`, { json: { password: $('#shared-password-field').value } });
  } catch (error) {
    if (!error.status) throw error;
    if (error.status === 429) $('.shared-error').textContent = 'Too many wrong passwords. Wait a few minutes, then try again.';
    else $('.shared-error').textContent = error.status === 401 ? 'That is not the password.' : 'The link could not be opened.';
    return;
  }
  $('.shared-error').textContent = '';
  load();
});
$('.shared-close').addEventListener('click', () => $('.shared-viewer').close());
for (const button of document.querySelectorAll('[data-move]')) button.addEventListener('click', () => show(shown + Number(button.dataset.move)));
$('.shared-viewer').addEventListener('keydown', (event) => {
  if (event.key === 'ArrowRight') show(shown + 1);
  if (event.key === 'ArrowLeft') show(shown - 1);
});
load();
