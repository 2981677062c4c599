// @ts-check
/**
 * The leaderboard: the best ratings of a pool.
 * @module
 */

import { $, getJson, h } from './api.js';

/**
 * @typedef {{rank: number, name: string, rating: number, deviation: number, games: number, provisional: boolean}} Line
 * @typedef {{pool: string, name: string, pools: Array<{id: string, name: string}>, rows: Line[]}} Board
 */

/** @param {string} pool */
async function show(pool) {
  /** @type {Board} */
  const b = await getJson(`/api/leaderboard?pool=${encodeURIComponent(pool)}`);
  const sel = /** @type {HTMLSelectElement} */ ($('#pool'));
  if (!sel.options.length) {
    for (const p of b.pools) sel.append(h('option', { value: p.id }, [p.name]));
  }
  sel.value = b.pool;
  $('#board').replaceChildren(
    h('tr', {}, ['#', 'Player', 'Rating', 'Deviation', 'Games'].map((t) => h('th', {}, [t]))),
    ...(b.rows.length
      ? b.rows.map((r) =>
          h('tr', {}, [
            h('td', {}, [String(r.rank)]),
            h('td', {}, [h('a', { href: `/profile/${encodeURIComponent(r.name)}` }, [r.name])]),
            h('td', { class: 'rating' }, [`${r.rating}${r.provisional ? '?' : ''}`]),
            h('td', {}, [`±${r.deviation}`]),
            h('td', {}, [String(r.games)]),
          ]),
        )
      : [h('tr', {}, [h('td', { colspan: '5', class: 'muted' }, ['No rated game in this pool yet.'])])]),
  );
}

async function main() {
  const sel = /** @type {HTMLSelectElement} */ ($('#pool'));
  sel.addEventListener('change', () => {
    history.replaceState(null, '', `?pool=${encodeURIComponent(sel.value)}`);
    show(sel.value);
  });
  await show(new URLSearchParams(location.search).get('pool') || 'duo');
}

main();
