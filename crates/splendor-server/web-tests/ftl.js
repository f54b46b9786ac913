// The page's Fluent sources as the server hands them over in /l10n.js
// (l10n::page_l10n_script): each language's page.ftl and server.ftl, read
// from crates/splendor-words/locales. A helper of the tests, not a test.
'use strict';

const fs = require('node:fs');
const path = require('node:path');
const { FluentResource } = require('../web/vendor/fluent-bundle.js');

const LOCALES = path.join(__dirname, '..', '..', 'splendor-words', 'locales');

function sources(lang) {
  const read = (file) => fs.readFileSync(path.join(LOCALES, lang, file), 'utf8');
  return { page: read('page.ftl'), server: read('server.ftl') };
}

// The ids of the messages of a language's page.ftl, in order.
function pageIds(lang) {
  return new FluentResource(sources(lang).page).body.filter((entry) => entry.id && !entry.id.startsWith('-')).map((entry) => entry.id);
}

// Every language's sources handed to i18n.js, as /l10n.js does.
function load(i18n) {
  for (const lang of i18n.LANGS) i18n.addSources(lang, sources(lang));
}

module.exports = { sources, pageIds, load };
