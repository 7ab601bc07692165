// Shared albums (docs/API.md › Shared albums): their list in the sidebar, an album's page (its
// photos and movies with who added each, likes and comments, and the album's activity), sharing
// one's album with people of the household, leaving, and Add to My Library. Changes others make
// arrive as `library` events naming the album (library-view.js calls sharedAlbumsChanged).

import { api } from './api.js';
import { ask } from './dialog.js';
import { shareDialog } from './sharing.js';
import { $, el, button, formatDate } from './util.js';

const base = (id) => `/api/shared-albums/${encodeURIComponent(id)}`;
const assetPath = (id, asset) => `${base(id)}/assets/${encodeURIComponent(asset)}`;
const roleNames = { owner: 'Owner', contributor: 'Can add photos', viewer: 'Can view' };

let listed = [];
let shown = null;  // { id, album, items, activity }
let loads = 0;
let me = null;
let openItem = null;  // the photo open in the dialog: { dialog, item }

async function whoAmI() {
  me ??= (await api.get('/api/me')).person;
  return me;
}

// The sidebar's Shared Albums; the albums a person may add to are offered by Add to album.
export async function loadSharedAlbums() {
  const { albums } = await api.get('/api/shared-albums');
  listed = albums;
  const onPage = location.hash.startsWith('#/shared/') ? shown?.id : null;
  $('.shared-albums').replaceChildren(...albums.map((album) => el('li', {},
    el('a', {
      class: 'album-link', href: `#/shared/${encodeURIComponent(album.localIdentifier)}`, 'aria-current': String(onPage === album.localIdentifier),
      'aria-label': `${album.title}, ${album.count}, shared ${album.role === 'owner' ? 'by you' : `by ${album.owner.displayName}`}`,
    }, el('span', {}, album.title), el('span', { class: 'album-count' }, String(album.count))))));
  $('.shared-albums-empty').hidden = albums.length > 0;
  return albums;
}

// Albums others share with the person that they may add their own photos to.
export function contributableSharedAlbums() {
  return listed.filter((album) => album.role === 'contributor');
}

// Adds the person's chosen photos to a shared album.
export async function addToSharedAlbum(id, assets) {
  const { added } = await api.post(`${base(id)}/assets`, { assets });
  const album = listed.find((one) => one.localIdentifier === id);
  await ask({ title: 'Added', message: `${added === 1 ? '1 item' : `${added} items`} added to “${album?.title ?? 'the shared album'}”.`, confirm: 'OK', cancel: 'Close' });
}

// The album's page.
export async function showSharedAlbum(id) {
  const view = $('.shared-album-view');
  const load = ++loads;
  let whole;
  try {
    [whole] = await Promise.all([api.get(base(id)), whoAmI()]);
  } catch (error) {
    if (load === loads) gone();
    return;
  }
  const { activity } = await api.get(`${base(id)}/activity`);
  if (load !== loads) return;
  shown = { id, ...whole, activity };
  render(view);
  if (openItem) {
    const item = shown.items.find((one) => one.localIdentifier === openItem.item.localIdentifier);
    if (item) fillPhoto(openItem.dialog, item); else openItem.dialog.close();
  }
}

// Someone changed these shared albums: the sidebar and, when it is shown, the page follow.
// An album the person was taken out of (or left) is not asked for again: the page says so.
export async function sharedAlbumsChanged(ids) {
  const albums = await loadSharedAlbums().catch(() => null);
  if (!albums || !shown || !ids.includes(shown.id) || $('.shared-album-view').hidden) return;
  if (albums.some((album) => album.localIdentifier === shown.id) || shown.album.role === 'owner') await showSharedAlbum(shown.id).catch(() => {});
  else gone();
}

function gone() {
  loads += 1;
  shown = null;
  openItem?.dialog.close();
  $('.shared-album-view').replaceChildren(el('h2', { id: 'shared-album-title' }, 'Shared Album'), el('p', { class: 'hint' }, 'This album is not shared with you (any more).'));
}

