// A person's identity on every device (issue 23, docs/BROWSER.md): the
// lobby's "Your identity" panel carries the session to another device with
// a one-time link, lists this session's devices (each can be signed out),
// sets a password and adds passkeys; the sign-in screen of a new device
// logs in with a password or a passkey, and a link opens at /link#CODE.
// Everything goes through the HTTP API of docs/PROTOCOL.md ("Identity on
// every device") with the session's token. Loaded before app.js, which
// holds the state `S`, the connection and the helpers used here.
'use strict';

// One call of the API; `auth`: with this page's token.
async function idApi(method, path, body, auth = true) {
  const headers = { Accept: 'application/json' };
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  if (auth && S.token) headers.Authorization = `Bearer ${S.token}`;
  try {
    const response = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
    let data = null;
    try { data = await response.json(); } catch { /* 204: no body */ }
    return { ok: response.ok, status: response.status, data };
  } catch {
    return { ok: false, status: 0, data: null };
  }
}

// A refusal of the API in the page's words, from its code.
function idErrorText(res) {
  const code = res.data && res.data.error;
  switch (code) {
    case 'link_not_found': return t('id.err.link');
    case 'wrong_login': return t('id.err.login');
    case 'too_many_tries': return t('id.err.tries');
    case 'login_taken': return t('id.err.taken');
    case 'weak_password': return t('id.err.weak');
    case 'wrong_password': return t('id.err.current');
    case 'passkeys_unavailable': return t('id.err.passkeys');
    case 'passkey_refused': return t('id.err.passkeyRefused');
    case 'passkey_unknown': return t('id.err.passkeyUnknown');
    case 'banned': return t('id.err.banned');
    case 'older_device': return t('id.err.older');
    case 'invalid_request': return t('id.err.invalid');
    default: return t('id.err.other');
  }
}

// This page now holds `token` (a link, a password or a passkey proved the
// session): the connection says hello with it.
function useIdentity(token) {
  S.token = token;
  save(TOKEN_KEY, token);
  if (S.ws && S.ws.readyState === WebSocket.OPEN && !S.identified) {
    send({ type: 'hello', token, verbose: true, lang: currentLang, liveness_s: LIVENESS_S });
    return;
  }
  const ws = S.ws;
  S.ws = null;
  S.identified = false;
  S.room = null;
  S.state = null;
  if (ws) ws.close(1000);
  S.attempts = 0;
  connect();
}

// The token of this device was signed out from another device (4007).
function identityRevoked() {
  S.token = null;
  save(TOKEN_KEY, null);
  S.name = '';
  S.playerId = null;
  S.room = null;
  S.state = null;
  S.attempts = 0;
  connect();
  // Said where it stays (the connection's status line moves on).
  toast(t('status.revoked'));
}

// ---- A link from another device: /link#CODE ---------------------------------

// Opened from a link: uses it (once) and takes the identity it carries.
// A page that already holds another session asks first.
async function claimLinkFromAddress() {
  if (location.pathname !== '/link') return false;
  const code = location.hash.slice(1);
  history.replaceState(null, '', '/');
  if (!/^[0-9a-f]{64}$/.test(code)) {
    toast(t('id.err.link'));
    return false;
  }
  if (S.token && !window.confirm(t('id.replaceConfirm'))) return false;
  const res = await idApi('POST', '/api/devices/claim', { code }, false);
  if (!res.ok) {
    toast(idErrorText(res));
    return false;
  }
  useIdentity(res.data.token);
  toast(t('id.linked', { name: res.data.name }));
  return true;
}

// ---- The lobby's panel ---------------------------------------------------------

const ID = { link: null, linkTimer: null, data: null };

async function loadIdentity() {
  if (!S.token || !$('identity').open) return;
  const res = await idApi('GET', '/api/me/devices');
  if (!res.ok) return;
  ID.data = res.data;
  renderIdentity();
}

function dateText(ms) {
  return new Date(ms).toLocaleString(currentLang, { dateStyle: 'medium', timeStyle: 'short' });
}

