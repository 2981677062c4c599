// @ts-check
/**
 * A tournament's page (`/event/ID`): registration, "your table", the tables of each
 * round with their games, standings and crosstable, polled every two seconds; and, for
 * the organiser (whose token this browser holds), pairing, result entry and correction,
 * bots, numbers drawn by hand, withdrawals and the players' links.
 * @module
 */

import { $, account, colourHex, getJson, h, postJson } from './api.js';
import { addTokens, eventTokens, setEventToken } from './tokens.js';

/** @typedef {import('./api.js').EventView} EventView */
/** @typedef {import('./api.js').EventTable} EventTable */
/** @typedef {import('./api.js').VariantSummary} VariantSummary */
/** @typedef {{entrant: number, name: string, games: Array<{round: number, table: number, seat: number, game: string, seat_token: string}>}} Me */

const POLL_MS = 2000;

const id = location.pathname.split('/').filter(Boolean)[1] || '';

/** @type {EventView|null} */
let view = null;
let viewText = '';
/** @type {Me|null} */
let me = null;
/** @type {Record<string, VariantSummary>} */
const variants = {};
/** The logged-in account of this browser, if any. */
let signedIn = /** @type {import('./api.js').Account|null} */ (null);
/** The round shown in the tables panel (null: the current one). */
let shownRound = /** @type {number|null} */ (null);
/** A render postponed while the organiser types. */
let pending = false;
/** The players' links, once the organiser asked for them. */
let playerLinks = /** @type {Array<{entrant: number, name: string, token: string}>|null} */ (null);
/** The online tables whose result entry the organiser opened. */
const openEntries = new Set();

const SYSTEMS = /** @type {Record<string, string>} */ ({
  italo_svizzero: 'italo-svizzero',
  swiss: 'Swiss',
  round_robin: 'round robin',
});

const TIEBREAKS = /** @type {Record<string, string>} */ ({
  game_score: 'Score',
  buchholz: 'Buch',
  median_buchholz: 'MBuch',
  wins: 'Wins',
  head_to_head: 'H2H',
});

const LEVELS = ['beginner', 'novice', 'casual', 'club', 'intermediate', 'strong', 'expert', 'master', 'strongest'];

/**
 * Match points for people: whole, halves as `2.5`, else two decimals.
 * @param {import('./api.js').Points} p
 */
function pts(p) {
  let x = p;
  if (typeof p === 'string') {
    const [n, d] = p.split('/').map(Number);
    x = n / d;
  }
  const v = Number(x);
  return Number.isInteger(v) ? String(v) : Number.isInteger(v * 2) ? v.toFixed(1) : v.toFixed(2);
}

/**
 * "1 point", "0 points", "1.5 points": match points with their unit.
 * @param {import('./api.js').Points} p
 */
const points = (p) => `${pts(p)} ${pts(p) === '1' ? 'point' : 'points'}`;

/** @param {number} n */
const ordinal = (n) => `${n}${n % 10 === 1 && n % 100 !== 11 ? 'st' : n % 10 === 2 && n % 100 !== 12 ? 'nd' : n % 10 === 3 && n % 100 !== 13 ? 'rd' : 'th'}`;

/** @param {number} e */
function entrant(e) {
  return /** @type {EventView} */ (view).event.entrants[e];
}

/** @param {number} e a name with its pairing number */
function label(e) {
  const x = entrant(e);
  return x.number ? `${x.name} (${x.number})` : x.name;
}

/**
 * The colours of a seat at a table of this variant.
 * @param {string} variant
 * @param {number} seat
 * @returns {Node[]}
 */
function seatChips(variant, seat) {
  const v = variants[variant];
  if (!v || v.pie) return [];
  return v.seat_names[seat].split(' ')[0].split('+').map((c) => {
    const chip = h('span', { class: 'chip', title: c });
    chip.style.background = colourHex(c);
    return chip;
  });
}

function tokens() {
  return eventTokens(id);
}

