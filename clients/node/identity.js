// Who a kit bot is when nothing says (issue 24): its token file beside its
// script, and a name of its own among the server's programs.
'use strict';

const path = require('node:path');

// Where a bot keeps its identity when nothing says (issue 24): `<bot>.token`
// beside the script run directly (`node my_bot.js` keeps `my_bot.token`),
// so that it plays as the same rated player on every run. Null under the
// test runner (NODE_TEST_CONTEXT) or without a script file.
function defaultTokenFile() {
  const script = process.argv[1];
  if (!script || process.env.NODE_TEST_CONTEXT || !/\.[cm]?js$/.test(script)) return null;
  const full = path.resolve(script);
  return path.join(path.dirname(full), `${path.basename(full).replace(/\.[cm]?js$/, '')}.token`);
}

// A new bot's name when none is given: its script's name (`nodebot` for
// none) and four random letters, since programs' names are unique on a
// server (issue 24).
function defaultName() {
  const script = process.argv[1];
  let stem = 'nodebot';
  if (script && !process.env.NODE_TEST_CONTEXT && /\.[cm]?js$/.test(script)) {
    stem = path.basename(script).replace(/\.[cm]?js$/, '').replace(/[^A-Za-z0-9_-]/g, '').slice(0, 16) || 'nodebot';
  }
  const letters = 'abcdefghjkmnpqrstuvwxyz23456789';
  let suffix = '';
  for (let i = 0; i < 4; i += 1) suffix += letters[Math.floor(Math.random() * letters.length)];
  return `${stem}-${suffix}`;
}

module.exports = { defaultTokenFile, defaultName };
