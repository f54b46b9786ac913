// The how-to-play page (issue 23, docs/BROWSER.md): static texts in the
// page's language, with the language switch; the gems on its example
// card, noble and tokens drawn as the table draws them.
'use strict';

initLang();
for (const chip of document.querySelectorAll('.chip')) {
  const color = TOKENS.find((c) => chip.classList.contains(`gem-${c}`));
  if (color) chip.prepend(gemIcon(color, chip.classList.contains('bonus-mark') ? 'big' : ''));
}
