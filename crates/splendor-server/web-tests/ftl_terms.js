// The game's terms from the server's .ftl files, as /terms.js brings them
// to the page (l10n::page_terms_script): `color-white = wit` is the entry
// color.white of the Dutch table. A helper of the tests, not a test.
'use strict';

const fs = require('node:fs');
const path = require('node:path');

function ftlTerms(lang) {
  const file = path.join(__dirname, '..', '..', 'splendor-words', 'locales', lang, 'server.ftl');
  const terms = {};
  for (const [, color, word] of fs.readFileSync(file, 'utf8').matchAll(/^color-(\w+) = (.+)$/gm)) {
    terms[`color.${color}`] = word;
  }
  return terms;
}

module.exports = { ftlTerms };
