// @ts-check
/**
 * The account links of every page's top bar: "Log in / Sign up" for guests; the
 * account's name (its profile) and "Log out" when logged in; the leaderboard for all.
 * A logged-in browser also receives the seat tokens of the account's unfinished games,
 * so they can be played on this device.
 * @module
 */

import { account, getJson, h, postJson } from './api.js';
import { addTokens } from './tokens.js';

/** @typedef {import('./api.js').Account} Account */

/**
 * Takes the seat tokens of the account's unfinished games into this browser.
 * @returns {Promise<void>}
 */
export async function syncTokens() {
  /** @type {Array<{game: string, seat: number, token: string}>} */
  const rows = await getJson('/api/account/tokens');
  /** @type {Record<string, Array<{seat: number, token: string}>>} */
  const byGame = {};
  for (const r of rows) (byGame[r.game] ||= []).push({ seat: r.seat, token: r.token });
  for (const [game, tokens] of Object.entries(byGame)) addTokens(game, tokens);
}

/**
 * Renders the account links into the page's top bar.
 * @param {Account|null} me
 */
function render(me) {
  const bar = document.querySelector('.topbar');
  if (!bar) return;
  bar.querySelector('.account-nav')?.remove();
  const links = [h('a', { href: '/leaderboard', class: 'leaderboard-link' }, ['Leaderboard'])];
  if (me) {
    const out = h('button', { type: 'button', class: 'small', id: 'logout' }, ['Log out']);
    out.addEventListener('click', async () => {
      try {
        await postJson('/api/logout', {});
      } finally {
        location.href = '/';
      }
    });
    links.push(
      h('a', { href: `/profile/${encodeURIComponent(me.name)}`, id: 'me', title: 'your profile' }, [me.name]),
      out,
    );
  } else {
    links.push(h('a', { href: '/account', id: 'login-link' }, ['Log in · Sign up']));
  }
  bar.append(h('nav', { class: 'account-nav', 'aria-label': 'account' }, links));
}

async function main() {
  const me = await account();
  render(me);
  if (me) await syncTokens().catch(() => undefined);
}

main();
