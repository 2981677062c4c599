// @ts-check
/**
 * Wire types of the HTTP + WebSocket API (docs/api.md) and small fetch helpers.
 * @module
 */

/**
 * @typedef {Object} VariantSummary
 * @property {string} id
 * @property {string} name
 * @property {string} description
 * @property {string} board
 * @property {'square'|'triangle'} grid
 * @property {string[]} colours
 * @property {number} players
 * @property {string[]} seat_names
 * @property {string} piece_set
 * @property {boolean} alternate_contact
 * @property {boolean} pie
 * @property {number[]|null} teams
 */

/**
 * @typedef {Object} PieceInfo
 * @property {string} name
 * @property {number} size
 * @property {number} count
 * @property {Array<Array<[number, number]>>} symmetries
 */

/**
 * @typedef {Object} VariantDetailExtra
 * @property {number} width
 * @property {number} height
 * @property {Array<[number, number, number]>} cells [x, y from bottom, up]
 * @property {string[]} names
 * @property {string[]} starts
 * @property {boolean} starts_per_colour
 * @property {Array<number|null>} colour_player
 * @property {PieceInfo[]} pieces
 * @property {boolean} shared_pool
 */

/** @typedef {VariantSummary & VariantDetailExtra} VariantDetail */

/**
 * @typedef {Object} MoveRecord
 * @property {number} player
 * @property {number} [colour]
 * @property {string[]} [cells]
 * @property {string} [piece]
 * @property {number[]} [passes]
 * @property {'keep'|'swap'} [pie]
 * @property {boolean} [timeout] this player's time ran out
 */

/**
 * @typedef {{type: 'fischer', base: number, increment: number}
 *   | {type: 'correspondence', days: number}} TimeControl
 */

/**
 * @typedef {Object} ClockState
 * @property {TimeControl} control
 * @property {string} label e.g. "5+3", "3 days/move"
 * @property {number[]} remaining_ms per seat, when the message was made
 * @property {number|null} running the seat whose clock runs
 */

/**
 * @typedef {Object} ColourScore
 * @property {number} colour
 * @property {number} pieces_placed
 * @property {number} cells_placed
 * @property {number} cells_remaining
 * @property {number} all_placed_bonus
 * @property {number} monomino_bonus
 * @property {number} points
 * @property {number} blksgf_points
 * @property {boolean} counted
 */

/**
 * @typedef {Object} SideResult
 * @property {number} side
 * @property {string} name
 * @property {number} score
 * @property {number} tiebreak
 * @property {number} place
 */

/**
 * @typedef {Object} SeatState
 * @property {number} seat
 * @property {'me'|'human'|'ai'|'hotseat'} kind
 * @property {number|null} level
 * @property {boolean} claimed
 * @property {boolean} reserved kept for one person (a rematch's opponent)
 * @property {string|null} name the display name its player chose
 * @property {string[]} colours
 * @property {boolean} connected
 */

/**
 * @typedef {Object} GameState
 * @property {'state'} type
 * @property {string} id
 * @property {string} variant
 * @property {{alternate_contact: boolean}} options
 * @property {'open'|'running'|'finished'} status
 * @property {number} ply
 * @property {boolean} over
 * @property {number|null} to_move
 * @property {number|null} player_to_move
 * @property {boolean} awaiting_pie
 * @property {number[]} owners
 * @property {MoveRecord[]} moves
 * @property {string[]} attach
 * @property {number[][]} remaining
 * @property {ColourScore[]} scores
 * @property {SideResult[]} results
 * @property {SeatState[]} seats
 * @property {ClockState} [clock] timed games only
 * @property {number} spectators connections watching without a seat
 * @property {{id: string, accepted: number[]}|null} rematch the rematch, once asked for
 * @property {boolean} rated the game changes ratings (no undo, no hints)
 * @property {number[]} [you]
 * @property {boolean} [can_undo]
 * @property {string[]|null} legal legal placements of the colour to move (only for its player)
 * @property {number[]} [legal_pieces] pieces with at least one legal placement
 * @property {{id: string, round: number, table: number}} [tournament] the tournament table of the game
 */

