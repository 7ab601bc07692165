// Settings › Account (who is signed in, what their library holds, their password, their keys for
// scripts and tools, and their sessions: sign out here, on one device, or everywhere) and, for admins, Settings › People (add people,
// set quotas, disable, reset passwords, remove).

import { api } from './api.js';
import { el, button, formatBytes, formatDate } from './util.js';
import { ask } from './dialog.js';
import { showToast } from './toast.js';
import { passkeysAvailable, registerPasskey, whyNoPasskeys } from './passkeys.js';

// Who is signed in: GET /api/me, read once by the page.
export async function whoAmI() {
  return api.get('/api/me');
}

function usageText(usage, quota) {
  const assets = usage?.assetCount ?? 0;
  const bytes = formatBytes(usage?.byteCount ?? 0);
  const items = `${assets} ${assets === 1 ? 'photo or movie' : 'photos and movies'}`;
  return quota ? `${items}, ${bytes} of ${formatBytes(quota)}` : `${items}, ${bytes}`;
}

function quotaMeter(usage, quota) {
  if (!quota) return null;
  const used = Math.min(1, (usage?.byteCount ?? 0) / quota);
  return el('meter', { class: 'quota-meter', min: '0', max: '1', value: String(used), high: '0.9', 'aria-label': 'Storage used' });
}

async function signOut() {
  await api.delete('/api/session');
  location.assign('/');
}

export async function showAccount(container, me) {
  container.replaceChildren(el('p', {}, 'Loading…'));
  let sessions;
  let keys;
  let passkeys;
  try {
    [me, sessions, keys, passkeys] = await Promise.all([
      api.get('/api/me'), api.get('/api/sessions'), api.get('/api/keys'), api.get('/api/passkeys')]);
  } catch (error) {
    container.replaceChildren(el('p', { class: 'status' }, error.message));
    return;
  }
  const person = me.person;
  const rows = sessions.sessions.map((session) => el('li', { class: 'session-row' },
    el('span', { class: 'session-what' }, session.userAgent || 'A browser', session.current ? ' (this browser)' : ''),
    el('span', { class: 'hint' }, ` ${session.address} · signed in ${formatDate(session.createdDate)} · last used ${formatDate(session.lastSeenDate)}`),
    session.current ? null : button('Sign Out', async () => {
      await api.delete(`/api/sessions/${encodeURIComponent(session.id)}`);
      showAccount(container, me);
    }, { ariaLabel: `Sign out ${session.userAgent || 'that browser'}` })));
  const password = el('form', { class: 'password-form' },
    el('h3', {}, 'Password'),
    me.session ? el('label', {}, 'Current password ', el('input', { name: 'current', type: 'password', autocomplete: 'current-password', required: true })) : null,
    el('label', {}, 'New password ', el('input', { name: 'password', type: 'password', autocomplete: 'new-password', minlength: '8', required: true })),
    el('button', { type: 'submit', class: 'button' }, 'Change Password'));
  password.addEventListener('submit', async (event) => {
    event.preventDefault();
    const data = new FormData(password);
    try {
      await api.post('/api/me/password', { current: data.get('current') || null, password: data.get('password') });
      showToast('Password changed. Your other sessions are signed out.');
      password.reset();
      showAccount(container, me);
    } catch (error) {
      showToast(error.message);
    }
  });
  // (replaceChildren would write a null as the text "null".)
  container.replaceChildren(...[
    el('dl', { class: 'account-facts' },
      el('dt', {}, 'Name'), el('dd', {}, `${person.displayName} (${person.name})`),
      el('dt', {}, 'Role'), el('dd', {}, person.role === 'admin' ? 'Admin' : 'Member'),
      el('dt', {}, 'Library'), el('dd', {}, usageText(person.usage, person.quota), ' ', quotaMeter(person.usage, person.quota))),
    password,
    passkeySection(container, me, passkeys.passkeys),
    me.signInAccount ? accountSection(container, me, me.signInAccount) : null,
    keySection(container, me, keys.keys),
    el('h3', {}, 'Where you are signed in'),
    me.usesServerKey ? el('p', { class: 'hint' }, 'This browser is signed in with the server’s key.') : null,
    rows.length ? el('ul', { class: 'session-list', role: 'list' }, rows) : el('p', { class: 'hint' }, 'No browser is signed in with a password.'),
    el('div', { class: 'row account-actions' },
      me.session ? button('Sign Out', signOut, { className: 'button primary' }) : null,
      button('Sign Out Everywhere', async () => {
        if (!await ask({ title: 'Sign out everywhere?', message: 'Every browser signed in as you signs out, this one too.', confirm: 'Sign Out Everywhere', danger: true })) return;
        await api.post('/api/sessions/end-all');
        location.assign('/');
      }, { className: 'button danger' })),
  ].filter(Boolean));
}

