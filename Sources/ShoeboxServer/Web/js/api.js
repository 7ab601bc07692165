// Every call the web app makes to the server: requests, uploads with progress and the event
// streams, on all three pages (the library, the picker, a shared link's). This module is the only
// one that touches fetch, XMLHttpRequest or EventSource, so that the cookie, the page's CSRF
// token, JSON in and out, aborts and the turning of a refusal into an Error with the server's
// message are done in one place. It is api.js itself rather than an http.js under it: what it
// adds over the transport (the JSON verbs) is a few lines, and every page imports it already.
// What is built on it lives with its use (the resumable upload in upload.js).

// The library's pages carry the token; a shared link's page has none and sends none.
const csrf = document.querySelector('meta[name="shoebox-csrf"]')?.content ?? null;

// What the app does when the server answers that this browser is not signed in (401): the
// server was started with another key, or the key was rotated. Set by the page (status.js).
export const session = { onSignedOut: null };

const SIGNED_OUT = 'You are signed out of Shoebox: reload the page to sign in again.';

function signedOut() {
  session.onSignedOut?.();
  return new APIError(401, 'signedOut', SIGNED_OUT);
}

// A page being left (a link, a reload, a typed address) has its loads cancelled by the browser as
// the navigation starts, and Firefox reports each to its caller as a network failure. Such a
// failure is held until the page is either gone (then no one hears it) or still here a moment
// later (a beforeunload question answered Stay), and only then reported as any other.
let leaving = null;  // settles when the page turns out to stay
window.addEventListener('beforeunload', () => {
  leaving = new Promise((resolve) => setTimeout(() => { leaving = null; resolve(); }, 2_000));
});

async function unlessLeaving() {
  while (leaving) await leaving;
}

export class APIError extends Error {
  constructor(status, code, message) {
    super(message);
    this.status = status;
    this.code = code;
  }
}

// Sends a request and answers its JSON (null for an empty answer). Options:
//   json       a value sent as JSON
//   body       a Blob or File sent as it is, as `type` (application/octet-stream without one)
//   headers    more headers (the JSON API's Accept)
//   signal     an AbortSignal: aborted, the promise rejects with its reason, as fetch's does
//   onProgress hears 0…1 as the body goes up (then the request goes by XMLHttpRequest: fetch
//              reports no upload progress)
//   refused    what a refusal without the server's message says, "REFUSED (STATUS)"; without
//              it, the status text
//   signingIn  the request signs in (a passkey's): its 401 is a refusal like any other
// A refusal throws an APIError with the server's code and message; 401 also tells the page that
// this browser is signed out; no answer at all is an APIError with status 0.
export async function request(method, path, { json, body, type, headers: extra, signal, onProgress, refused, signingIn } = {}) {
  const headers = { ...extra };
  if (csrf !== null && method !== 'GET' && method !== 'HEAD') headers['X-Shoebox-CSRF'] = csrf;
  let payload = body;
  if (json !== undefined) {
    headers['Content-Type'] = 'application/json';
    payload = JSON.stringify(json);
  } else if (body !== undefined) {
    headers['Content-Type'] = type || 'application/octet-stream';
  }
  const { status, statusText, text } = onProgress
    ? await sendWithProgress(method, path, headers, payload, signal, onProgress)
    : await sendWithFetch(method, path, headers, payload, signal);
  if (status === 401 && !signingIn) throw signedOut();
  if (status >= 200 && status < 300) return text ? JSON.parse(text) : null;
  let data = null;
  try { data = JSON.parse(text); } catch { /* not JSON: a proxy's page, say */ }
  const fallback = refused ? `${refused} (${status})` : statusText;
  throw new APIError(status, data?.error?.code ?? 'http', data?.error?.message ?? fallback);
}

async function sendWithFetch(method, path, headers, body, signal) {
  let response;
  try {
    response = await fetch(path, { method, headers, body, signal, credentials: 'same-origin' });
  } catch (error) {
    if (signal?.aborted) throw error;
    await unlessLeaving();
    throw new APIError(0, 'network', 'Shoebox cannot be reached');
  }
  return { status: response.status, statusText: response.statusText, text: await response.text() };
}

function sendWithProgress(method, path, headers, body, signal, onProgress) {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) { reject(signal.reason); return; }
    const xhr = new XMLHttpRequest();
    xhr.open(method, path);
    for (const [name, value] of Object.entries(headers)) xhr.setRequestHeader(name, value);
    xhr.upload.onprogress = (event) => { if (event.lengthComputable) onProgress(event.loaded / event.total); };
    xhr.onload = () => resolve({ status: xhr.status, statusText: xhr.statusText, text: xhr.responseText });
    // The importer shows this beside the file: an upload can break off midway, having reached it.
    xhr.onerror = () => unlessLeaving().then(() => reject(new APIError(0, 'network', 'the connection to the server failed')));
    xhr.onabort = () => reject(signal?.reason ?? new DOMException('The upload was aborted.', 'AbortError'));
    signal?.addEventListener('abort', () => xhr.abort(), { once: true });
    xhr.send(body);
  });
}

// The JSON API: the library's routes, which are told the answer is wanted as JSON.
const ANSWER_JSON = { Accept: 'application/json' };

export const api = {
  get: (path, { signal } = {}) => request('GET', path, { headers: ANSWER_JSON, signal }),
  post: (path, body = {}, { signal } = {}) => request('POST', path, { json: body, headers: ANSWER_JSON, signal }),
  put: (path, body = {}, { signal } = {}) => request('PUT', path, { json: body, headers: ANSWER_JSON, signal }),
  patch: (path, body = {}, { signal } = {}) => request('PATCH', path, { json: body, headers: ANSWER_JSON, signal }),
  delete: (path, { signal } = {}) => request('DELETE', path, { headers: ANSWER_JSON, signal }),
};

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
      await api.get('/api/prompts');
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
