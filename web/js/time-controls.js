// @ts-check
/**
 * The time controls offered when a game or an online tournament is created: one list
 * for the lobby and the tournaments page, and the reading of a choice.
 * @module
 */

import { h } from './api.js';

/** The choices by group: `[value, label]`, values `f:BASE:INCREMENT` (seconds) or `c:DAYS`. */
const GROUPS = /** @type {Array<[string, Array<[string, string]>]>} */ ([
  ['Minutes + seconds added per move', [
    ['f:60:0', '1+0 (bullet)'],
    ['f:180:2', '3+2 (blitz)'],
    ['f:300:3', '5+3 (blitz)'],
    ['f:600:5', '10+5 (rapid)'],
    ['f:900:10', '15+10 (rapid)'],
  ]],
  ['Correspondence', [
    ['c:1', '1 day per move'],
    ['c:3', '3 days per move'],
    ['c:7', '7 days per move'],
  ]],
]);

/**
 * Fills a select with "No clock" and every time control.
 * @param {HTMLSelectElement} select
 */
export function fillTimeControls(select) {
  select.replaceChildren(
    h('option', { value: '' }, ['No clock']),
    ...GROUPS.map(([label, choices]) => h('optgroup', { label }, choices.map(([value, text]) => h('option', { value }, [text])))),
  );
}

/**
 * The time control of a choice, `null` for none.
 * @param {string} value
 * @returns {import('./api.js').TimeControl|null}
 */
export function timeControl(value) {
  const [kind, a, b] = value.split(':');
  if (kind === 'f') return { type: 'fischer', base: Number(a), increment: Number(b) };
  if (kind === 'c') return { type: 'correspondence', days: Number(a) };
  return null;
}