// Passkeys (GET/POST /api/passkeys, DELETE /api/passkeys/ID): sign in with the phone, a security
// key or the browser's password manager instead of the password.
function passkeySection(container, me, passkeys) {
  const rows = passkeys.map((passkey) => el('li', { class: 'key-row passkey-row' },
    el('span', { class: 'key-what' }, passkey.name),
    el('span', { class: 'hint' }, ` added ${formatDate(passkey.createdDate)} · `,
      passkey.lastUsedDate ? `last used ${formatDate(passkey.lastUsedDate)}` : 'never used'),
    button('Remove', async () => {
      if (!await ask({ title: `Remove “${passkey.name}”?`, message: 'It will not sign you in any more.', confirm: 'Remove', danger: true })) return;
      try {
        await api.delete(`/api/passkeys/${encodeURIComponent(passkey.id)}`);
        showAccount(container, me);
      } catch (error) {
        showToast(error.message);
      }
    }, { ariaLabel: `Remove passkey ${passkey.name}` })));
  const available = passkeysAvailable();
  const form = el('form', { class: 'key-form passkey-form' },
    el('label', {}, 'Name ', el('input', { name: 'name', maxlength: '100', required: true, value: 'Passkey', disabled: !available })),
    el('button', { type: 'submit', class: 'button', disabled: !available }, 'Add a Passkey'));
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    try {
      const passkey = await registerPasskey(new FormData(form).get('name'));
      showToast(`“${passkey.name}” signs you in now.`);
      showAccount(container, me);
    } catch (error) {
      showToast(error.name === 'NotAllowedError' ? 'No passkey was made.' : error.message);
    }
  });
  return el('section', { class: 'passkeys' },
    el('h3', {}, 'Passkeys'),
    el('p', { class: 'hint' }, available ? 'Sign in with your phone, a security key or this browser instead of your password.' : whyNoPasskeys()),
    rows.length ? el('ul', { class: 'key-list', role: 'list' }, rows) : el('p', { class: 'hint' }, 'No passkeys yet.'),
    form);
}

// The OpenID Connect provider's account that signs this person in (POST /api/me/oidc starts the
// round trip through the provider; DELETE /api/me/oidc disconnects it), when the server has one.
function accountSection(container, me, signIn) {
  const connect = button(`Connect ${signIn.provider}`, async () => {
    try {
      const { url } = await api.post('/api/me/oidc');
      location.assign(url);  // the provider, which sends the browser back to the callback
    } catch (error) {
      showToast(error.message);
    }
  }, { className: 'button' });
  const disconnect = button('Disconnect', async () => {
    if (!await ask({ title: `Disconnect ${signIn.provider}?`, message: `${signIn.account} will not sign you in any more.`, confirm: 'Disconnect', danger: true })) return;
    try {
      await api.delete('/api/me/oidc');
      showAccount(container, me);
    } catch (error) {
      showToast(error.message);
    }
  }, { ariaLabel: `Disconnect ${signIn.provider}` });
  const taken = new URLSearchParams(location.search).get('oidc') === 'taken';
  return el('section', { class: 'sign-in-account' },
    el('h3', {}, signIn.provider),
    signIn.account
      ? el('p', {}, `Signs you in as ${signIn.account}. `, disconnect)
      : el('p', { class: 'hint' }, `Sign in with your ${signIn.provider} account instead of your password. `, connect),
    taken ? el('p', { class: 'sign-in-error', role: 'alert' }, 'That account signs in someone else here: it was not connected.') : null);
}

const scopeNames = { read: 'Read only', upload: 'Add only', write: 'Read and change' };

