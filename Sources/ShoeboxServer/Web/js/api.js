// The server's JSON API, with the page's CSRF token on every state-changing call.
const csrf = document.querySelector('meta[name="shoebox-csrf"]')?.content ?? '';

// What the app does when the server answers that this browser is not signed in (401): the
// server was started with another key, or the key was rotated. Set by the page (status.js).
export const session = { onSignedOut: null };

const SIGNED_OUT = 'You are signed out of Shoebox: open the link shoebox serve printed to sign in again.';

function signedOut() {
  session.onSignedOut?.();
  return new APIError(401, 'signedOut', SIGNED_OUT);
}

export class APIError extends Error {
  constructor(status, code, message) {
    super(message);
    this.status = status;
    this.code = code;
  }
}

async function request(method, path, body, { raw = false } = {}) {
  const headers = { Accept: 'application/json' };
  if (method !== 'GET' && method !== 'HEAD') headers['X-Shoebox-CSRF'] = csrf;
  let payload;
  if (body !== undefined) {
    headers['Content-Type'] = 'application/json';
    payload = JSON.stringify(body);
  }
  let response;
  try {
    response = await fetch(path, { method, headers, body: payload, credentials: 'same-origin' });
  } catch {
    throw new APIError(0, 'network', 'Shoebox cannot be reached');
  }
  if (response.status === 401) throw signedOut();
  if (raw) return response;
  if (response.status === 204) return null;
  const text = await response.text();
  const data = text ? JSON.parse(text) : null;
  if (!response.ok) {
    const error = data?.error ?? {};
    throw new APIError(response.status, error.code ?? 'http', error.message ?? response.statusText);
  }
  return data;
}

export const api = {
  get: (path) => request('GET', path),
  post: (path, body = {}) => request('POST', path, body),
  put: (path, body = {}) => request('PUT', path, body),
  patch: (path, body = {}) => request('PATCH', path, body),
  delete: (path) => request('DELETE', path),
};

// Sends a body with upload progress (fetch has none; XMLHttpRequest does).
function send(method, path, body, onProgress) {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open(method, path);
    xhr.setRequestHeader('X-Shoebox-CSRF', csrf);
    xhr.setRequestHeader('Content-Type', 'application/octet-stream');
    xhr.upload.onprogress = (event) => { if (event.lengthComputable) onProgress?.(event.loaded / event.total); };
    xhr.onload = () => {
      let data = null;
      try { data = JSON.parse(xhr.responseText); } catch { /* not JSON */ }
      if (xhr.status >= 200 && xhr.status < 300) resolve(data);
      else if (xhr.status === 401) reject(signedOut());
      else reject(new APIError(xhr.status, data?.error?.code ?? 'http', data?.error?.message ?? `upload failed (${xhr.status})`));
    };
    xhr.onerror = () => reject(new APIError(0, 'network', 'the connection to the server failed'));
    xhr.send(body);
  });
}

// Files larger than this go in pieces of PIECE bytes, each of which any server takes.
export const PIECE = 8 << 20;

// A resumable upload is remembered in this browser under the file's name, size and date, so the
// same file chosen again (after the tab was closed or reloaded) goes on where it stopped.
const uploadKey = (file) => `shoebox.upload:${file.name}:${file.size}:${file.lastModified}`;

function rememberedUpload(file, album) {
  try {
    const saved = JSON.parse(localStorage.getItem(uploadKey(file)) ?? 'null');
    return saved?.id && (saved.album ?? null) === (album ?? null) ? saved.id : null;
  } catch {
    return null;
  }
}

