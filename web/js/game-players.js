// @ts-check
/**
 * The accounts at a game's table: whether the game is rated, and each seat's player
 * with their rating in the game's pool (or the computer level's fixed rating). Shown in
 * the Players panel of the game page and of the Blokus 3D page; asked again when the
 * game ends (ratings change then).
 * @module
 */

import { getJson, h, title } from './api.js';
// The Players panel this fills in is drawn by the side column's module.
import './table-side.js';

/**
 * @typedef {{seat: number, name?: string, rating?: number, provisional: boolean}} SeatPlayer
 * @typedef {{rated: boolean, pool: string, pool_name: string, seats: SeatPlayer[]}} Players
 */

const id = location.pathname.split('/').pop() || '';

/** @returns {Promise<boolean>} whether the game is over */
async function render() {
  const host = document.getElementById('accounts');
  if (!host) return true;
  /** @type {Players} */
  const p = await getJson(`/api/games/${id}/players`);
  /** @type {import('./api.js').GameState} */
  const st = await getJson(`/api/games/${id}`);
  const rows = p.seats
    .filter((s) => s.name || p.rated)
    .map((s) => {
      const seat = st.seats[s.seat];
      const who = s.name
        ? h('a', { href: `/profile/${encodeURIComponent(s.name)}` }, [s.name])
        : seat && seat.kind === 'ai' ? `Computer (level ${seat.level})` : 'guest';
      const colours = seat ? seat.colours.map(title).join(' + ') : `Seat ${s.seat + 1}`;
      return h('li', { 'data-seat': String(s.seat) }, [
        h('span', { class: 'muted' }, [`${colours}: `]),
        who,
        s.rating !== undefined ? h('span', { class: 'rating' }, [` ${s.rating}${s.provisional ? '?' : ''}`]) : '',
      ]);
    });
  host.replaceChildren(
    ...(p.rated ? [h('p', { class: 'badge rated-badge' }, [`Rated · ${p.pool_name}`])] : []),
    ...(rows.length ? [h('ul', { class: 'seat-accounts' }, rows)] : []),
  );
  return st.over;
}

async function main() {
  // The 3D page's create form lives at /cube: no game there yet.
  if (!/^[0-9a-f]{16}$/.test(id)) return;
  // Until the game is over, look again now and then (a seat may be taken, the game end).
  for (;;) {
    const over = await render().catch(() => false);
    if (over) {
      // The rating is settled a moment after the last move.
      await new Promise((r) => setTimeout(r, 1500));
      await render().catch(() => false);
      return;
    }
    await new Promise((r) => setTimeout(r, 5000));
  }
}

main();