function renderIdentity() {
  const data = ID.data;
  if (!data) return;
  const list = $('id-devices');
  list.replaceChildren(...data.devices.map((d, i) => {
    const label = d.first ? t('id.firstDevice') : d.label;
    const what = [t('id.since', { when: dateText(d.created_at) })];
    if (d.this_device) what.push(t('id.thisDevice'));
    else if (d.connected) what.push(t('id.connected'));
    const button = el('button', {
      type: 'button', cls: 'quiet small', 'data-device': d.id,
      text: d.this_device ? t('id.signOutHere') : t('id.signOut'),
      'aria-label': d.this_device ? t('id.signOutHere') : t('id.signOutNamed', { name: label || `#${i + 1}` }),
      onclick: () => revokeDevice(d),
    });
    return el('li', { 'data-device-row': d.id }, el('span', { text: `${label} · ${what.join(' · ')}` }), ' ', button);
  }));
  const has = Boolean(data.password);
  $('id-password-state').textContent = has ? t('id.passwordSet', { name: data.password.login }) : t('id.passwordNone');
  $('id-current-field').hidden = !has;
  $('id-current').required = has;
  if (has && !$('id-login').value) $('id-login').value = data.password.login;
  $('id-password-save').textContent = has ? t('id.passwordChange') : t('id.passwordSave');
  const keys = $('id-passkeys');
  keys.replaceChildren(...data.passkeys.map((k, i) => el('li', { 'data-passkey': k.id },
    el('span', { text: t('id.passkeyItem', { n: i + 1, when: dateText(k.created_at) }) }), ' ',
    el('button', {
      type: 'button', cls: 'quiet small', text: t('id.remove'),
      'aria-label': t('id.removePasskey', { n: i + 1 }),
      onclick: () => removePasskey(k.id),
    }))));
  $('id-passkeys-none').hidden = data.passkeys.length > 0;
  renderLink();
}

async function makeLink() {
  const res = await idApi('POST', '/api/me/devices/link');
  if (!res.ok) { toast(idErrorText(res)); return; }
  const url = res.data.url || `${location.origin}${res.data.path}`;
  ID.link = { url, expiresAt: res.data.expires_at };
  $('id-link-url').value = url;
  drawQr(res.data.qr);
  $('id-link-box').hidden = false;
  clearInterval(ID.linkTimer);
  ID.linkTimer = setInterval(renderLink, 1000);
  renderLink();
  $('id-link-url').focus();
  $('id-link-url').select();
}

// The link's QR code (rows of '1' and '0'), as SVG squares with a quiet
// zone; nothing when the server knows no public address.
function drawQr(rows) {
  const box = $('id-link-qr');
  box.replaceChildren();
  box.hidden = !rows;
  if (!rows) return;
  const NS = 'http://www.w3.org/2000/svg';
  const size = rows.length + 8;
  const svg = document.createElementNS(NS, 'svg');
  svg.setAttribute('viewBox', `0 0 ${size} ${size}`);
  svg.setAttribute('role', 'img');
  svg.setAttribute('aria-label', t('id.qr'));
  const back = document.createElementNS(NS, 'rect');
  back.setAttribute('width', size);
  back.setAttribute('height', size);
  back.setAttribute('fill', '#fff');
  let d = '';
  rows.forEach((row, y) => {
    for (let x = 0; x < row.length; x += 1) if (row[x] === '1') d += `M${x + 4} ${y + 4}h1v1h-1z`;
  });
  const modules = document.createElementNS(NS, 'path');
  modules.setAttribute('d', d);
  modules.setAttribute('fill', '#000');
  svg.append(back, modules);
  box.append(svg);
}

// The link's remaining time, and its end.
function renderLink() {
  if (!ID.link) return;
  const left = Math.max(0, Math.ceil((ID.link.expiresAt - Date.now()) / 1000));
  if (!left) {
    clearInterval(ID.linkTimer);
    ID.link = null;
    $('id-link-box').hidden = true;
    return;
  }
  const min = Math.floor(left / 60);
  const sec = String(left % 60).padStart(2, '0');
  $('id-link-text').textContent = t('id.linkText', { time: `${min}:${sec}` });
}

// Acting on an older device (or what it added) needs the password (a
// stolen newer token cannot shut its owner out): the server says so, and
// the page asks for it and tries again; null when the person gave up.
async function withProof(method, path) {
  let res = await idApi(method, path);
  if (res.status === 400 && res.data && res.data.error === 'invalid_request' && ID.data && ID.data.password) {
    const current = window.prompt(t('id.askCurrent'));
    if (current === null) return null;
    res = await idApi(method, path, { current });
  }
  return res;
}

async function revokeDevice(device) {
  if (device.this_device && !window.confirm(t('id.signOutHereConfirm'))) return;
  const res = await withProof('DELETE', `/api/me/devices/${device.id}`);
  if (!res) return;
  if (!res.ok) { toast(idErrorText(res)); return; }
  toast(t('id.signedOut'));
  // This device's own token: its connection closes (4007) and says so.
  if (!device.this_device) loadIdentity();
}

async function savePassword(e) {
  e.preventDefault();
  const body = { login: $('id-login').value.trim(), password: $('id-password').value };
  if (!$('id-current-field').hidden) body.current = $('id-current').value;
  const res = await idApi('PUT', '/api/me/password', body);
  $('id-password').value = '';
  $('id-current').value = '';
  if (!res.ok) { toast(idErrorText(res)); return; }
  toast(t('id.passwordSaved', { name: res.data.login }));
  loadIdentity();
}

