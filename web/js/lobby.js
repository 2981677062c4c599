// @ts-check
/**
 * The lobby: create a game in any variant with any seats, list my, open, running and
 * finished games.
 * @module
 */

import { $, account, colourHex, getJson, h, postJson, title } from './api.js';
import { fillTimeControls, timeControl } from './time-controls.js';
import { addTokens, allTokens } from './tokens.js';

/** @typedef {import('./api.js').VariantSummary} VariantSummary */
/** @typedef {import('./api.js').GameSummary} GameSummary */

/** @type {VariantSummary[]} */
let variants = [];
/**
 * The Blokus 3D variants (`/api/cube-variants`): their games are listed with the others
 * and open on the 3D page.
 * @type {Array<{id: string, name: string}>}
 */
let cubeVariants = [];

const SEAT_KINDS = [
  ['me', 'Me'],
  ['ai', 'Computer'],
  ['human', 'Another person (share a link)'],
  ['hotseat', 'Hot-seat (this device)'],
];

/**
 * The AI levels for people (docs/ai.md: up to level 8 each level searches 2 to 2.5 times
 * as many positions per move as the one below, fewer in the opening and more later).
 */
const LEVELS = [
  [1, 'beginner', 'plays plausible but weak moves, on purpose'],
  [2, 'novice', '25 simulations per move'],
  [3, 'casual', '60 simulations per move'],
  [4, 'club', '150 simulations per move'],
  [5, 'intermediate', '400 simulations per move'],
  [6, 'strong', '1,000 simulations per move'],
  [7, 'expert', '2,500 simulations per move'],
  [8, 'master', '5,000 simulations per move'],
  [9, 'strongest', '40,000 simulations per move, about a second'],
];

/** The level a new AI seat starts with. */
const DEFAULT_LEVEL = 3;

/** @returns {VariantSummary} */
function current() {
  const id = /** @type {HTMLSelectElement} */ ($('#variant')).value;
  return variants.find((v) => v.id === id) || variants[0];
}

function renderVariant() {
  const v = current();
  $('#variant-desc').replaceChildren(
    `${v.description}. ${v.board}, ${v.piece_set} set, ${v.colours.length} colours, ${v.players} players. `,
    h('a', { href: `/howto.html?variant=${encodeURIComponent(v.id)}` }, ['How to play']),
  );
  $('#alt-wrap').hidden = !v.alternate_contact;
  if (!v.alternate_contact) /** @type {HTMLInputElement} */ ($('#alternate')).checked = false;
  const rows = v.seat_names.map((name, i) => {
    const colours = v.pie ? [] : name.split(' ')[0].split('+');
    const kind = /** @type {HTMLSelectElement} */ (
      h('select', { 'data-seat': String(i), class: 'seat-kind', 'aria-label': `seat ${i + 1}` })
    );
    for (const [value, label] of SEAT_KINDS) {
      const o = /** @type {HTMLOptionElement} */ (h('option', { value }, [label]));
      if ((i === 0 && value === 'me') || (i > 0 && value === 'ai')) o.selected = true;
      kind.append(o);
    }
    const level = /** @type {HTMLSelectElement} */ (h('select', { class: 'seat-level', 'aria-label': `AI level of seat ${i + 1}` }));
    for (const [l, name, what] of LEVELS) {
      const o = /** @type {HTMLOptionElement} */ (h('option', { value: String(l), title: String(what) }, [`${l} · ${name}`]));
      if (l === DEFAULT_LEVEL) o.selected = true;
      level.append(o);
    }
    const sync = () => {
      level.hidden = kind.value !== 'ai';
      $('#levels-help').hidden = !document.querySelector('.seat-kind option[value=ai]:checked');
    };
    kind.addEventListener('change', sync);
    sync();
    return h('div', { class: 'seat-row' }, [
      h('span', { class: 'seat-label' }, [
        ...colours.map((c) => h('span', { class: 'chip', style: `background:${colourHex(c)}` })),
        v.pie ? `Player ${i + 1}${i === 0 ? ' (opens)' : ' (chooses colour)'}` : name.split('+').map(title).join(' + '),
        v.teams ? h('span', { class: 'muted' }, [` · team ${v.teams[i] + 1}`]) : '',
      ]),
      kind,
      level,
    ]);
  });
  $('#seats').replaceChildren(...rows);
  $('#levels-help').hidden = !rows.length || !document.querySelector('.seat-kind option[value=ai]:checked');
}