// Keys for scripts and tools (GET/POST /api/keys, DELETE /api/keys/ID): a new key's token is
// shown once, with a Copy button; the list shows what each may do and when it was last used.
function keySection(container, me, keys) {
  const rows = keys.map((key) => el('li', { class: 'key-row' },
    el('span', { class: 'key-what' }, key.name),
    el('span', { class: 'hint' }, ` ${scopeNames[key.scope] ?? key.scope} · ${key.prefix}… · made ${formatDate(key.createdDate)} · `,
      key.lastUsedDate ? `last used ${formatDate(key.lastUsedDate)}` : 'never used'),
    button('Revoke', async () => {
      if (!await ask({ title: `Revoke “${key.name}”?`, message: 'Scripts and tools using this key stop working at once.', confirm: 'Revoke', danger: true })) return;
      try {
        await api.delete(`/api/keys/${encodeURIComponent(key.id)}`);
        showAccount(container, me);
      } catch (error) {
        showToast(error.message);
      }
    }, { ariaLabel: `Revoke ${key.name}` })));
  const made = el('div', { class: 'key-made', hidden: true });
  const form = el('form', { class: 'key-form' },
    el('label', {}, 'Name ', el('input', { name: 'name', maxlength: '100', required: true, placeholder: 'Nightly backup' })),
    el('label', {}, 'May ', el('select', { name: 'scope' },
      ...Object.entries(scopeNames).map(([value, label]) => el('option', { value }, label)))),
    el('button', { type: 'submit', class: 'button' }, 'Make Key'));
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    const data = new FormData(form);
    try {
      const { key, token } = await api.post('/api/keys', { name: data.get('name'), scope: data.get('scope') });
      const field = el('input', { class: 'key-token', readonly: true, value: token, 'aria-label': `The token of ${key.name}` });
      made.replaceChildren(
        el('p', {}, `“${key.name}” is made. Copy its token now: it is not shown again.`),
        el('div', { class: 'row' }, field, button('Copy', async () => {
          field.select();
          try {
            await navigator.clipboard.writeText(token);
            showToast('Copied.');
          } catch {
            showToast('Press Ctrl+C to copy the selected token.');
          }
        })),
        el('p', { class: 'hint' }, 'Send it as “Authorization: Bearer TOKEN”, or set SHOEBOX_API_KEY for shoebox pick.'));
      made.hidden = false;
      form.reset();
      // The list again, with the new key's token kept in view.
      const fresh = keySection(container, me, (await api.get('/api/keys')).keys);
      fresh.querySelector('.key-made').replaceWith(made);
      container.querySelector('section.keys')?.replaceWith(fresh);
      field.select();
    } catch (error) {
      showToast(error.message);
    }
  });
  return el('section', { class: 'keys' },
    el('h3', {}, 'Keys for Scripts and Tools'),
    el('p', { class: 'hint' }, 'A key lets a script act as you: read your library, add to it, or both. It never signs in here.'),
    rows.length ? el('ul', { class: 'key-list', role: 'list' }, rows) : el('p', { class: 'hint key-none' }, 'No keys yet.'),
    made,
    form);
}

function parseQuota(text) {
  const match = /^\s*([\d.]+)\s*(GB|MB|TB)?\s*$/i.exec(text ?? '');
  if (!match) return null;
  const unit = { mb: 1024 ** 2, gb: 1024 ** 3, tb: 1024 ** 4 }[(match[2] ?? 'GB').toLowerCase()];
  return Math.round(Number(match[1]) * unit);
}