// ---- Passkeys (WebAuthn) ------------------------------------------------------------

function fromB64url(text) {
  const b64 = text.replace(/-/g, '+').replace(/_/g, '/');
  const bin = atob(b64 + '='.repeat((4 - (b64.length % 4)) % 4));
  return Uint8Array.from(bin, (c) => c.charCodeAt(0)).buffer;
}

function toB64url(buffer) {
  const bytes = new Uint8Array(buffer);
  let bin = '';
  for (const b of bytes) bin += String.fromCharCode(b);
  return btoa(bin).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

function passkeysWork() {
  return Boolean(window.PublicKeyCredential && navigator.credentials);
}

async function addPasskey() {
  if (!passkeysWork()) { toast(t('id.err.noPasskeys')); return; }
  const start = await idApi('POST', '/api/me/passkeys');
  if (!start.ok) { toast(idErrorText(start)); return; }
  const pk = start.data.options.publicKey;
  pk.challenge = fromB64url(pk.challenge);
  pk.user.id = fromB64url(pk.user.id);
  pk.excludeCredentials = (pk.excludeCredentials || []).map((c) => ({ ...c, id: fromB64url(c.id) }));
  // A passkey the authenticator keeps (discoverable): it signs in on a new
  // device with nothing typed.
  pk.authenticatorSelection = { ...(pk.authenticatorSelection || {}), residentKey: 'required', requireResidentKey: true };
  let cred;
  try {
    cred = await navigator.credentials.create({ publicKey: pk });
  } catch {
    toast(t('id.err.passkeyCancelled'));
    return;
  }
  const credential = {
    id: cred.id,
    rawId: toB64url(cred.rawId),
    type: cred.type,
    response: {
      attestationObject: toB64url(cred.response.attestationObject),
      clientDataJSON: toB64url(cred.response.clientDataJSON),
    },
    extensions: cred.getClientExtensionResults ? cred.getClientExtensionResults() : {},
  };
  const res = await idApi('POST', '/api/me/passkeys/finish', { ceremony: start.data.ceremony, credential });
  if (!res.ok) { toast(idErrorText(res)); return; }
  toast(t('id.passkeyAdded'));
  loadIdentity();
}

async function removePasskey(id) {
  const res = await withProof('DELETE', `/api/me/passkeys/${id}`);
  if (!res) return;
  if (!res.ok) { toast(idErrorText(res)); return; }
  loadIdentity();
}

async function signInWithPasskey() {
  if (!passkeysWork()) { toast(t('id.err.noPasskeys')); return; }
  const start = await idApi('POST', '/api/passkeys/login', undefined, false);
  if (!start.ok) { toast(idErrorText(start)); return; }
  const pk = start.data.options.publicKey;
  pk.challenge = fromB64url(pk.challenge);
  pk.allowCredentials = (pk.allowCredentials || []).map((c) => ({ ...c, id: fromB64url(c.id) }));
  let cred;
  try {
    cred = await navigator.credentials.get({ publicKey: pk });
  } catch {
    toast(t('id.err.passkeyCancelled'));
    return;
  }
  const r = cred.response;
  const credential = {
    id: cred.id,
    rawId: toB64url(cred.rawId),
    type: cred.type,
    response: {
      authenticatorData: toB64url(r.authenticatorData),
      clientDataJSON: toB64url(r.clientDataJSON),
      signature: toB64url(r.signature),
      userHandle: r.userHandle ? toB64url(r.userHandle) : null,
    },
    extensions: cred.getClientExtensionResults ? cred.getClientExtensionResults() : {},
  };
  const res = await idApi('POST', '/api/passkeys/login/finish', { ceremony: start.data.ceremony, credential }, false);
  if (!res.ok) { toast(idErrorText(res)); return; }
  useIdentity(res.data.token);
  toast(t('id.welcomeBack', { name: res.data.name }));
}

async function signInWithPassword(e) {
  e.preventDefault();
  const body = { login: $('signin-login').value.trim(), password: $('signin-password').value };
  const res = await idApi('POST', '/api/login', body, false);
  $('signin-password').value = '';
  if (!res.ok) { toast(idErrorText(res)); return; }
  useIdentity(res.data.token);
  toast(t('id.welcomeBack', { name: res.data.name }));
}

function setupIdentity() {
  $('identity').addEventListener('toggle', () => { if ($('identity').open) loadIdentity(); });
  $('id-link').addEventListener('click', makeLink);
  $('id-link-copy').addEventListener('click', () => copy($('id-link-url'), 'link'));
  $('id-password-form').addEventListener('submit', savePassword);
  $('id-passkey-add').addEventListener('click', addPasskey);
  $('signin-form').addEventListener('submit', signInWithPassword);
  $('signin-passkey').addEventListener('click', signInWithPasskey);
}
