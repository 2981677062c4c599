// @ts-check
/**
 * A player's profile: ratings per pool, the rating history drawn as an SVG graph, and
 * the games played with links to their replays, and the events played with their places.
 * @module
 */

import { $, getJson, h } from './api.js';

/**
 * @typedef {{pool: string, pool_name: string, rating: number, deviation: number, games: number, provisional: boolean}} RatingRow
 * @typedef {{pool: string, game: string, before: number, rating: number, deviation: number, at: number}} HistoryRow
 * @typedef {import('./api.js').GameSummary & {rated: boolean}} ProfileGame
 * @typedef {{id: string, name: string, variant: string, created: number, rated: boolean, finished: boolean, place: number|null, shared: boolean, entrants: number}} EventPlayed
 * @typedef {{name: string, created: number, ratings: RatingRow[], history: HistoryRow[], games: ProfileGame[], events: EventPlayed[]}} Profile
 */

const SVG = 'http://www.w3.org/2000/svg';

/** Line colours of the pools in the graph, in order of appearance. */
const LINE_COLOURS = ['#3b6fe0', '#e0413a', '#23a559', '#f07f1d', '#8e4fc9', '#f2b705'];

/**
 * An SVG element.
 * @param {string} tag
 * @param {Record<string, string|number>} attrs
 * @param {Array<Node|string>} [children]
 * @returns {SVGElement}
 */
function s(tag, attrs, children = []) {
  const el = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, String(v));
  for (const c of children) el.append(c);
  return el;
}

/**
 * @param {number} t unix seconds
 * @returns {string}
 */
const day = (t) => new Date(t * 1000).toLocaleDateString();

/**
 * The rating history: one line per pool over the rated games in order (x: the n-th
 * rated game of the player, y: the rating after it), starting from the rating before
 * the first game.
 * @param {HistoryRow[]} history
 * @param {Map<string, string>} names pool id to name
 * @returns {Node}
 */
function graph(history, names) {
  if (!history.length) return h('p', { class: 'muted' }, ['No rated game yet.']);
  const W = 640;
  const H = 260;
  const pad = { l: 48, r: 12, t: 12, b: 28 };
  /** @type {Map<string, Array<[number, number]>>} */
  const lines = new Map();
  history.forEach((row, i) => {
    if (!lines.has(row.pool)) lines.set(row.pool, [[i, row.before]]);
    /** @type {Array<[number, number]>} */ (lines.get(row.pool)).push([i + 1, row.rating]);
  });
  const ys = [...lines.values()].flat().map((p) => p[1]);
  let lo = Math.floor((Math.min(...ys) - 20) / 50) * 50;
  let hi = Math.ceil((Math.max(...ys) + 20) / 50) * 50;
  if (hi - lo < 100) { lo -= 50; hi += 50; }
  const n = history.length;
  const x = (/** @type {number} */ i) => pad.l + (i / Math.max(1, n)) * (W - pad.l - pad.r);
  const y = (/** @type {number} */ r) => pad.t + ((hi - r) / (hi - lo)) * (H - pad.t - pad.b);
  const grid = [];
  const step = (hi - lo) / 4;
  for (let k = 0; k <= 4; k++) {
    const r = lo + k * step;
    grid.push(
      s('line', { x1: pad.l, x2: W - pad.r, y1: y(r), y2: y(r), class: 'grid' }),
      s('text', { x: pad.l - 6, y: y(r) + 4, 'text-anchor': 'end', class: 'axis' }, [String(Math.round(r))]),
    );
  }
  grid.push(s('text', { x: W - pad.r, y: H - 6, 'text-anchor': 'end', class: 'axis' }, [`rated games: ${n}`]));
  const legend = [];
  let c = 0;
  const paths = [];
  for (const [pool, pts] of lines) {
    const colour = LINE_COLOURS[c++ % LINE_COLOURS.length];
    const d = pts.map(([i, r]) => `${x(i).toFixed(1)},${y(r).toFixed(1)}`).join(' ');
    paths.push(s('polyline', { points: d, fill: 'none', stroke: colour, 'stroke-width': 2, 'data-pool': pool }));
    for (const [i, r] of pts.slice(1)) {
      paths.push(s('circle', { cx: x(i).toFixed(1), cy: y(r).toFixed(1), r: 3, fill: colour }, [
        s('title', {}, [`${names.get(pool) || pool}: ${Math.round(r)}`]),
      ]));
    }
    legend.push(h('span', { class: 'legend-item' }, [
      h('span', { class: 'chip', style: `background:${colour}` }),
      names.get(pool) || pool,
    ]));
  }
  const svg = s('svg', { viewBox: `0 0 ${W} ${H}`, role: 'img', 'aria-label': 'rating history', class: 'rating-svg' }, [...grid, ...paths]);
  return h('div', {}, [svg, h('div', { class: 'legend' }, legend)]);
}

