// The how-to-play page (issue 23, docs/BROWSER.md): static texts in the
// page's language, with the language switch; nothing else to draw.
'use strict';

initLang();