/** @param {unknown} e */
function showError(e) {
  const el = $('#ev-error');
  el.textContent = /** @type {Error} */ (e).message || String(e);
  el.hidden = false;
}

/**
 * Runs an organiser action and shows its answer (or its refusal).
 * @param {string} action
 * @param {Record<string, unknown>} body
 */
async function organiser(action, body) {
  $('#ev-error').hidden = true;
  try {
    /** @type {EventView} */
    const v = await postJson(`/api/tournaments/${id}/${action}`, { token: tokens().organiser, ...body });
    await show(v, true);
  } catch (e) {
    showError(e);
  }
}

function stateLine() {
  const v = /** @type {EventView} */ (view);
  const rounds = v.event.rounds;
  const total = v.event.config.rounds;
  if (v.finished) return `Finished after ${total} round${total === 1 ? '' : 's'}.`;
  if (!rounds.length) return `Registration open: ${v.event.entrants.length} registered. Round 1 starts when the organiser pairs it.`;
  const r = rounds[rounds.length - 1];
  const waiting = r.tables.filter((t) => !t.result).length;
  if (waiting) return `Round ${r.number} of ${total} in play: ${waiting} of ${r.tables.length} table${r.tables.length === 1 ? '' : 's'} still playing.`;
  return v.online && v.auto_pair
    ? `Round ${r.number} of ${total} complete: round ${r.number + 1} is being paired.`
    : `Round ${r.number} of ${total} complete: waiting for the organiser to pair round ${r.number + 1}.`;
}

function renderHead() {
  const v = /** @type {EventView} */ (view);
  const c = v.event.config;
  document.title = `${c.name} · Blokus tournament`;
  $('#ev-title').textContent = c.name;
  const vn = variants[c.variant]?.name || c.variant;
  $('#ev-settings').textContent = `${vn} · ${c.rounds} round${c.rounds === 1 ? '' : 's'} · ${SYSTEMS[c.pairing] || c.pairing} pairing · ${c.short_tables === 'smaller' ? 'smaller tables' : 'byes'} when the tables are not full · ${v.online ? 'online, in this web app' : 'over the board'}${v.clock ? ` · clock ${v.clock.label}` : ''}${v.rated ? ' · rated' : ''}`;
  $('#ev-state').textContent = stateLine();
  /** @type {HTMLAnchorElement} */ ($('#csv')).href = `/api/tournaments/${id}/standings.csv`;
  const sgf = /** @type {HTMLAnchorElement} */ ($('#sgf'));
  sgf.href = `/api/tournaments/${id}/games.blksgf`;
  sgf.hidden = !v.games.length;
}

function renderRegister() {
  const v = /** @type {EventView} */ (view);
  const open = !v.finished && !(v.event.rounds.length && v.event.config.pairing === 'round_robin');
  $('#register').hidden = !open || !!tokens().player || !!me;
  const h2 = $('#register h2');
  h2.textContent = v.event.rounds.length ? 'Register (late entry: from the next round on)' : 'Register';
  // Logged in, the entry is the account's, under its user name; a rated event takes
  // only accounts.
  const name = /** @type {HTMLInputElement} */ ($('#reg-name'));
  name.hidden = !!signedIn;
  name.required = !signedIn;
  $('#reg-btn').textContent = signedIn ? `Enter as ${signedIn.name}` : 'Register';
  $('#reg-btn').hidden = !signedIn && v.rated;
  const note = $('#reg-note');
  note.hidden = !!signedIn && !v.rated;
  note.replaceChildren(...(signedIn
    ? ['Rated: your games here change your rating.']
    : [v.rated ? 'This event is rated: ' : 'Have an account? ',
      h('a', { href: `/account?back=${encodeURIComponent(location.pathname)}` }, ['log in']),
      v.rated ? ' to enter it.' : ' to enter under your user name.']));
}

/**
 * The rating of an entrant who plays from an account (`1523`, `1500?` while
 * provisional), or '' for others.
 * @param {number} entrant
 */