/**
 * @param {ProfileGame} g
 * @returns {HTMLElement}
 */
function gameItem(g) {
  const mine = (g.my_seats || []).map((i) => `seat ${i + 1}`).join(', ');
  return h('li', {}, [
    h('a', { href: `/game/${g.id}` }, [h('b', {}, [g.variant])]),
    h('span', { class: 'muted' }, [` ${g.status === 'finished' ? 'replay' : g.status} · ${g.plies} moves · ${mine} · ${day(g.updated)}`]),
    g.rated ? h('span', { class: 'badge' }, ['rated']) : '',
  ]);
}

/**
 * `1st`, `2nd`, `3rd`, `4th`...
 * @param {number} n
 */
function ordinal(n) {
  const t = n % 100;
  const suffix = t >= 11 && t <= 13 ? 'th' : ['th', 'st', 'nd', 'rd'][n % 10] || 'th';
  return `${n}${suffix}`;
}

/**
 * @param {EventPlayed} e
 * @returns {HTMLElement}
 */
function eventItem(e) {
  const place = e.place === null ? '' : `${ordinal(e.place)}${e.shared ? '=' : ''} of ${e.entrants}`;
  const where = e.finished ? `final place ${place}` : `under way${place ? `, ${place} so far` : ''}`;
  return h('li', { 'data-event': e.id }, [
    h('a', { href: `/event/${e.id}` }, [h('b', {}, [e.name])]),
    h('span', { class: 'muted' }, [` ${e.variant} · ${day(e.created)} · ${where}`]),
    e.rated ? h('span', { class: 'badge' }, ['rated']) : '',
  ]);
}

async function main() {
  const name = decodeURIComponent(location.pathname.split('/').pop() || '');
  /** @type {Profile} */
  let p;
  try {
    p = await getJson(`/api/users/${encodeURIComponent(name)}`);
  } catch (e) {
    $('#player-name').textContent = name;
    $('#since').textContent = /** @type {Error} */ (e).message;
    return;
  }
  document.title = `${p.name} · Blokus`;
  $('#player-name').textContent = p.name;
  $('#since').textContent = `Playing since ${day(p.created)}`;
  const names = new Map(p.ratings.map((r) => [r.pool, r.pool_name]));
  $('#ratings').replaceChildren(
    ...(p.ratings.length
      ? [
          h('tr', {}, ['Pool', 'Rating', 'Deviation', 'Games'].map((t) => h('th', {}, [t]))),
          ...p.ratings.map((r) =>
            h('tr', { 'data-pool': r.pool }, [
              h('td', {}, [r.pool_name]),
              h('td', { class: 'rating' }, [`${r.rating}${r.provisional ? '?' : ''}`]),
              h('td', {}, [`±${r.deviation}`]),
              h('td', {}, [String(r.games)]),
            ]),
          ),
        ]
      : [h('tr', {}, [h('td', { class: 'muted' }, ['No rated game yet.'])])]),
  );
  $('#graph').replaceChildren(graph(p.history, names));
  $('#games').replaceChildren(
    ...(p.games.length ? p.games.map(gameItem) : [h('li', { class: 'muted' }, ['No games yet.'])]),
  );
  $('#events').replaceChildren(
    ...(p.events.length ? p.events.map(eventItem) : [h('li', { class: 'muted' }, ['No events yet.'])]),
  );
}

main();