/**
 * @typedef {Object} GameSummary
 * @property {string} id
 * @property {string} variant
 * @property {'open'|'running'|'finished'} status
 * @property {Array<{kind: string, level?: number, claimed: boolean, name?: string}>} seats
 * @property {number} plies
 * @property {number} updated
 * @property {string} [clock] the time control's short name, timed games only
 * @property {number[]} [my_seats]
 * @property {Array<{seat: number, rating: number, provisional: boolean}>} [ratings] the ratings of the seats played from accounts (open and running games)
 */

/**
 * @typedef {Object} GameLists
 * @property {GameSummary[]} open
 * @property {GameSummary[]} running
 * @property {GameSummary[]} finished
 * @property {GameSummary[]} [mine]
 */

/**
 * A line of a game's chat.
 * @typedef {Object} ChatLine
 * @property {number} n
 * @property {'players'|'spectators'} channel
 * @property {number|null} seat
 * @property {string} name
 * @property {string} text plain text, never markup
 * @property {number} at unix seconds
 */

/**
 * A server message on the WebSocket.
 * @typedef {GameState
 *   | ({type: 'chat'} & ChatLine)
 *   | {type: 'chat_history', channel: 'players'|'spectators', lines: ChatLine[]}
 *   | {type: 'viewers', spectators: number}
 *   | {type: 'rematch', id: string, url: string, tokens: Array<{seat: number, token: string}>}
 *   | {type: 'move', ply: number, colour: number, cells: string[], piece: string}
 *   | {type: 'pass', ply: number, colours: number[], names: string[]}
 *   | {type: 'undo', ply: number}
 *   | {type: 'time_out', ply: number, seat: number}
 *   | {type: 'game_over', ply: number}
 *   | {type: 'check', cells: string, legal: boolean, reason?: string}
 *   | {type: 'error', code: string, message: string}} ServerMsg
 */

/**
 * Match points: a whole or decimal number, or an exact fraction as text (`"7/3"`).
 * @typedef {number|string} Points
 */

/**
 * @typedef {Object} Entrant
 * @property {number} id
 * @property {string} name
 * @property {{type: 'person'} | {type: 'bot', spec: string} | {type: 'engine', command: string}} kind
 * @property {number|null} number pairing number, once drawn
 * @property {number} first_round
 * @property {number|null} withdrawn_from
 */

/**
 * @typedef {{kind: 'played', scores: number[], places: number[]} | {kind: 'forfeit', absent: number[]}} TableResult
 */

/**
 * @typedef {Object} EventTable
 * @property {number} number
 * @property {string} variant
 * @property {number[]} seats entrant ids in seat order (seat 0 moves first)
 * @property {TableResult|null} result
 */

/**
 * @typedef {Object} EventRound
 * @property {number} number
 * @property {EventTable[]} tables
 * @property {Array<{entrant: number, points: Points}>} byes
 */

/**
 * @typedef {Object} EventConfig
 * @property {string} name
 * @property {string} variant
 * @property {number} rounds
 * @property {'italo_svizzero'|'swiss'|'round_robin'} pairing
 * @property {'byes'|'smaller'} short_tables
 * @property {string[]} tiebreaks
 * @property {number} seed
 */

/**
 * @typedef {Object} StandingRow
 * @property {number} entrant
 * @property {string} name
 * @property {number|null} number
 * @property {number} place
 * @property {boolean} shared
 * @property {Points} points
 * @property {Points[]} tiebreaks
 * @property {number} played
 * @property {number} byes
 * @property {boolean} withdrawn
 */