/** @param {SubmitEvent} ev */
async function create(ev) {
  ev.preventDefault();
  const v = current();
  const seats = [...document.querySelectorAll('.seat-row')].map((row) => {
    const kind = /** @type {HTMLSelectElement} */ ($('.seat-kind', row)).value;
    const level = Number(/** @type {HTMLSelectElement} */ ($('.seat-level', row)).value);
    return kind === 'ai' ? { kind, level } : { kind };
  });
  const body = {
    variant: v.id,
    options: { alternate_contact: /** @type {HTMLInputElement} */ ($('#alternate')).checked },
    seats,
    clock: timeControl(/** @type {HTMLSelectElement} */ ($('#clock')).value),
    rated: /** @type {HTMLInputElement} */ ($('#rated')).checked,
  };
  const err = $('#create-error');
  err.hidden = true;
  try {
    /** @type {{id: string, url: string, tokens: Array<{seat: number, token: string}>}} */
    const r = await postJson('/api/games', body);
    addTokens(r.id, r.tokens);
    location.href = r.url;
  } catch (e) {
    err.textContent = /** @type {Error} */ (e).message;
    err.hidden = false;
  }
}

/**
 * @param {number} t unix seconds
 * @returns {string}
 */
function ago(t) {
  const s = Math.max(0, Date.now() / 1000 - t);
  if (s < 60) return 'just now';
  if (s < 3600) return `${Math.floor(s / 60)} min ago`;
  if (s < 86400) return `${Math.floor(s / 3600)} h ago`;
  return `${Math.floor(s / 86400)} d ago`;
}

/**
 * @param {GameSummary} g
 * @returns {HTMLElement}
 */
function gameItem(g) {
  const cube = cubeVariants.find((x) => x.id === g.variant);
  const v = cube || variants.find((x) => x.id === g.variant);
  /** An account's rating next to its name: `alice 1523`, `bob 1500?` while provisional. */
  const rated = (/** @type {number} */ i) => {
    const r = (g.ratings || []).find((x) => x.seat === i);
    return r ? ` ${r.rating}${r.provisional ? '?' : ''}` : '';
  };
  const seats = g.seats
    .map((s, i) => (s.kind === 'ai' ? `AI ${s.level}` : s.name ? `${s.name}${rated(i)}` : s.kind === 'human' && !s.claimed ? 'open' : 'person'))
    .join(' · ');
  return h('li', {}, [
    h('a', { href: `/${cube ? 'cube' : 'game'}/${g.id}` }, [
      h('b', {}, [v ? v.name : g.variant]),
      h('span', { class: 'muted' }, [` ${seats}${g.clock ? `, ${g.clock}` : ''} — ${g.plies} moves, ${ago(g.updated)}`]),
    ]),
  ]);
}

async function refreshLists() {
  const tokens = allTokens();
  /** @type {import('./api.js').GameLists} */
  const lists = await getJson(`/api/games${tokens.length ? `?mine=${tokens.slice(-200).join(',')}` : ''}`);
  /** @param {string} sel @param {GameSummary[]} games @param {string} empty */
  const fill = (sel, games, empty) => {
    const el = $(sel);
    el.replaceChildren(...(games.length ? games.map(gameItem) : [h('li', { class: 'muted' }, [empty])]));
  };
  fill('#mine', lists.mine || [], 'No games yet: start one!');
  fill('#open', lists.open, 'No game is waiting for a player.');
  // The server leaves out games abandoned before their first move.
  fill('#running', lists.running, 'No game in progress.');
  fill('#finished', lists.finished, 'No finished game yet.');
}

async function main() {
  fillTimeControls(/** @type {HTMLSelectElement} */ ($('#clock')));
  [variants, cubeVariants] = await Promise.all([getJson('/api/variants'), getJson('/api/cube-variants')]);
  const sel = /** @type {HTMLSelectElement} */ ($('#variant'));
  for (const v of variants) {
    const o = /** @type {HTMLOptionElement} */ (h('option', { value: v.id }, [`${v.name} (${v.id})`]));
    if (v.id === 'duo') o.selected = true;
    sel.append(o);
  }
  const wanted = new URLSearchParams(location.search).get('variant');
  if (wanted && variants.some((v) => v.id === wanted)) sel.value = wanted;
  sel.addEventListener('change', renderVariant);
  $('#levels-help').replaceChildren(
    h('summary', {}, ['What the AI levels mean']),
    h('ul', {}, LEVELS.map(([l, name, what]) => h('li', {}, [h('b', {}, [`${l} · ${name}`]), `: ${what}`]))),
    h('p', { class: 'muted' }, ['Each level searches two to two and a half times as many positions as the one below and beats it clearly.']),
  );
  renderVariant();
  const me = await account();
  $('#rated-wrap').hidden = !me;
  $('#rated-login').hidden = !!me;
  $('#create').addEventListener('submit', (ev) => create(/** @type {SubmitEvent} */ (ev)));
  await refreshLists();
  setInterval(() => refreshLists().catch(() => undefined), 10000);
}

main().catch((e) => {
  document.body.append(h('p', { class: 'error' }, [`Cannot reach the server: ${e.message}`]));
});
