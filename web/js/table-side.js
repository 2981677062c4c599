// @ts-check
/**
 * The side column a game page shares with every other game page, flat or Blokus 3D: the
 * game-over panel, the Players panel (seats, spectators, invitation, one's name), the
 * chat, the score, and the moves with the replay bar and the record; and what every page
 * does with them (joining with this device's seats, the name, the spectators' count, the
 * replay bar, the rematch offer, the messages every game sends).
 *
 * A page declares its column as `<aside class="side-col" data-side-panels ...>`; importing
 * this module fills it before the page's own code runs. Attributes: `data-analysis` (a
 * panel for the finished game's analysis), `data-accounts` (the seats' accounts),
 * `data-json` (a JSON record download beside the `.blksgf` one).
 * @module
 */

import { $, h } from './api.js';
import { clearNotices, notify } from './notices.js';
import { addTokens, displayName, setDisplayName, tokensFor } from './tokens.js';

/**
 * The panels of one side column, as its attributes ask.
 * @param {HTMLElement} aside
 */
function fill(aside) {
  const json = aside.hasAttribute('data-json');
  const button = (/** @type {string} */ id, /** @type {string} */ title, /** @type {string} */ label, /** @type {string} */ text) =>
    h('button', { id, type: 'button', title, 'aria-label': label }, [text]);
  aside.replaceChildren(
    h('div', { id: 'gameover', class: 'panel gameover', hidden: '' }),
    ...(aside.hasAttribute('data-analysis') ? [h('div', { id: 'analysis', class: 'panel analysis', hidden: '' })] : []),
    h('div', { class: 'panel' }, [
      h('h2', {}, ['Players ', h('span', { id: 'spectators', class: 'spectators muted small-text', 'aria-live': 'polite' })]),
      h('div', { id: 'seats' }),
      ...(aside.hasAttribute('data-accounts') ? [h('div', { id: 'accounts', class: 'accounts' })] : []),
      h('div', { id: 'share', class: 'share', hidden: '' }),
      h('form', { id: 'name-form', class: 'row name-form' }, [
        h('input', { id: 'name-input', type: 'text', maxlength: '24', autocomplete: 'nickname', 'aria-label': 'your name', placeholder: 'Your name' }),
        h('button', { type: 'submit', class: 'small' }, ['Set name']),
      ]),
    ]),
    h('div', { id: 'chat-panel', class: 'panel chat-panel' }, [
      h('h2', {}, [
        h('span', { id: 'chat-title' }, ['Chat']),
        ' ',
        h('button', { id: 'chat-hide', class: 'small chat-hide', type: 'button', 'aria-expanded': 'true', 'aria-controls': 'chat-body' }, ['Hide']),
      ]),
      h('div', { id: 'chat-body' }, [
        h('p', { id: 'chat-who', class: 'muted small-text chat-who' }),
        h('ol', { id: 'chat-log', class: 'chat-log', 'aria-live': 'polite', 'aria-label': 'chat messages' }),
        h('form', { id: 'chat-form', class: 'row' }, [
          h('input', { id: 'chat-input', type: 'text', maxlength: '300', autocomplete: 'off', 'aria-label': 'chat message', placeholder: 'Say something…' }),
          h('button', { type: 'submit', class: 'small' }, ['Send']),
        ]),
        h('p', { id: 'chat-note', class: 'small-text chat-note', 'aria-live': 'polite' }),
      ]),
    ]),
    h('div', { class: 'panel' }, [h('h2', { id: 'scores-title' }, ['Score']), h('div', { id: 'scores' })]),
    h('div', { class: 'panel' }, [
      h('h2', {}, [
        'Moves ',
        h('a', { id: 'download', class: 'download', href: '#', download: '' }, [json ? '⬇ .blksgf' : '⬇ record (.blksgf)']),
        ...(json ? [' ', h('a', { id: 'download-json', class: 'download', href: '#', download: '' }, ['⬇ JSON'])] : []),
      ]),
      h('div', { id: 'replay', class: 'replay' }, [
        button('r-first', 'Start', 'first position', '«'),
        button('r-prev', 'Previous move (←)', 'previous move', '‹'),
        h('input', { id: 'r-range', type: 'range', min: '0', max: '0', value: '0', 'aria-label': 'position to show' }),
        button('r-next', 'Next move (→)', 'next move', '›'),
        button('r-last', 'Latest (live)', 'latest position (live)', '»'),
        h('span', { id: 'r-label', class: 'r-label' }),
      ]),
      h('ol', { id: 'moves', class: 'moves' }),
    ]),
  );
}

for (const aside of document.querySelectorAll('aside[data-side-panels]')) fill(/** @type {HTMLElement} */ (aside));

/**
 * Takes this device's seats of a game (with its player's name); a spectator gives the
 * name for the chat. Logged in, one goes by the account's user name (the server shows it
 * for the seats the account plays, whatever is sent).
 * @param {{send: (m: object) => boolean}} sock
 * @param {string} gameId
 * @param {string} accountName '' for a guest
 */
export function joinGame(sock, gameId, accountName) {
  const tokens = tokensFor(gameId).map((t) => t.token);
  const name = accountName || displayName();
  if (tokens.length) sock.send(name ? { type: 'join', tokens, name } : { type: 'join', tokens });
  else if (name) sock.send({ type: 'name', name });
}