function ratingOf(entrant) {
  const a = /** @type {EventView} */ (view).accounts.find((x) => x.entrant === entrant);
  return a ? `${a.rating}${a.provisional ? '?' : ''}` : '';
}

/** The panel of the player registered from this browser. */
function renderMe() {
  const panel = $('#me');
  const v = /** @type {EventView} */ (view);
  if (!me) {
    panel.hidden = true;
    return;
  }
  panel.hidden = false;
  const mine = /** @type {Me} */ (me);
  const e = entrant(mine.entrant);
  /** @type {Node[]} */
  const out = [h('h2', {}, [`You: ${e.name}${e.number ? `, number ${e.number}` : ''}`])];
  const rounds = v.event.rounds;
  const row = v.standings.rows.find((r) => r.entrant === mine.entrant);
  if (!rounds.length) {
    out.push(h('p', {}, ['You are registered. Your table appears here when the organiser starts round 1.']));
  } else {
    const r = rounds[rounds.length - 1];
    const t = r.tables.find((x) => x.seats.includes(mine.entrant));
    const bye = r.byes.find((b) => b.entrant === mine.entrant);
    if (t) {
      const seat = t.seats.indexOf(mine.entrant);
      const others = t.seats.filter((x) => x !== mine.entrant).map(label).join(', ');
      out.push(h('p', { id: 'my-table' }, [
        h('strong', {}, [`Your table: round ${r.number}, table ${t.number}`]),
        ` · against ${others} · you play `, ...seatChips(t.variant, seat),
        seat === 0 ? ' and move first' : '',
      ]));
      const g = mine.games.find((x) => x.round === r.number && x.table === t.number);
      if (t.result) {
        const res = t.result;
        out.push(h('p', { id: 'my-result' }, [res.kind === 'played'
          ? `Result in: ${ordinal(res.places[seat])} place with ${res.scores[seat]} ${Math.abs(res.scores[seat]) === 1 ? 'point' : 'points'}.`
          : res.absent.includes(seat) ? 'Forfeit: you did not show up.' : 'Won by forfeit.']));
      }
      if (g) {
        out.push(h('p', {}, [h('a', { class: 'button primary', id: 'my-game', href: `/game/${g.game}` }, [t.result ? 'See your game' : 'Play your game'])]));
      } else if (!v.online) {
        out.push(h('p', {}, ['Over the board: go to your table; the organiser enters the result.']));
      }
    } else if (bye) {
      out.push(h('p', { id: 'my-table' }, [`Round ${r.number}: you have a bye (${points(bye.points)}).`]));
    } else {
      out.push(h('p', { id: 'my-table' }, [`You are not paired in round ${r.number}.`]));
    }
  }
  if (row && rounds.length) {
    out.push(h('p', { id: 'my-standing' }, [`${v.finished ? 'Final place' : 'Place now'}: ${row.place}${row.shared ? '=' : ''} with ${points(row.points)}.`]));
  }
  panel.replaceChildren(...out);
}

/**
 * A block of the organiser panel.
 * @param {string} title
 * @param {Node[]} children
 */
const block = (title, children) => h('div', { class: 'org-block' }, [h('h3', {}, [title]), ...children]);