/**
 * A tournament as `GET /api/tournaments/{id}` answers it.
 * @typedef {Object} EventView
 * @property {string} id
 * @property {string} [organiser_token]
 * @property {{config: EventConfig, seats: number, entrants: Entrant[], rounds: EventRound[], hand_draw?: number[]}} event
 * @property {{tiebreaks: string[], rows: StandingRow[]}} standings
 * @property {{lines: Array<{entrant: number, name: string, number: number|null, place: number, points: Points, cells: string[]}>}} crosstable
 * @property {boolean} finished
 * @property {boolean} online
 * @property {boolean} auto_pair
 * @property {boolean} rated every table's game is rated (only accounts enter)
 * @property {Array<{entrant: number, rating: number, provisional: boolean}>} accounts the entrants playing from an account, with their rating in the event's pool
 * @property {{control: TimeControl, label: string}} [clock] the time control of every game (online)
 * @property {Array<{round: number, table: number, game: string, status: 'open'|'running'|'finished', plies: number}>} games
 */

/**
 * Fetches JSON, turning API errors into exceptions with the server's message.
 * @template T
 * @param {string} url
 * @param {RequestInit} [init]
 * @returns {Promise<T>}
 */
export async function getJson(url, init) {
  const res = await fetch(url, init);
  const body = await res.json().catch(() => null);
  if (!res.ok) {
    const msg = body && typeof body.message === 'string' ? body.message : `${res.status} ${res.statusText}`;
    throw new Error(msg);
  }
  return /** @type {T} */ (body);
}

/**
 * The logged-in account of this browser (docs/accounts.md), asked once per page.
 * @typedef {{name: string, csrf: string}} Account
 */

/** @type {Promise<Account|null>|null} */
let accountAsked = null;

/**
 * The logged-in account, or null for a guest (also when the server cannot say).
 * @param {boolean} [fresh] ask again (after logging in or out)
 * @returns {Promise<Account|null>}
 */
export function account(fresh = false) {
  if (!accountAsked || fresh) {
    accountAsked = fetch('/api/account', { cache: 'no-store' })
      .then((r) => (r.ok ? r.json() : { account: null }))
      .then((b) => b.account || null)
      .catch(() => null);
  }
  return accountAsked;
}

/**
 * POSTs JSON. When logged in, the request carries the session's CSRF token, so that it
 * acts for the account (a game created or joined is attached to it).
 * @template T
 * @param {string} url
 * @param {unknown} body
 * @returns {Promise<T>}
 */
export async function postJson(url, body) {
  /** @type {Record<string, string>} */
  const headers = { 'Content-Type': 'application/json' };
  const me = await account();
  if (me) headers['X-CSRF-Token'] = me.csrf;
  return getJson(url, {
    method: 'POST',
    headers,
    body: JSON.stringify(body),
  });
}

/** Display colours of the colour names the server uses. */
export const COLOURS = /** @type {Record<string, string>} */ ({
  blue: '#2f6fde',
  yellow: '#f2b705',
  red: '#e0413a',
  green: '#23a559',
  purple: '#8e4fc9',
  orange: '#f07f1d',
});

/**
 * The display colour of a colour name.
 * @param {string} name
 * @returns {string}
 */
export function colourHex(name) {
  return COLOURS[name] || '#888';
}

/**
 * Capitalises a colour name for people.
 * @param {string} name
 * @returns {string}
 */
export function title(name) {
  return name.charAt(0).toUpperCase() + name.slice(1);
}

/**
 * A side's name for people: `blue+red` becomes `Blue + Red`.
 * @param {string} name
 * @returns {string}
 */
export function sideTitle(name) {
  return name.split('+').map(title).join(' + ');
}

/**
 * Finds an element that must exist.
 * @template {HTMLElement} E
 * @param {string} selector
 * @param {ParentNode} [root]
 * @returns {E}
 */
export function $(selector, root = document) {
  const el = root.querySelector(selector);
  if (!el) throw new Error(`missing element ${selector}`);
  return /** @type {E} */ (el);
}

/**
 * Creates an element with attributes and children.
 * @param {string} tag
 * @param {Record<string, string>} [attrs]
 * @param {Array<Node|string>} [children]
 * @returns {HTMLElement}
 */
export function h(tag, attrs = {}, children = []) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    // Styles through the style object: the page's CSP forbids style attributes.
    if (k === 'style') el.style.cssText = v;
    else el.setAttribute(k, v);
  }
  for (const c of children) el.append(c);
  return el;
}
