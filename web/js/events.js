// @ts-check
/**
 * The tournaments page: create an event (online in this web app, or over the board) and
 * list the events this browser organises or plays in.
 * @module
 */

import { $, getJson, h, postJson } from './api.js';
import { fillTimeControls, timeControl } from './time-controls.js';
import { allEvents, setEventToken } from './tokens.js';

/** @typedef {import('./api.js').VariantSummary} VariantSummary */
/** @typedef {import('./api.js').EventView} EventView */

/** The AI levels offered for bots (the lobby explains them in full). */
const BOT_LEVELS = [
  [1, 'beginner'], [2, 'novice'], [3, 'casual'], [4, 'club'], [5, 'intermediate'],
  [6, 'strong'], [7, 'expert'], [8, 'master'], [9, 'strongest'],
];

/** @param {string} sel @returns {HTMLInputElement} */
const input = (sel) => /** @type {HTMLInputElement} */ ($(sel));

function syncMode() {
  $('#online-only').hidden = !input('#mode-online').checked;
}

/** @param {SubmitEvent} e */
async function create(e) {
  e.preventDefault();
  const err = $('#create-event-error');
  err.hidden = true;
  const online = input('#mode-online').checked;
  const entrants = /** @type {HTMLTextAreaElement} */ ($('#ev-entrants')).value
    .split('\n').map((s) => s.trim()).filter(Boolean);
  /** @type {Record<string, unknown>} */
  const body = {
    name: input('#ev-name').value.trim(),
    variant: /** @type {HTMLSelectElement} */ ($('#ev-variant')).value,
    rounds: Number(input('#ev-rounds').value),
    pairing: /** @type {HTMLSelectElement} */ ($('#ev-pairing')).value,
    short_tables: /** @type {HTMLSelectElement} */ ($('#ev-short')).value,
    entrants,
    online,
  };
  if (input('#ev-seed').value !== '') body.seed = Number(input('#ev-seed').value);
  if (online) {
    const level = Number(/** @type {HTMLSelectElement} */ ($('#ev-bot-level')).value);
    body.bots = Array.from({ length: Number(input('#ev-bots').value) || 0 }, () => ({ level }));
    body.auto_pair = input('#ev-auto').checked;
    const clock = timeControl(/** @type {HTMLSelectElement} */ ($('#ev-clock')).value);
    if (clock) body.clock = clock;
    if (input('#ev-rated').checked) body.rated = true;
  }
  const btn = /** @type {HTMLButtonElement} */ ($('#create-event-btn'));
  btn.disabled = true;
  try {
    /** @type {EventView} */
    const v = await postJson('/api/tournaments', body);
    if (v.organiser_token) setEventToken(v.id, 'organiser', v.organiser_token);
    location.href = `/event/${v.id}`;
  } catch (x) {
    err.textContent = /** @type {Error} */ (x).message;
    err.hidden = false;
    btn.disabled = false;
  }
}

async function listMine() {
  const ul = $('#my-events');
  const ids = Object.keys(allEvents());
  if (!ids.length) {
    ul.replaceChildren(h('li', { class: 'muted' }, ['None yet.']));
    return;
  }
  const items = await Promise.all(ids.map(async (id) => {
    const roles = allEvents()[id];
    const role = roles.organiser ? 'organiser' : 'player';
    try {
      /** @type {EventView} */
      const v = await getJson(`/api/tournaments/${id}`);
      const done = v.finished ? 'finished' : v.event.rounds.length ? `round ${v.event.rounds.length} of ${v.event.config.rounds}` : 'registration';
      return h('li', {}, [h('a', { href: `/event/${id}` }, [v.event.config.name]), ` · ${v.event.config.variant} · ${done} · ${role}`]);
    } catch {
      return null;
    }
  }));
  ul.replaceChildren(...items.filter((x) => x !== null));
}

async function init() {
  /** @type {VariantSummary[]} */
  const variants = await getJson('/api/variants');
  const sel = /** @type {HTMLSelectElement} */ ($('#ev-variant'));
  for (const v of variants) {
    const o = /** @type {HTMLOptionElement} */ (h('option', { value: v.id }, [`${v.name} (${v.players} players a table)`]));
    if (v.id === 'duo') o.selected = true;
    sel.append(o);
  }
  const lv = /** @type {HTMLSelectElement} */ ($('#ev-bot-level'));
  for (const [l, name] of BOT_LEVELS) {
    const o = /** @type {HTMLOptionElement} */ (h('option', { value: String(l) }, [`${l} · ${name}`]));
    if (l === 3) o.selected = true;
    lv.append(o);
  }
  fillTimeControls(/** @type {HTMLSelectElement} */ ($('#ev-clock')));
  for (const r of document.querySelectorAll('input[name=mode]')) r.addEventListener('change', syncMode);
  syncMode();
  $('#create-event').addEventListener('submit', (e) => create(/** @type {SubmitEvent} */ (e)));
  await listMine();
}

init().catch((e) => {
  const err = $('#create-event-error');
  err.textContent = `Could not load: ${e.message}`;
  err.hidden = false;
});