function renderOrganiser() {
  const panel = $('#organiser');
  const token = tokens().organiser;
  const v = /** @type {EventView} */ (view);
  if (!token) {
    panel.hidden = true;
    return;
  }
  panel.hidden = false;
  const rounds = v.event.rounds;
  const current = rounds[rounds.length - 1];
  const incomplete = current && current.tables.some((t) => !t.result);
  /** @type {Node[]} */
  const out = [h('h2', {}, ['Organiser'])];

  const next = rounds.length + 1;
  if (next <= v.event.config.rounds) {
    const pair = /** @type {HTMLButtonElement} */ (h('button', { type: 'button', class: 'primary', id: 'pair' }, [
      rounds.length ? `${v.online ? 'Start' : 'Pair'} round ${next}` : 'Start round 1',
    ]));
    pair.disabled = !!incomplete;
    pair.addEventListener('click', () => organiser('pair', {}));
    const why = incomplete
      ? `Round ${current.number} still waits for ${current.tables.filter((t) => !t.result).length} result(s)${v.online ? '' : '; results can be corrected until the next round is paired'}.`
      : v.online && v.auto_pair && rounds.length ? 'The next round is paired by itself; you can also pair it now.' : '';
    out.push(block('Rounds', [h('div', { class: 'row wrap' }, [pair]), h('p', { class: 'muted' }, [why])]));
  } else {
    out.push(block('Rounds', [h('p', { class: 'muted' }, [`Every round is paired${v.finished ? ' and played' : ''}; the last round's results can still be corrected.`])]));
  }

  const base = `${location.origin}/event/${id}`;
  out.push(block('Links', [
    h('p', {}, ['Registration link for players and spectators:']),
    h('div', { class: 'link-box', id: 'reg-link' }, [base]),
    h('p', {}, ['Your organiser link (keep it secret: it opens these controls on another device):']),
    h('div', { class: 'link-box' }, [`${base}#organiser=${token}`]),
  ]));

  if (v.online && !v.finished) {
    const lv = /** @type {HTMLSelectElement} */ (h('select', { 'aria-label': 'bot level', id: 'bot-level' }));
    LEVELS.forEach((name, i) => lv.append(h('option', { value: String(i + 1) }, [`${i + 1} · ${name}`])));
    lv.value = '3';
    const add = h('button', { type: 'button', id: 'add-bot' }, ['Add a bot']);
    add.addEventListener('click', () => organiser('bots', { level: Number(lv.value) }));
    const links = h('div', { id: 'player-links' });
    if (playerLinks) {
      links.replaceChildren(...(playerLinks.length
        ? playerLinks.map((p) => h('p', {}, [`${p.name}: `, h('span', { class: 'link-box' }, [`${base}#player=${p.token}`])]))
        : [h('p', { class: 'muted' }, ['No player has a link yet.'])]));
    }
    const show = h('button', { type: 'button', class: 'small' }, [playerLinks ? 'Refresh the players\u2019 links' : 'Show the players\u2019 links']);
    show.addEventListener('click', async () => {
      try {
        playerLinks = await postJson(`/api/tournaments/${id}/players`, { token });
        render();
      } catch (e) {
        showError(e);
      }
    });
    out.push(block('Entrants', [
      h('div', { class: 'row wrap' }, [lv, add]),
      h('p', { class: 'muted' }, ['Each player\u2019s own link opens their table on any device.']),
      show, links,
    ]));
  }

  if (!rounds.length && v.event.entrants.length) {
    const hand = v.event.hand_draw;
    const inputs = v.event.entrants.map((e, i) => {
      const inp = /** @type {HTMLInputElement} */ (h('input', { type: 'number', min: '1', max: String(v.event.entrants.length), 'data-entrant': String(i), 'aria-label': `number drawn by ${e.name}` }));
      if (hand && hand[i] !== undefined) inp.value = String(hand[i]);
      return h('label', {}, [e.name, inp]);
    });
    const use = h('button', { type: 'button', id: 'use-numbers' }, ['Use these numbers']);
    use.addEventListener('click', () => {
      const numbers = Array.from(panel.querySelectorAll('.numbers input')).map((x) => Number(/** @type {HTMLInputElement} */ (x).value));
      organiser('numbers', { numbers });
    });
    out.push(block('Numbers drawn by hand (optional)', [
      h('p', { class: 'muted' }, [hand ? 'These numbers are used for round 1; players registering now take the next numbers.' : 'Without them, round 1 draws the numbers from the event\u2019s seed.']),
      h('div', { class: 'numbers' }, inputs), use,
    ]));
  }

  const active = v.event.entrants.filter((e) => e.withdrawn_from === null);
  if (active.length && !v.finished) {
    const sel = /** @type {HTMLSelectElement} */ (h('select', { 'aria-label': 'entrant to withdraw' }));
    for (const e of active) sel.append(h('option', { value: String(e.id) }, [e.name]));
    const go = h('button', { type: 'button' }, ['Withdraw']);
    go.addEventListener('click', () => organiser('withdraw', { entrant: Number(sel.value) }));
    out.push(block('Withdraw an entrant (from the next round on)', [h('div', { class: 'row wrap' }, [sel, go])]));
  }
  panel.replaceChildren(...out);
}

