// Passkeys (WebAuthn): registering one for the signed-in person (Settings › Account), and signing
// in with one (the sign-in page). The server sends its options with bytes in base64url and takes
// the browser's answer the same way; these turn one into the other.

import { api, request } from './api.js';

export function bytesFromBase64URL(text) {
  const base64 = text.replace(/-/g, '+').replace(/_/g, '/').padEnd(Math.ceil(text.length / 4) * 4, '=');
  return Uint8Array.from(atob(base64), (c) => c.charCodeAt(0)).buffer;
}

export function base64URLFromBytes(buffer) {
  let text = '';
  for (const byte of new Uint8Array(buffer)) text += String.fromCharCode(byte);
  return btoa(text).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

// Whether this page can use passkeys: a browser with WebAuthn, in a secure context (https, or
// http://localhost), at a name rather than an IP address (WebAuthn takes no IP as a site).
export function passkeysAvailable() {
  if (!window.PublicKeyCredential || !window.isSecureContext) return false;
  const host = location.hostname;
  return !/^[\d.]+$/.test(host) && !host.includes(':') && !host.startsWith('[');
}

// Why passkeys are not offered here, in a sentence.
export function whyNoPasskeys() {
  if (!window.PublicKeyCredential) return 'This browser has no passkeys.';
  if (!window.isSecureContext) return 'Passkeys need https (or http://localhost).';
  return `Passkeys need the server’s name, not an IP address: open http://localhost:${location.port} or its domain.`;
}

// Registers a passkey named `name` for the signed-in person; answers the server's Passkey.
export async function registerPasskey(name) {
  const { publicKey } = await api.post('/api/passkeys/registration');
  publicKey.challenge = bytesFromBase64URL(publicKey.challenge);
  publicKey.user.id = bytesFromBase64URL(publicKey.user.id);
  publicKey.excludeCredentials = publicKey.excludeCredentials.map((c) => ({ ...c, id: bytesFromBase64URL(c.id) }));
  const credential = await navigator.credentials.create({ publicKey });
  return api.post('/api/passkeys', {
    name,
    credential: {
      rawId: base64URLFromBytes(credential.rawId),
      type: credential.type,
      response: {
        clientDataJSON: base64URLFromBytes(credential.response.clientDataJSON),
        attestationObject: base64URLFromBytes(credential.response.attestationObject),
      },
    },
  });
}

// Signs in with a passkey this site's authenticator holds; answers the person.
export async function signInWithPasskey() {
  const { publicKey } = await api.post('/api/passkeys/challenge');
  publicKey.challenge = bytesFromBase64URL(publicKey.challenge);
  const credential = await navigator.credentials.get({ publicKey });
  const response = credential.response;
  return request('POST', '/api/passkeys/signin', {
    json: {
      credential: {
        rawId: base64URLFromBytes(credential.rawId),
        type: credential.type,
        response: {
          clientDataJSON: base64URLFromBytes(response.clientDataJSON),
          authenticatorData: base64URLFromBytes(response.authenticatorData),
          signature: base64URLFromBytes(response.signature),
          userHandle: response.userHandle ? base64URLFromBytes(response.userHandle) : null,
        },
      },
    },
    headers: { Accept: 'application/json' },
    signingIn: true,
  });
}
