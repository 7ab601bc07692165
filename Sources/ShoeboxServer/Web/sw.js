// The installed web app's service worker: it keeps the app shell (the page, its styles, modules
// and icons) so the app opens without a connection, and nothing else. Every request goes to the
// server first (the shell is small and the server answers 304s), and the kept copy answers only
// when the server cannot be reached. The API, photos and movies are never kept here: they are
// the person's, and the server decides who sees them. The server fills in the version (a digest
// of the shell's files) and the list, so a new build replaces the kept shell.

const VERSION = '{{version}}';
const CACHE = `shoebox-shell-${VERSION}`;
const SHELL = {{shell}};

self.addEventListener('install', (event) => {
  event.waitUntil((async () => {
    const cache = await caches.open(CACHE);
    // The page itself is kept as it is fetched (it needs the person signed in); the files now.
    await cache.addAll(SHELL);
    await self.skipWaiting();
  })());
});

self.addEventListener('activate', (event) => {
  event.waitUntil((async () => {
    for (const name of await caches.keys()) {
      if (name.startsWith('shoebox-shell-') && name !== CACHE) await caches.delete(name);
    }
    await self.clients.claim();
  })());
});

const isShell = (url) => url.origin === self.location.origin && (url.pathname === '/' || SHELL.includes(url.pathname));

self.addEventListener('fetch', (event) => {
  const request = event.request;
  if (request.method !== 'GET') return;
  const url = new URL(request.url);
  if (!isShell(url)) return;  // the API, pixels, pickers, shared links: straight to the server
  event.respondWith((async () => {
    const cache = await caches.open(CACHE);
    try {
      const response = await fetch(request);
      // Only the app itself is kept: not a sign-in page, not a redirect.
      const isApp = response.ok && response.type === 'basic' && (url.pathname !== '/' || response.headers.get('X-Shoebox-Page') === 'app');
      if (isApp) await cache.put(url.pathname, response.clone());
      return response;
    } catch (error) {
      const kept = await cache.match(url.pathname);
      if (kept) return kept;
      throw error;
    }
  })());
});