export async function showPeople(container) {
  container.replaceChildren(el('p', {}, 'Loading…'));
  let people;
  try {
    ({ people } = await api.get('/api/people'));
  } catch (error) {
    container.replaceChildren(el('p', { class: 'status' }, error.message));
    return;
  }
  const refresh = () => showPeople(container);
  const act = (action) => async () => {
    try { await action(); } catch (error) { showToast(error.message); }
    refresh();
  };
  const rows = people.map((person) => el('tr', { class: person.state === 'disabled' ? 'disabled' : null },
    el('th', { scope: 'row' }, person.displayName, el('span', { class: 'hint' }, ` ${person.name}`)),
    el('td', {}, person.role === 'admin' ? 'Admin' : 'Member', person.state === 'disabled' ? ' · disabled' : ''),
    el('td', {}, usageText(person.usage, person.quota), ' ', quotaMeter(person.usage, person.quota)),
    el('td', { class: 'person-actions' },
      button(person.state === 'disabled' ? 'Enable' : 'Disable',
        act(() => api.patch(`/api/people/${person.id}`, { state: person.state === 'disabled' ? 'active' : 'disabled' })),
        { ariaLabel: `${person.state === 'disabled' ? 'Enable' : 'Disable'} ${person.name}` }),
      button('Quota', act(async () => {
        const text = await ask({ title: `Quota for ${person.displayName}`, input: { label: 'Most they may hold (e.g. 50 GB; empty: no limit)', value: person.quota ? `${(person.quota / 1024 ** 3).toFixed(1)} GB` : '' }, confirm: 'Set' });
        if (text === null) return;
        const quota = text.trim() === '' || /^none$/i.test(text) ? null : parseQuota(text);
        if (quota === null && text.trim() !== '' && !/^none$/i.test(text)) throw new Error(`${text} is not a size: write 50 GB or 500 MB`);
        await api.patch(`/api/people/${person.id}`, { quota });
      }), { ariaLabel: `Quota for ${person.name}` }),
      button('Password', act(async () => {
        const password = await ask({ title: `New password for ${person.displayName}`, input: { label: 'Password (8 or more characters)' }, confirm: 'Set' });
        if (password) await api.post(`/api/people/${person.id}/password`, { password });
      }), { ariaLabel: `Set ${person.name}'s password` }),
      button('Remove', act(async () => {
        const holds = person.usage?.assetCount ?? 0;
        const message = holds
          ? `${person.displayName}'s ${holds} photos and movies and their albums are deleted for good. Photos someone else also has stay theirs.`
          : `${person.displayName} has nothing in their library.`;
        if (!await ask({ title: `Remove ${person.displayName}?`, message, confirm: 'Remove', danger: true })) return;
        await api.delete(`/api/people/${person.id}?deleteLibrary=true`);
      }), { className: 'button danger', ariaLabel: `Remove ${person.name}` }))));
  const form = el('form', { class: 'add-person-form' },
    el('h3', {}, 'Add a Person'),
    el('label', {}, 'Sign-in name ', el('input', { name: 'name', required: true, maxlength: '64', pattern: '[a-z0-9._\\-]+', autocapitalize: 'none', spellcheck: 'false', autocomplete: 'off' })),
    el('label', {}, 'Display name ', el('input', { name: 'displayName', maxlength: '100', autocomplete: 'off' })),
    el('label', {}, 'Password ', el('input', { name: 'password', type: 'password', minlength: '8', required: true, autocomplete: 'new-password' })),
    el('label', {}, 'Quota ', el('input', { name: 'quota', placeholder: 'no limit', autocomplete: 'off' })),
    el('label', { class: 'checkbox' }, el('input', { name: 'admin', type: 'checkbox' }), ' Admin'),
    el('button', { type: 'submit', class: 'button primary' }, 'Add'));
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    const data = new FormData(form);
    const quotaText = data.get('quota');
    const quota = quotaText ? parseQuota(quotaText) : null;
    if (quotaText && quota === null) { showToast(`${quotaText} is not a size: write 50 GB or 500 MB`); return; }
    try {
      await api.post('/api/people', {
        name: data.get('name'), displayName: data.get('displayName') || null, password: data.get('password'),
        role: data.get('admin') ? 'admin' : 'member', quota,
      });
      showToast(`Added ${data.get('name')}: they can sign in now.`);
      refresh();
    } catch (error) {
      showToast(error.message);
    }
  });
  container.replaceChildren(
    el('div', { class: 'table-scroll' },
      el('table', { class: 'people-table' },
        el('thead', {}, el('tr', {}, el('th', { scope: 'col' }, 'Person'), el('th', { scope: 'col' }, 'Role'), el('th', { scope: 'col' }, 'Library'), el('th', { scope: 'col' }, el('span', { class: 'visually-hidden' }, 'Actions')))),
        el('tbody', {}, rows))),
    form);
}