// Uploads a file and imports it; `onProgress` hears 0…1, `onResume(offset)` that a file sent in
// part before goes on from byte `offset`. A large file goes as a resumable upload (/api/uploads):
// a dropped connection or a server that went away costs at most the piece in flight, and the
// upload goes on from the byte the library has — also when the same file is chosen again after
// the page was closed.
export async function upload(file, { album, onProgress, onResume } = {}) {
  if (file.size <= 2 * PIECE) {
    const path = `/api/assets?filename=${encodeURIComponent(file.name)}${album ? `&album=${encodeURIComponent(album)}` : ''}`;
    return send('POST', path, file, onProgress);
  }
  const key = uploadKey(file);
  let begun = null;
  const remembered = rememberedUpload(file, album);
  if (remembered) {
    // Still receiving on the server (uploads nobody adds to for a day are removed): go on.
    const state = await api.get(`/api/uploads/${encodeURIComponent(remembered)}`).catch((error) => {
      if (error.status === 0) throw error;
      return null;
    });
    if (state?.state === 'receiving' && state.size === file.size) {
      begun = state;
      if (state.offset > 0) onResume?.(state.offset);
    }
  }
  if (!begun) {
    begun = await api.post('/api/uploads', { filename: file.name, size: file.size, ...(album ? { album } : {}) });
    try { localStorage.setItem(key, JSON.stringify({ id: begun.id, album: album ?? null })); } catch { /* private mode: no resuming */ }
  }
  const path = `/api/uploads/${encodeURIComponent(begun.id)}`;
  let offset = begun.offset;
  let failures = 0;
  for (;;) {
    const end = Math.min(offset + PIECE, file.size);
    const start = offset;
    try {
      const result = await send('PUT', `${path}?offset=${start}`, file.slice(start, end),
                                (fraction) => onProgress?.((start + fraction * (end - start)) / file.size));
      if (result && 'isDuplicate' in result) {  // the last piece: imported
        localStorage.removeItem(key);
        return result;
      }
      offset = result.offset;
      failures = 0;
    } catch (error) {
      const retryable = error.status === 0 || error.status === 409 || error.status >= 502;
      if (!retryable || failures >= 6) {
        // Refused (not a photo, too large…): nothing to go on with. Unreachable: kept for later.
        if (error.status !== 0) localStorage.removeItem(key);
        throw error;
      }
      failures += 1;
      // Wait (1, 2, 4 … s), then ask where the upload stands and go on from there.
      await new Promise((resolve) => { setTimeout(resolve, 500 * 2 ** failures); });
      const state = await api.get(path).catch(() => null);
      if (state) offset = state.offset;
    }
  }
}

// Server-sent events with automatic reconnection; `handlers` maps event names to functions.
// `handlers.connection(lost)` hears when the stream is lost (the browser keeps trying) and back.
// A browser gives up on a stream the server refused (an error status, e.g. while it starts, or
// 401 when this browser is no longer signed in): then the app asks the server itself — a 401
// says the browser is signed out (session.onSignedOut), anything else opens the stream again,
// from the last event it had, once the server answers. Returns { readyState, close() }.
export function listen(path, handlers) {
  let source = null;
  let closed = false;
  let lastEventId = null;
  let retry = 0;
  const open = () => {
    const from = lastEventId ? `${path.includes('?') ? '&' : '?'}since=${encodeURIComponent(lastEventId)}` : '';
    source = new EventSource(path + from);
    for (const [name, handler] of Object.entries(handlers)) {
      if (name === 'connection') continue;
      source.addEventListener(name, (event) => {
        if (event.lastEventId) lastEventId = event.lastEventId;
        handler(JSON.parse(event.data));
      });
    }
    source.addEventListener('error', () => {
      handlers.connection?.(true);
      if (source.readyState === EventSource.CLOSED && !closed) {
        clearTimeout(retry);
        retry = setTimeout(check, 2_000);
      }
    });
    source.addEventListener('open', () => handlers.connection?.(false));
  };
  const check = async () => {
    if (closed) return;
    try {
      await request('GET', '/api/prompts');
    } catch (error) {
      if (error.status === 401) return;  // signed out: session.onSignedOut has said so
      if (error.status === 0 || error.status >= 500) { retry = setTimeout(check, 2_000); return; }
    }
    if (!closed) open();
  };
  open();
  return {
    // The stream's EventSource.readyState (tests wait for 1, open).
    get readyState() { return source?.readyState ?? EventSource.CLOSED; },
    close() {
      closed = true;
      clearTimeout(retry);
      source?.close();
    },
  };
}