function render(view) {
  const { album, items, activity } = shown;
  const owner = album.role === 'owner';
  const people = album.members.map((member) => `${member.displayName} (${member.role === 'contributor' ? 'adds photos' : 'views'})`);
  const actions = el('div', { class: 'row shared-actions' },
    owner ? button('Share with People…', () => shareWithPeople(album.localIdentifier, album.title)) : null,
    owner ? el('a', { class: 'button', href: `#/album/${encodeURIComponent(album.localIdentifier)}` }, 'Open in Albums') : null,
    // A link shows the album as its maker sees it: the owner's and the contributors' to make.
    album.role !== 'viewer' ? button('Share Link…', () => shareDialog({ title: album.title, album: album.localIdentifier })) : null,
    !owner ? button('Leave Album', () => leave(album)) : null);
  const hint = album.role === 'viewer' ? 'You can view, like and comment.'
    : 'To add your photos, select them in your library and choose this album under Add to album.';
  const grid = el('ul', { class: 'shared-grid', role: 'list', 'aria-label': 'Photos' }, ...items.map((item) => el('li', {},
    el('button', {
      type: 'button', class: 'shared-item', 'aria-label': `${item.mediaType === 'video' ? 'Movie' : 'Photo'} added by ${item.addedBy.displayName}`,
      onclick: () => openPhoto(item),
    },
    el('img', { src: `${assetPath(album.localIdentifier, item.localIdentifier)}/thumbnail?size=256&v=${item.version}`, alt: '', loading: 'lazy' }),
    el('span', { class: 'shared-item-caption' },
      el('span', {}, item.addedBy.displayName),
      el('span', { class: 'shared-item-counts', 'aria-label': `${item.likeCount} likes, ${item.commentCount} comments` },
        `${item.isLikedByMe ? '♥' : '♡'} ${item.likeCount} · ${item.commentCount === 1 ? '1 comment' : `${item.commentCount} comments`}`))))));
  view.replaceChildren(
    el('div', { class: 'shared-head' },
      el('h2', { id: 'shared-album-title' }, album.title),
      el('p', { class: 'hint shared-about' },
        owner ? 'Your shared album' : `Shared by ${album.owner.displayName}`, ' · ', `${album.count === 1 ? '1 item' : `${album.count} items`}`,
        people.length ? ` · with ${people.join(', ')}` : ''),
      actions,
      el('p', { class: 'hint' }, hint)),
    el('div', { class: 'shared-body' },
      items.length ? grid : el('p', { class: 'empty-state' }, 'No photos in this album yet.'),
      el('section', { class: 'shared-activity', 'aria-labelledby': 'shared-activity-title' },
        el('h3', { id: 'shared-activity-title' }, 'Activity'),
        activity.length ? el('ol', { class: 'activity-list' }, ...activity.map(describe)) : el('p', { class: 'hint' }, 'Nothing yet.'))));
}

function describe(entry) {
  const what = entry.kind === 'added' ? `added ${entry.count === 1 ? 'a photo' : `${entry.count} photos`}`
    : entry.kind === 'like' ? 'liked a photo' : `commented: “${entry.text}”`;
  return el('li', {}, el('strong', {}, entry.personName), ' ', what, el('span', { class: 'activity-date' }, formatDate(entry.date)));
}

// One photo of the album, large, with its likes and comments.
function openPhoto(item) {
  const dialog = el('dialog', { class: 'shared-photo', 'aria-label': 'Shared photo' });
  document.body.append(dialog);
  dialog.addEventListener('close', () => { dialog.remove(); if (openItem?.dialog === dialog) openItem = null; });
  openItem = { dialog, item };
  fillPhoto(dialog, item);
  dialog.showModal();
  dialog.querySelector('.close-photo').focus();
}

function fillPhoto(dialog, item) {
  openItem = { dialog, item };
  // Drawn again when someone else likes or comments: a comment being typed stays.
  const draft = dialog.querySelector('textarea[name="comment"]');
  const typing = draft && document.activeElement === draft;
  const { album, activity } = shown;
  const path = assetPath(album.localIdentifier, item.localIdentifier);
  const comments = activity.filter((entry) => entry.kind === 'comment' && entry.assetIdentifier === item.localIdentifier).reverse();
  const canRemove = album.role === 'owner' || (album.role === 'contributor' && item.isMine);
  const status = el('p', { class: 'shared-status', role: 'status' });
  const field = el('textarea', { name: 'comment', rows: '2', maxlength: '1000', required: true, 'aria-label': 'Comment' });
  field.value = draft?.value ?? '';
  const form = el('form', { class: 'comment-form' }, field, el('button', { type: 'submit', class: 'button primary' }, 'Comment'));
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    const text = field.value.trim();
    if (!text) return;
    await api.post(`${path}/comments`, { text });
    field.value = '';
    await showSharedAlbum(album.localIdentifier);
  });
  const picture = item.mediaType === 'video'
    ? el('video', { src: `${path}/video`, controls: true, playsinline: true })
    : el('img', { src: `${path}/image?v=${item.version}`, alt: `Photo added by ${item.addedBy.displayName}` });
  dialog.replaceChildren(el('div', { class: 'shared-photo-layout' },
    el('div', { class: 'shared-photo-stage' }, picture),
    el('div', { class: 'shared-photo-side' },
      el('div', { class: 'row' },
        el('strong', {}, `Added by ${item.addedBy.displayName}`),
        button('Close', () => dialog.close(), { className: 'button close-photo' })),
      el('p', { class: 'hint' }, formatDate(item.creationDate)),
      el('div', { class: 'row' },
        el('button', {
          type: 'button', class: 'button like-button', 'aria-pressed': String(item.isLikedByMe),
          onclick: async () => {
            await (item.isLikedByMe ? api.delete(`${path}/like`) : api.put(`${path}/like`));
            await showSharedAlbum(album.localIdentifier);
          },
        }, `${item.isLikedByMe ? '♥ Liked' : '♡ Like'} · ${item.likeCount}`),
        !item.isMine ? button('Add to My Library', async () => {
          await api.post(`${path}/copy`);
          status.textContent = 'Added to your library.';
        }) : null,
        canRemove ? button('Remove from Album', async () => {
          await api.delete(path);
          dialog.close();
          await showSharedAlbum(album.localIdentifier);
        }, { className: 'button danger' }) : null),
      status,
      el('h3', {}, 'Comments'),
      comments.length ? el('ul', { class: 'comment-list' }, ...comments.map((comment) => el('li', {},
        el('strong', {}, comment.personName), ' ', comment.text, el('span', { class: 'activity-date' }, formatDate(comment.date)),
        comment.person === me?.id || album.role === 'owner' ? button('Delete', async () => {
          await api.delete(`${base(album.localIdentifier)}/comments/${encodeURIComponent(comment.id)}`);
          await showSharedAlbum(album.localIdentifier);
        }, { className: 'link-button', ariaLabel: `Delete ${comment.personName}'s comment` }) : null))) : el('p', { class: 'hint' }, 'No comments yet.'),
      form)));
  if (typing) field.focus();
}