/**
 * The organiser's result entry of a table of the current round: each seat's score (the
 * places follow), or the seat that did not show up.
 * @param {number} round
 * @param {EventTable} t
 */
function resultEntry(round, t) {
  const v = /** @type {EventView} */ (view);
  const res = t.result;
  const inputs = t.seats.map((e, seat) => {
    const inp = /** @type {HTMLInputElement} */ (h('input', { type: 'number', 'aria-label': `score of ${entrant(e).name} at table ${t.number}` }));
    if (res && res.kind === 'played') inp.value = String(res.scores[seat]);
    return inp;
  });
  const save = h('button', { type: 'button', class: 'small', 'data-table': String(t.number) }, [res ? 'Correct' : 'Save']);
  save.addEventListener('click', () => {
    if (inputs.some((i) => i.value === '')) {
      showError(new Error(`table ${t.number}: enter every player's score`));
      return;
    }
    organiser('results', { round, table: t.number, scores: inputs.map((i) => Number(i.value)) });
  });
  const absent = /** @type {HTMLSelectElement} */ (h('select', { 'aria-label': `no-show at table ${t.number}` }));
  absent.append(h('option', { value: '' }, ['no-show…']));
  t.seats.forEach((e, seat) => absent.append(h('option', { value: String(seat) }, [entrant(e).name])));
  absent.addEventListener('change', () => {
    if (absent.value !== '') organiser('results', { round, table: t.number, absent: [Number(absent.value)] });
  });
  const entry = h('div', { class: 'entry' }, [...inputs, save, absent]);
  if (!v.online) return entry;
  const details = /** @type {HTMLDetailsElement} */ (h('details', {}, [h('summary', {}, ['enter by hand']), entry]));
  details.open = openEntries.has(t.number);
  details.addEventListener('toggle', () => (details.open ? openEntries.add(t.number) : openEntries.delete(t.number)));
  return details;
}

/** @param {EventTable} t */
function resultText(t) {
  const r = t.result;
  if (!r) return '';
  if (r.kind === 'forfeit') return `forfeit: ${r.absent.map((s) => entrant(t.seats[s]).name).join(', ')} absent`;
  return t.seats.map((e, s) => `${entrant(e).name} ${r.scores[s]} (${ordinal(r.places[s])})`).join(' · ');
}