/**
 * Wires the name box: it shows this device's name (or the account's) and sends a new one,
 * kept on the device, to the server (which checks it).
 * @param {(m: object) => boolean} send sends a message; false when not connected
 * @param {string} accountName '' for a guest
 */
export function bindNameForm(send, accountName) {
  const input = /** @type {HTMLInputElement} */ ($('#name-input'));
  input.value = accountName || displayName();
  $('#name-form').addEventListener('submit', (ev) => {
    ev.preventDefault();
    const name = input.value.trim().replace(/\s+/g, ' ');
    if (!name) return;
    setDisplayName(name);
    if (!send({ type: 'name', name })) notify('Not connected; the name was not sent.', 'error');
  });
}

/**
 * Wires the replay bar.
 * @param {(ply: number|null) => void} go shows the position after `ply` moves (null: live)
 * @param {() => number} shown the number of moves of the position shown
 */
export function bindReplay(go, shown) {
  $('#r-first').addEventListener('click', () => go(0));
  $('#r-prev').addEventListener('click', () => go(Math.max(0, shown() - 1)));
  $('#r-next').addEventListener('click', () => go(shown() + 1));
  $('#r-last').addEventListener('click', () => go(null));
  $('#r-range').addEventListener('input', (ev) => go(Number(/** @type {HTMLInputElement} */ (ev.target).value)));
}

/**
 * The replay bar for the position shown.
 * @param {number|null} viewPly the move replayed, null when live
 * @param {number} total moves played
 */
export function renderReplay(viewPly, total) {
  const range = /** @type {HTMLInputElement} */ ($('#r-range'));
  const cur = viewPly === null ? total : viewPly;
  range.max = String(total);
  range.value = String(cur);
  $('#r-label').textContent = viewPly === null ? `move ${cur} (live)` : `move ${cur} of ${total}`;
  range.setAttribute('aria-valuetext', $('#r-label').textContent || '');
  $('#replay').classList.toggle('replaying', viewPly !== null);
}

/**
 * Says how many watch without a seat.
 * @param {number} n
 */
export function renderSpectators(n) {
  $('#spectators').textContent = n === 0 ? 'no spectators' : `${n} spectator${n === 1 ? '' : 's'} watching`;
}

/**
 * The end screen's rematch: the offer of the players who asked, the button for this
 * device's players (asking, accepting, or going to the new game) and a spectator's link
 * to watch it.
 * @param {{you?: number[], rematch: {id: string, accepted: number[]}|null}} s the game's state
 * @param {{send: (m: object) => boolean}} sock
 * @param {(seat: number) => string} seatLabel who sits at a seat
 * @param {string} path where games of this kind are, `/game/` or `/cube/`
 * @returns {{offer: HTMLElement[], button: HTMLElement, watch: HTMLElement[]}}
 */
export function rematchControls(s, sock, seatLabel, path) {
  const mine = s.you || [];
  const r = s.rematch;
  const asked = !!r && mine.length > 0 && mine.every((seat) => r.accepted.includes(seat));
  const button = h('button', { type: 'button', class: 'primary', id: 'rematch' }, [
    !r ? 'Rematch' : asked ? 'Go to the rematch' : 'Accept the rematch',
  ]);
  button.addEventListener('click', () => sock.send({ type: 'rematch' }) || notify('Not connected; try again.', 'error'));
  button.hidden = mine.length === 0;
  /** @type {HTMLElement[]} */
  const offer = [];
  if (r && !asked) {
    const by = r.accepted.map(seatLabel).join(', ');
    offer.push(h('p', { class: 'rematch-offer', id: 'rematch-offer' }, [`${by} asks for a rematch (colours rotated).`]));
  }
  const watch = r && mine.length === 0 ? [h('a', { class: 'button', href: `${path}${r.id}`, id: 'watch-rematch' }, ['Watch the rematch'])] : [];
  return { offer, button, watch };
}

/**
 * What every game page does with the messages about the people at the table: chat lines,
 * the spectators' count, the rematch (off to the new game with this device's seats), the
 * end of the game, and refusals (a chat line's under the chat's input; a refused name is
 * not kept on the device; the others shown as a notice).
 * @param {{type: string, [k: string]: any}} m
 * @param {import('./chat.js').ChatPanel} chat
 * @param {(n: number) => void} viewers takes the new number of spectators
 * @returns {boolean} whether the message was one of these
 */
export function tableMessage(m, chat, viewers) {
  switch (m.type) {
    case 'chat':
      chat.add(/** @type {any} */ (m));
      return true;
    case 'chat_history':
      chat.history(m.channel, m.lines);
      return true;
    case 'viewers':
      viewers(m.spectators);
      return true;
    case 'rematch':
      addTokens(m.id, m.tokens);
      location.href = m.url;
      return true;
    case 'game_over':
      // The end screen says it all; pending notices would only cover it.
      clearNotices();
      return true;
    case 'error':
      if (m.code === 'bad_chat' || (m.code === 'rate_limited' && m.message.includes('chatting'))) chat.note(m.message, true);
      else {
        if (m.code === 'bad_name') setDisplayName('');
        notify(m.message, 'error');
      }
      return true;
    default:
      return false;
  }
}
