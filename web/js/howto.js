// @ts-check
/**
 * The How-to-play page: the rules of a variant in words, drawn with the game's own board
 * code (the real board with its starting points, small diagrams of the corner rule) and
 * the rules' strategy advice.
 * @module
 */

import { $, colourHex, getJson, h, title } from './api.js';
import { BoardView, pieceSvg } from './board.js';
import { TIPS, clockRule, scoringRule, variantRules } from './rules-text.js';

/** @typedef {import('./api.js').VariantSummary} VariantSummary */
/** @typedef {import('./api.js').VariantDetail} VariantDetail */

const BASICS = [
  'Colours take turns in a fixed order; a player may play more than one colour.',
  "A colour's first piece must cover its starting point.",
  'Every later piece must touch a piece of its own colour at a corner, and must not touch one of its own colour along a side.',
  'Other colours may be touched in every way. Placed pieces never move.',
  'A colour that cannot place a piece passes for the rest of the game; the game ends when no colour can move.',
];

/** Handlers for diagrams nobody plays on. */
const STILL = { onHover: () => undefined, onTap: () => undefined };

/**
 * A small square board for a diagram, described like a variant.
 * @param {number} w
 * @param {number} hgt
 * @param {string} name
 * @returns {VariantDetail}
 */
function miniBoard(w, hgt, name) {
  /** @type {Array<[number, number, number]>} */
  const cells = [];
  const names = [];
  for (let y = 0; y < hgt; y++) {
    for (let x = 0; x < w; x++) {
      cells.push([x, y, 0]);
      names.push(`${String.fromCharCode(97 + x)}${y + 1}`);
    }
  }
  return {
    id: 'diagram', name, description: '', board: '', grid: 'square', colours: [], players: 1, seat_names: [],
    piece_set: '', alternate_contact: false, pie: false, teams: null,
    width: w, height: hgt, cells, names, starts: [], starts_per_colour: false, colour_player: [], pieces: [], shared_pool: false,
  };
}

/**
 * One diagram: pieces as lists of [x, y] on a 6 x 5 board, and optionally a ghost.
 * @param {string} caption
 * @param {boolean} ok
 * @param {string[]} colours colour of each piece
 * @param {Array<Array<[number, number]>>} pieces
 * @returns {HTMLElement}
 */
function diagram(caption, ok, colours, pieces) {
  const v = miniBoard(6, 5, caption);
  const host = h('div', { class: 'board-host' });
  const board = new BoardView(host, v, STILL);
  const owners = v.cells.map(() => -1);
  const shown = ok ? pieces : pieces.slice(0, -1);
  shown.forEach((p, k) => p.forEach(([x, y]) => (owners[y * 6 + x] = k)));
  board.render({ owners, colours, last: new Set(), attach: new Set(), attachColour: null, starts: [] });
  // The illegal placement is shown as the game shows it: a red ghost.
  if (!ok) board.showGhost(pieces[pieces.length - 1], colours[colours.length - 1], false);
  board.root.setAttribute('role', 'img');
  board.root.removeAttribute('tabindex');
  board.root.setAttribute('aria-label', caption);
  return h('figure', { class: `diagram ${ok ? 'ok' : 'bad'}` }, [host, h('figcaption', {}, [`${ok ? '✓' : '✗'} ${caption}`])]);
}

/** @param {VariantDetail} v */
function render(v) {
  const [a, b] = v.colours;
  $('#summary').textContent = `${v.description}. ${v.board}; ${v.colours.map(title).join(', ')}; ${v.players} players; ${v.piece_set} pieces.`;
  /** @type {HTMLAnchorElement} */ ($('#play')).href = `/?variant=${encodeURIComponent(v.id)}`;
  history.replaceState(null, '', `/howto.html?variant=${encodeURIComponent(v.id)}`);
  document.title = `How to play ${v.name} — Blokus`;

  const board = new BoardView($('#board'), v, STILL);
  board.render({
    owners: v.cells.map(() => -1),
    colours: v.colours,
    last: new Set(),
    attach: new Set(),
    attachColour: null,
    starts: v.starts.map((name, i) => ({ cell: v.names.indexOf(name), colour: v.starts_per_colour ? v.colours[i] : null })),
  });
  board.root.setAttribute('role', 'img');
  board.root.removeAttribute('tabindex');
  $('#board-caption').textContent = v.starts.length
    ? v.starts_per_colour
      ? `The circles are the starting points: ${v.starts.map((s, i) => `${title(v.colours[i])} ${s}`).join(', ')}.`
      : `The circles are the starting points (${v.starts.join(', ')}), open to every colour.`
    : 'No starting points: the game opens with the pie rule (below).';

  $('#basics').replaceChildren(...BASICS.map((t) => h('li', {}, [t])));
  // Drawn on squares; on Trigon boards the same holds for triangles.
  const L = /** @type {Array<[number, number]>} */ ([[0, 0], [1, 0], [2, 0], [0, 1]]);
  $('#diagrams').replaceChildren(
    diagram('Corners touch: allowed', true, [a, a], [L, [[3, 1], [3, 2], [4, 2], [3, 3]]]),
    diagram('Sides touch: not allowed', false, [a, a], [L, [[1, 1], [2, 1], [2, 2], [3, 2]]]),
    diagram(`Other colours touch anywhere`, true, [a, b], [L, [[1, 1], [2, 1], [1, 2], [1, 3]]]),
  );
  if (v.grid === 'triangle') $('#diagrams').append(h('p', { class: 'muted' }, ['On the Trigon board the same rules hold for triangles.']));

  $('#special').replaceChildren(...variantRules(v).map((t) => h('p', {}, [t])));
  const fill = colourHex(a);
  $('#pieces').replaceChildren(
    ...v.pieces.map((p) =>
      h('span', { class: 'piece', title: `${p.name}, ${p.size} cells${p.count > 1 ? `, ×${p.count}` : ''}` }, [
        pieceSvg(v.grid, p.symmetries[0], fill, v.grid === 'square' ? 0.5 : 0.55),
      ]),
    ),
  );
  $('#scoring').textContent = scoringRule(v);
  $('#clock-rule').textContent = clockRule(v);
  $('#tips').replaceChildren(...TIPS.map((t) => h('li', {}, [t])));
}

async function main() {
  /** @type {VariantSummary[]} */
  const variants = await getJson('/api/variants');
  const sel = /** @type {HTMLSelectElement} */ ($('#variant'));
  sel.replaceChildren(...variants.map((v) => h('option', { value: v.id }, [v.name])));
  const wanted = new URLSearchParams(location.search).get('variant');
  sel.value = wanted && variants.some((v) => v.id === wanted) ? wanted : 'classic';
  const show = async () => render(await getJson(`/api/variants/${encodeURIComponent(sel.value)}`));
  sel.addEventListener('change', () => show().catch((e) => ($('#summary').textContent = String(e))));
  await show();
}

main().catch((e) => {
  document.body.append(h('p', { class: 'error' }, [`Cannot reach the server: ${e instanceof Error ? e.message : e}`]));
});
