// @ts-check
/**
 * The seat tokens of this browser, kept in localStorage: `{gameId: [{seat, token}]}`, and
 * the display name its player goes by.
 * @module
 */

const KEY = 'blokus.tokens';

/** @typedef {{seat: number, token: string}} SeatToken */

/** @returns {Record<string, SeatToken[]>} */
function load() {
  try {
    const v = JSON.parse(localStorage.getItem(KEY) || '{}');
    return v && typeof v === 'object' ? v : {};
  } catch {
    return {};
  }
}

/** @param {Record<string, SeatToken[]>} all */
function save(all) {
  localStorage.setItem(KEY, JSON.stringify(all));
}

/**
 * Tokens held for a game.
 * @param {string} id
 * @returns {SeatToken[]}
 */
export function tokensFor(id) {
  return load()[id] || [];
}

/**
 * Remembers tokens for a game.
 * @param {string} id
 * @param {SeatToken[]} tokens
 */
export function addTokens(id, tokens) {
  const all = load();
  const have = all[id] || [];
  for (const t of tokens) {
    if (!have.some((x) => x.token === t.token)) have.push(t);
  }
  all[id] = have;
  save(all);
}

const NAME_KEY = 'blokus.name';

/**
 * The display name this device's player chose ('' if none), sent with its seat tokens.
 * @returns {string}
 */
export function displayName() {
  try {
    return localStorage.getItem(NAME_KEY) || '';
  } catch {
    return '';
  }
}

/**
 * Keeps the display name on this device (the server checked it).
 * @param {string} name
 */
export function setDisplayName(name) {
  localStorage.setItem(NAME_KEY, name);
}

/**
 * Every token of this browser.
 * @returns {string[]}
 */
export function allTokens() {
  return Object.values(load()).flat().map((t) => t.token);
}

const EVENTS_KEY = 'blokus.events';

/**
 * What this browser holds for a tournament: the organiser's token and the device token
 * of the player registered from here.
 * @typedef {{organiser?: string, player?: string}} EventTokens
 */

/** @returns {Record<string, EventTokens>} */
function loadEvents() {
  try {
    const v = JSON.parse(localStorage.getItem(EVENTS_KEY) || '{}');
    return v && typeof v === 'object' ? v : {};
  } catch {
    return {};
  }
}

/**
 * The tokens this browser holds for a tournament.
 * @param {string} id
 * @returns {EventTokens}
 */
export function eventTokens(id) {
  return loadEvents()[id] || {};
}

/**
 * Remembers a token for a tournament.
 * @param {string} id
 * @param {'organiser'|'player'} role
 * @param {string} token
 */
export function setEventToken(id, role, token) {
  const all = loadEvents();
  all[id] = { ...(all[id] || {}), [role]: token };
  localStorage.setItem(EVENTS_KEY, JSON.stringify(all));
}

/**
 * The tournaments this browser organises or plays in, by id.
 * @returns {Record<string, EventTokens>}
 */
export function allEvents() {
  return loadEvents();
}