async function leave(album) {
  if (!await ask({ title: `Leave “${album.title}”?`, message: 'Photos you added leave the album with you (they stay in your library).', confirm: 'Leave', danger: true })) return;
  const person = await whoAmI();
  await api.delete(`${base(album.localIdentifier)}/people/${encodeURIComponent(person.name)}`);
  await loadSharedAlbums();
  location.hash = '#/';
}

// The owner's sharing: who the album is shared with, as what; others of the household to add.
export async function shareWithPeople(id, title) {
  const dialog = el('dialog', { class: 'ask-dialog share-people', 'aria-labelledby': 'share-people-title' });
  document.body.append(dialog);
  const error = el('p', { class: 'share-error', role: 'alert' });
  async function fill() {
    const [{ people }, whole] = await Promise.all([api.get('/api/household'), api.get(base(id))]);
    const members = whole.album.members;
    const others = people.filter((person) => !members.some((member) => member.id === person.id));
    const who = el('select', { name: 'person', 'aria-label': 'Person' }, ...others.map((person) => el('option', { value: person.name }, `${person.displayName} (${person.name})`)));
    const role = el('select', { name: 'role', 'aria-label': 'Role' }, el('option', { value: 'viewer' }, roleNames.viewer), el('option', { value: 'contributor' }, roleNames.contributor));
    const add = el('form', { class: 'row share-add' }, who, role, el('button', { type: 'submit', class: 'button primary', disabled: !others.length }, 'Share'));
    add.addEventListener('submit', async (event) => {
      event.preventDefault();
      try { await api.post(`${base(id)}/people`, { person: who.value, role: role.value }); error.textContent = ''; } catch (failure) { error.textContent = failure.message; }
      await fill();
    });
    dialog.replaceChildren(el('div', { class: 'share-form' },
      el('h2', { id: 'share-people-title' }, `Share “${title}”`),
      el('p', { class: 'hint' }, 'People you share with see every photo in it, like and comment; those who can add photos add their own.'),
      members.length ? el('ul', { class: 'member-list' }, ...members.map((member) => {
        const change = el('select', { 'aria-label': `${member.displayName}'s role` },
          el('option', { value: 'viewer', selected: member.role === 'viewer' }, roleNames.viewer),
          el('option', { value: 'contributor', selected: member.role === 'contributor' }, roleNames.contributor));
        change.addEventListener('change', async () => { await api.post(`${base(id)}/people`, { person: member.name, role: change.value }); await fill(); });
        return el('li', { class: 'row' }, el('span', { class: 'member-name' }, member.displayName), change,
          button('Remove', async () => { await api.delete(`${base(id)}/people/${encodeURIComponent(member.name)}`); await fill(); }, { className: 'button danger', ariaLabel: `Remove ${member.displayName}` }));
      })) : el('p', { class: 'hint' }, 'Not shared with anyone yet.'),
      others.length ? add : el('p', { class: 'hint' }, 'Everyone of the household is in it.'),
      error,
      el('div', { class: 'dialog-buttons row' }, button('Done', () => dialog.close(), { className: 'button primary done-sharing' }))));
  }
  await fill();
  dialog.addEventListener('close', async () => {
    dialog.remove();
    const albums = await loadSharedAlbums();
    if (albums.some((album) => album.localIdentifier === id)) location.hash = `#/shared/${encodeURIComponent(id)}`;
  });
  dialog.showModal();
}