function renderTables() {
  const v = /** @type {EventView} */ (view);
  const rounds = v.event.rounds;
  $('#tables-panel').hidden = !rounds.length;
  if (!rounds.length) return;
  const pick = /** @type {HTMLSelectElement} */ ($('#round-pick'));
  const n = shownRound ?? rounds.length;
  pick.replaceChildren(...rounds.map((r) => {
    const o = /** @type {HTMLOptionElement} */ (h('option', { value: String(r.number) }, [`Round ${r.number}`]));
    o.selected = r.number === n;
    return o;
  }));
  const round = rounds[n - 1];
  $('#tables-title').textContent = `Round ${round.number} of ${v.event.config.rounds}: tables`;
  const org = !!tokens().organiser && round.number === rounds.length;
  const rows = round.tables.map((t) => {
    const g = v.games.find((x) => x.round === round.number && x.table === t.number);
    const seats = h('div', {}, t.seats.map((e, s) => h('div', { class: 'seat-line' }, [...seatChips(t.variant, s), label(e), s === 0 ? h('span', { class: 'tag' }, ['first']) : ''])));
    /** @type {Node[]} */
    const game = [];
    if (g) {
      game.push(h('a', { class: 'watch', href: `/game/${g.game}` }, [g.status === 'finished' ? 'Replay' : 'Watch']));
      game.push(h('span', { class: 'muted small-text' }, [g.status === 'finished' ? ' over' : ` move ${g.plies}`]));
    }
    const result = [h('div', {}, [resultText(t) || (g ? 'playing' : 'waiting for the result')])];
    if (org) result.push(resultEntry(round.number, t));
    const mine = me && t.seats.includes(me.entrant);
    return h('tr', { class: mine ? 'mine' : '', 'data-table': String(t.number) }, [
      h('td', { class: 'num' }, [String(t.number)]),
      h('td', {}, [seats, t.variant !== v.event.config.variant ? h('span', { class: 'tag' }, [t.variant]) : '']),
      h('td', {}, result),
      h('td', {}, game),
    ]);
  });
  const table = h('table', { class: 'ev', id: 'tables-table' }, [
    h('thead', {}, [h('tr', {}, [h('th', { class: 'num' }, ['Table']), h('th', {}, ['Players (seat order)']), h('th', {}, ['Result']), h('th', {}, [v.online ? 'Game' : ''])])]),
    h('tbody', {}, rows),
  ]);
  const byes = round.byes.length
    ? h('p', { class: 'byes' }, [`Byes: ${round.byes.map((b) => `${label(b.entrant)} (${pts(b.points)})`).join(', ')}`])
    : '';
  $('#tables').replaceChildren(table, byes);
}

function renderStandings() {
  const v = /** @type {EventView} */ (view);
  const st = v.standings;
  const head = ['Place', 'No', 'Name', 'Points', ...st.tiebreaks.map((t) => TIEBREAKS[t] || t), 'Games'];
  /** @param {number} i */
  const numeric = (i) => i !== 2;
  const rows = st.rows.map((r) => {
    const e = entrant(r.entrant);
    const kind = e.kind.type === 'bot' ? h('span', { class: 'tag' }, ['bot']) : '';
    const rating = ratingOf(r.entrant);
    // An account holder's name leads to their profile, with their rating beside it.
    const name = rating
      ? [h('a', { href: `/profile/${encodeURIComponent(r.name)}` }, [r.name]), ' ', h('span', { class: 'rating', title: 'rating' }, [rating])]
      : [r.name];
    const cells = [`${r.place}${r.shared ? '=' : ''}`, r.number === null ? '' : String(r.number), '', pts(r.points), ...r.tiebreaks.map(pts), String(r.played)];
    return h('tr', { class: [me && me.entrant === r.entrant ? 'mine' : '', r.withdrawn ? 'withdrawn' : ''].join(' ').trim() },
      cells.map((c, i) => (i === 2 ? h('td', {}, [...name, ' ', kind]) : h('td', { class: numeric(i) ? 'num' : '' }, [c]))));
  });
  $('#standings').replaceChildren(h('table', { class: 'ev', id: 'standings-table' }, [
    h('thead', {}, [h('tr', {}, head.map((c, i) => h('th', { class: numeric(i) ? 'num' : '' }, [c])))]),
    h('tbody', {}, rows),
  ]));
}

function renderCrosstable() {
  const v = /** @type {EventView} */ (view);
  const rounds = v.event.rounds.length;
  $('#crosstable-panel').hidden = !rounds;
  if (!rounds) return;
  const head = ['Place', 'No', 'Name', ...v.event.rounds.map((r) => `R${r.number}`), 'Points'];
  const rows = v.crosstable.lines.map((l) => h('tr', {}, [
    h('td', { class: 'num' }, [String(l.place)]),
    h('td', { class: 'num' }, [l.number === null ? '' : String(l.number)]),
    h('td', {}, [l.name]),
    ...l.cells.map((c) => h('td', { class: 'num' }, [c])),
    h('td', { class: 'num' }, [pts(l.points)]),
  ]));
  $('#crosstable').replaceChildren(h('table', { class: 'ev', id: 'crosstable-table' }, [
    h('thead', {}, [h('tr', {}, head.map((c, i) => h('th', { class: i === 2 ? '' : 'num' }, [c])))]),
    h('tbody', {}, rows),
  ]), h('p', { class: 'muted small-text' }, [v.event.seats === 2
    ? 'Each round: the opponent\u2019s number, f or s for moving first or second, and + = - for a win, a draw or a loss.'
    : 'Each round: the table, then place / players.']));
}

