// The server's JSON API, with the page's CSRF token on every state-changing call.
const csrf = document.querySelector('meta[name="shoebox-csrf"]')?.content ?? '';

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
      else reject(new APIError(xhr.status, data?.error?.code ?? 'http', data?.error?.message ?? `upload failed (${xhr.status})`));
    };
    xhr.onerror = () => reject(new APIError(0, 'network', 'the connection to the server failed'));
    xhr.send(body);
  });
}

// Files larger than this go in pieces of PIECE bytes, each of which any server takes.
export const PIECE = 8 << 20;

// Uploads a file and imports it; `onProgress` hears 0…1. A large file goes as a resumable
// upload (/api/uploads): a dropped connection or a server that went away costs at most the
// piece in flight, and the upload goes on from the byte the library has.
export async function upload(file, { album, onProgress } = {}) {
  if (file.size <= 2 * PIECE) {
    const path = `/api/assets?filename=${encodeURIComponent(file.name)}${album ? `&album=${encodeURIComponent(album)}` : ''}`;
    return send('POST', path, file, onProgress);
  }
  const begun = await api.post('/api/uploads', { filename: file.name, size: file.size, ...(album ? { album } : {}) });
  const path = `/api/uploads/${encodeURIComponent(begun.id)}`;
  let offset = begun.offset;
  let failures = 0;
  for (;;) {
    const end = Math.min(offset + PIECE, file.size);
    const start = offset;
    try {
      const result = await send('PUT', `${path}?offset=${start}`, file.slice(start, end),
                                (fraction) => onProgress?.((start + fraction * (end - start)) / file.size));
      if (result && 'isDuplicate' in result) return result;  // the last piece: imported
      offset = result.offset;
      failures = 0;
    } catch (error) {
      const retryable = error.status === 0 || error.status === 409 || error.status >= 502;
      if (!retryable || failures >= 6) throw error;
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
export function listen(path, handlers) {
  const source = new EventSource(path);
  for (const [name, handler] of Object.entries(handlers)) {
    if (name === 'connection') continue;
    source.addEventListener(name, (event) => handler(JSON.parse(event.data)));
  }
  source.addEventListener('error', () => handlers.connection?.(true));
  source.addEventListener('open', () => handlers.connection?.(false));
  return source;
}