/** Whether the organiser is typing in a field a render would replace. */
function editing() {
  const a = document.activeElement;
  return !!a && (a.tagName === 'INPUT' || a.tagName === 'SELECT') && !!a.closest('#organiser, #tables');
}

function render() {
  if (editing()) {
    pending = true;
    return;
  }
  pending = false;
  renderHead();
  renderRegister();
  renderMe();
  renderOrganiser();
  renderTables();
  renderStandings();
  renderCrosstable();
}

/** Fetches "your table" and remembers the seat tokens of this player's games. */
async function loadMe() {
  const token = tokens().player;
  // A logged-in account finds its entry without this browser's token.
  const v = /** @type {EventView} */ (view);
  const who = signedIn ? signedIn.name.toLowerCase() : null;
  const mine = v.accounts.some((a) => entrant(a.entrant).name.toLowerCase() === who);
  if (!token && !mine) return;
  try {
    /** @type {Me} */
    const m = await postJson(`/api/tournaments/${id}/me`, token ? { token } : {});
    for (const g of m.games) addTokens(g.game, [{ seat: g.seat, token: g.seat_token }]);
    me = m;
  } catch (e) {
    // Without a token, an account that has not entered simply has no table here.
    if (token) showError(e);
  }
}

/**
 * Shows a view of the event (when it changed, or when `force`).
 * @param {EventView} v
 * @param {boolean} [force]
 */
async function show(v, force = false) {
  const text = JSON.stringify(v);
  if (!force && text === viewText) return;
  viewText = text;
  view = v;
  await loadMe();
  render();
}

async function poll() {
  try {
    if (!document.hidden) await show(await getJson(`/api/tournaments/${id}`));
  } catch (e) {
    showError(e);
  }
  setTimeout(poll, POLL_MS);
}

/** Takes an organiser's or a player's token from the address (`#organiser=…`). */
function takeLinkToken() {
  const m = location.hash.match(/^#(organiser|player)=([0-9a-f]{32})$/);
  if (!m) return;
  setEventToken(id, /** @type {'organiser'|'player'} */ (m[1]), m[2]);
  history.replaceState(null, '', location.pathname);
}

/** @param {SubmitEvent} e */
async function register(e) {
  e.preventDefault();
  const err = $('#reg-error');
  err.hidden = true;
  const name = /** @type {HTMLInputElement} */ ($('#reg-name')).value.trim();
  try {
    /** @type {{entrant: number, token: string}} */
    const r = await postJson(`/api/tournaments/${id}/entrants`, signedIn ? {} : { name });
    setEventToken(id, 'player', r.token);
    await show(await getJson(`/api/tournaments/${id}`), true);
  } catch (x) {
    err.textContent = /** @type {Error} */ (x).message;
    err.hidden = false;
  }
}

async function init() {
  takeLinkToken();
  signedIn = await account();
  /** @type {VariantSummary[]} */
  const list = await getJson('/api/variants');
  for (const v of list) variants[v.id] = v;
  $('#register-form').addEventListener('submit', (e) => register(/** @type {SubmitEvent} */ (e)));
  $('#print').addEventListener('click', () => window.print());
  $('#round-pick').addEventListener('change', (e) => {
    shownRound = Number(/** @type {HTMLSelectElement} */ (e.target).value);
    render();
  });
  document.addEventListener('focusout', () => setTimeout(() => pending && render(), 0));
  await poll();
}

init().catch(showError);
