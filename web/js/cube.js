// @ts-check
/**
 * The Blokus 3D page: `/cube.html` creates a game (seating, site built in or from a site
 * file, seats); `/cube/ID` plays it live over the WebSocket in a 3D view (cube-scene.js)
 * with a stone tray, turning the stone in hand about three axes, a ghost that rests where
 * gravity puts it and says whether the placement is legal (and why not, in the rules'
 * words from the server), the top-view score of the position shown, replay and the record;
 * the seats with names, the chat, spectators, rematch and the AI's hint as on the flat
 * game page (the same modules).
 * @module
 */

import { $, account, colourHex, getJson, h, postJson, sideTitle, title } from './api.js';
import { ChatPanel } from './chat.js';
import { CubeScene } from './cube-scene.js';
import { notePasses, notify } from './notices.js';
import { anchorIndex, moveText, normalise, parseCube, restingPlace, shapeKey, turn } from './cube-shapes.js';
import { ReconnectingSocket } from './socket.js';
import { bindMute, moveSound, soundsPlayed, turnSound } from './sounds.js';
import { bindNameForm, bindReplay, joinGame, rematchControls, renderReplay, renderSpectators, tableMessage } from './table-side.js';
import { addTokens, tokensFor } from './tokens.js';

/** @typedef {import('./cube-shapes.js').Cube} Cube */

/**
 * The `state` message of a Blokus 3D game (docs/api.md).
 * @typedef {Object} CubeState
 * @property {'state'} type
 * @property {string} id
 * @property {string} variant
 * @property {'cube'} family
 * @property {{name: string, width: number, depth: number, height: number, squares: Array<[number, number]>}} site
 * @property {string[]} colours
 * @property {'open'|'running'|'finished'} status
 * @property {number} ply
 * @property {boolean} over
 * @property {boolean} rated no undo and no hints
 * @property {number|null} to_move
 * @property {number|null} player_to_move
 * @property {Array<[number, number, number, number]>} cubes
 * @property {Array<{colour: number, player: number, cubes: string[], stone: string, passes: number[]}>} moves
 * @property {Array<{name: string, cubes: Cube[]}>} stones
 * @property {number[][]} remaining
 * @property {boolean[]} out
 * @property {Array<{colour: number, visible: number, stones_left: number, points: number}>} scores
 * @property {Array<{side: number, name: string, score: number, place: number}>} results
 * @property {Array<{seat: number, kind: string, level: number|null, claimed: boolean, reserved?: boolean, name?: string|null, colours: string[], connected: boolean}>} seats
 * @property {number} spectators connections watching without a seat
 * @property {{id: string, accepted: number[]}|null} rematch the rematch, once asked for
 * @property {number[]} [you]
 * @property {boolean} [can_undo]
 * @property {string[]|null} legal
 * @property {number[]} [legal_pieces]
 */

/**
 * The 3D variants as the server names them (`GET /api/cube-variants`).
 * @typedef {{id: string, name: string, description: string, players: number, colours: number}} CubeVariant
 */

/** @type {CubeVariant[]} */
let VARIANTS = [];

/** Where a variant's levels stand in a site's `heights` (2, 3, 4 players): four colours build under the four-player height. */
const heightIndex = (/** @type {CubeVariant} */ v) => (v.colours === 4 ? 2 : v.players - 2);

const KINDS = [
  ['me', 'Me (this browser)'],
  ['ai', 'Computer'],
  ['human', 'A person by link'],
  ['hotseat', 'Hot-seat (this browser)'],
];

/* ------------------------------------------------------------------ creation form */

async function createPage() {
  $('#create').hidden = false;
  $('#play').hidden = true;
  /** @type {Array<{name: string, width: number, depth: number, squares: number, heights: number[]}>} */
  const sites = await getJson('/api/sites');
  const variantSel = /** @type {HTMLSelectElement} */ ($('#c-variant'));
  // Two players first: the game most people start with.
  const order = [...VARIANTS].sort((a, b) => a.players - b.players || a.colours - b.colours);
  for (const v of order) variantSel.append(h('option', { value: v.id }, [v.name]));
  const siteSel = /** @type {HTMLSelectElement} */ ($('#c-site'));
  const describe = () => {
    const v = VARIANTS.find((x) => x.id === variantSel.value) || VARIANTS[0];
    const k = heightIndex(v);
    $('#c-variant-desc').textContent = `${v.description}.`;
    siteSel.replaceChildren(
      ...sites.map((s) => h('option', { value: s.name }, [`${s.name}: ${s.width} × ${s.depth}, ${s.squares} squares, ${s.heights[k]} levels`])),
      h('option', { value: '' }, ['From a site file…']),
    );
    renderSeats(v.players);
  };
  const renderSeats = (/** @type {number} */ n) => {
    const rows = [];
    for (let i = 0; i < n; i++) {
      const kind = /** @type {HTMLSelectElement} */ (h('select', { class: 'seat-kind', 'aria-label': `player ${i + 1}` },
        KINDS.map(([k, t]) => h('option', { value: k }, [t]))));
      kind.value = i === 0 ? 'me' : 'ai';
      const level = /** @type {HTMLSelectElement} */ (h('select', { class: 'seat-level', 'aria-label': `player ${i + 1} AI level` },
        [1, 2, 3, 4, 5, 6, 7, 8, 9].map((l) => h('option', { value: String(l) }, [`level ${l}${l === 1 ? ' (fastest)' : l === 9 ? ' (strongest)' : ''}`]))));
      level.value = '3';
      const sync = () => { level.hidden = kind.value !== 'ai'; };
      kind.addEventListener('change', sync);
      sync();
      rows.push(h('div', { class: 'seat-row' }, [h('span', {}, [`Player ${i + 1}`]), kind, level]));
    }
    $('#c-seats').replaceChildren(...rows);
  };
  const me = await account();
  $('#c-rated-wrap').hidden = !me;
  $('#c-rated-login').hidden = !!me;
  variantSel.addEventListener('change', describe);
  siteSel.addEventListener('change', () => { $('#c-file-row').hidden = siteSel.value !== ''; });
  describe();
  $('#c-form').addEventListener('submit', async (ev) => {
    ev.preventDefault();
    const err = $('#c-error');
    err.textContent = '';
    /** @type {Record<string, unknown>} */
    const body = {
      variant: variantSel.value,
      seats: [...document.querySelectorAll('#c-seats .seat-row')].map((row) => {
        const kind = /** @type {HTMLSelectElement} */ ($('.seat-kind', row)).value;
        const level = Number(/** @type {HTMLSelectElement} */ ($('.seat-level', row)).value);
        return kind === 'ai' ? { kind, level } : { kind };
      }),
    };
    if (/** @type {HTMLInputElement} */ ($('#c-rated')).checked) body.rated = true;
    if (siteSel.value) body.site = siteSel.value;
    else {
      const file = /** @type {HTMLInputElement} */ ($('#c-file')).files?.[0];
      if (!file) {
        err.textContent = 'Choose a site file (the format is in docs/blokus3d.md), or a built-in site.';
        return;
      }
      body.site_definition = await file.text();
    }
    try {
      /** @type {{id: string, url: string, tokens: Array<{seat: number, token: string}>}} */
      const r = await postJson('/api/games', body);
      addTokens(r.id, r.tokens);
      location.href = r.url;
    } catch (e) {
      err.textContent = `Cannot create the game: ${/** @type {Error} */ (e).message}`;
    }
  });
}

/* ------------------------------------------------------------------ the game */

const AXIS_KEYS = /** @type {const} */ (['x', 'y', 'z']);

class CubePage {
  /**
   * @param {string} id
   * @param {CubeState} s
   * @param {string} accountName the logged-in account's user name ('' for a guest)
   */
  constructor(id, s, accountName) {
    this.id = id;
    this.accountName = accountName;
    /** @type {CubeState} */
    this.state = s;
    this.scene = new CubeScene($('#view'), s.site, s.colours);
    /** @type {Set<string>} */
    this.legal = new Set();
    /** @type {{stone: number, cubes: Cube[]}|null} the stone in hand, normalised */
    this.hand = null;
    /** @type {[number, number]|null} the column aimed at */
    this.aim = null;
    /** @type {{text: string, legal: boolean, reason: string|null}|null} */
    this.ghost = null;
    /** @type {number|null} replayed ply, null = live */
    this.viewPly = null;
    this.sending = false;
    /** @type {number|undefined} */
    this.checkTimer = undefined;
    /** @type {{ply: number, piece: string, cells: string[]}|null} the AI's suggestion shown */
    this.aiHint = null;
    this.bindView();
    this.bindControls();
    bindMute($('#mute'));
    this.chat = new ChatPanel((text) => this.sock.send({ type: 'chat', text }));
    const proto = location.protocol === 'https:' ? 'wss' : 'ws';
    this.sock = new ReconnectingSocket(`${proto}://${location.host}/api/games/${id}/ws`, {
      onOpen: () => this.join(),
      onStatus: (st) => {
        const c = $('#conn');
        c.textContent = st === 'open' ? 'connected' : st === 'connecting' ? 'connecting…' : 'reconnecting…';
        c.className = `conn conn-${st}`;
      },
      onMessage: (m) => this.onMessage(/** @type {any} */ (m)),
    });
    this.render();
  }

  /** Takes this device's seats (with its player's name); a spectator gives the name for the chat. */
  join() {
    joinGame(this.sock, this.id, this.accountName);
  }

  /** @param {any} m */
  onMessage(m) {
    if (m.type === 'state') {
      // A new turn of mine opens the stones' drawer on a phone.
      if (m.ply !== this.state.ply || !this.myTurn()) this.fold(false);
      const prevPly = this.state.ply;
      const wasMyTurn = this.myTurn();
      this.state = m;
      // The flat game's sounds: a placed stone, and a chime when it becomes my turn.
      if (m.ply > prevPly) moveSound();
      if (this.myTurn() && !wasMyTurn) turnSound();
      this.sending = false;
      this.legal = new Set(m.legal || []);
      if (this.hand && !(m.remaining[m.to_move ?? 0]?.[this.hand.stone])) this.hand = null;
      this.render();
    } else if (m.type === 'check') {
      if (this.ghost && this.ghost.text === m.cells && !m.legal) {
        this.ghost.reason = m.reason || 'not legal here';
        this.renderAimHint();
      }
    } else if (m.type === 'pass') {
      notePasses(m.names, (names) => `${names.map(title).join(', ')} cannot place any more stones.`);
    } else {
      if (m.type === 'error') this.sending = false;
      tableMessage(m, this.chat, (n) => {
        this.state.spectators = n;
        this.renderSpectators();
      });
    }
  }

  /** @param {string} text a refusal or a failure, shown for a few seconds */
  toast(text) {
    notify(text, 'error');
  }

  /** Whether this browser plays the colour to move now. */
  myTurn() {
    const s = this.state;
    return !s.over && s.player_to_move !== null && !!s.you?.includes(s.player_to_move);
  }

  canPlace() {
    return this.myTurn() && this.viewPly === null && !this.sending && !this.waitingForOpponent();
  }

  /** Whether the game waits for an invited person to take their seat (the server refuses moves till then). */
  waitingForOpponent() {
    const s = this.state;
    return !s.over && s.seats.some((st) => st.kind === 'human' && !st.claimed);
  }

  colourToMove() {
    return this.state.to_move === null ? '' : this.state.colours[this.state.to_move];
  }

  /* ---------------------------------------------------------------- input */

  bindView() {
    const canvas = this.scene.canvas;
    /** @type {{x: number, y: number, moved: boolean}|null} */
    let drag = null;
    canvas.addEventListener('pointerdown', (ev) => {
      drag = { x: ev.clientX, y: ev.clientY, moved: false };
      canvas.setPointerCapture(ev.pointerId);
    });
    canvas.addEventListener('pointermove', (ev) => {
      if (drag && (drag.moved || Math.hypot(ev.clientX - drag.x, ev.clientY - drag.y) > 5)) {
        this.scene.orbit(-(ev.clientX - drag.x) * 0.4, (ev.clientY - drag.y) * 0.3);
        drag = { x: ev.clientX, y: ev.clientY, moved: true };
        return;
      }
      this.aimAt(this.scene.columnAt(ev.clientX, ev.clientY));
    });
    canvas.addEventListener('pointerup', (ev) => {
      const d = drag;
      drag = null;
      if (d && !d.moved) {
        this.aimAt(this.scene.columnAt(ev.clientX, ev.clientY));
        this.placeGhost();
      }
    });
    canvas.addEventListener('pointerleave', () => {
      if (!drag) this.aimAt(null);
    });
  }

  bindControls() {
    for (const axis of AXIS_KEYS) {
      $(`#turn-${axis}`).addEventListener('click', () => this.turnHand(axis, 1));
      $(`#back-${axis}`).addEventListener('click', () => this.turnHand(axis, -1));
    }
    $('#view-left').addEventListener('click', () => this.scene.orbit(-30, 0));
    $('#view-right').addEventListener('click', () => this.scene.orbit(30, 0));
    $('#view-up').addEventListener('click', () => this.scene.orbit(0, 15));
    $('#view-down').addEventListener('click', () => this.scene.orbit(0, -15));
    $('#undo').addEventListener('click', () => this.sock.send({ type: 'undo' }));
    $('#ai-hint').addEventListener('click', () => this.askHint());
    $('#tray-toggle').addEventListener('click', () => this.fold(!$('#tray-col').classList.contains('collapsed')));
    bindNameForm((m) => this.sock.send(m), this.accountName);
    // An account's name is its user name: nothing to set here.
    $('#name-form').hidden = Boolean(this.accountName);
    document.addEventListener('keydown', (ev) => this.key(ev));
    bindReplay((ply) => this.showPly(ply ?? this.state.moves.length), () => this.shownPly());
    /** @type {HTMLAnchorElement} */ ($('#download')).href = `/api/games/${this.id}/record.blksgf`;
    /** @type {HTMLAnchorElement} */ ($('#download-json')).href = `/api/games/${this.id}/record.json`;
  }

  /** @param {KeyboardEvent} ev */
  key(ev) {
    const target = /** @type {HTMLElement} */ (ev.target);
    if (target && ['INPUT', 'SELECT', 'TEXTAREA'].includes(target.tagName)) return;
    const k = ev.key.toLowerCase();
    if (AXIS_KEYS.includes(/** @type {any} */ (k)) && !ev.ctrlKey && !ev.metaKey && !ev.altKey) {
      this.turnHand(/** @type {'x'|'y'|'z'} */ (k), ev.shiftKey ? -1 : 1);
    } else if (k === 'q') this.scene.orbit(-30, 0);
    else if (k === 'e') this.scene.orbit(30, 0);
    else if (k === 'w') this.scene.orbit(0, 15);
    else if (k === 's') this.scene.orbit(0, -15);
    else if (k === 'escape') this.pick(null);
    else if (k === 'enter') this.placeGhost();
    else if (k.startsWith('arrow') && this.hand) {
      const [x, y] = this.aim || [0, 0];
      const step = { arrowleft: [-1, 0], arrowright: [1, 0], arrowup: [0, 1], arrowdown: [0, -1] }[k] || [0, 0];
      const s = this.state.site;
      this.aimAt([Math.min(s.width - 1, Math.max(0, x + step[0])), Math.min(s.depth - 1, Math.max(0, y + step[1]))]);
    } else if (k === 'arrowleft' && !this.hand) this.showPly(this.shownPly() - 1);
    else if (k === 'arrowright' && !this.hand) this.showPly(this.shownPly() + 1);
    else return;
    ev.preventDefault();
  }

  /** @param {number|null} stone */
  pick(stone) {
    if (stone === null || !this.canPlace()) {
      this.hand = null;
    } else {
      this.hand = { stone, cubes: normalise(this.state.stones[stone].cubes) };
      // On a phone the drawer folds away so the whole view is free to aim at.
      this.fold(true);
    }
    this.renderTray();
    this.updateGhost();
  }

  /**
   * Folds (true) or unfolds the stones' drawer; only phones show it as a drawer.
   * @param {boolean} folded
   */
  fold(folded) {
    $('#tray-col').classList.toggle('collapsed', folded);
    const toggle = $('#tray-toggle');
    toggle.setAttribute('aria-expanded', String(!folded));
    toggle.textContent = folded ? 'Stones ▴' : 'Stones ▾';
  }

  /** @param {'x'|'y'|'z'} axis @param {1|-1} dir */
  turnHand(axis, dir) {
    if (!this.hand) return;
    this.hand = { stone: this.hand.stone, cubes: turn(this.hand.cubes, axis, dir) };
    this.renderHand();
    this.updateGhost();
  }

  /** @param {[number, number]|null} col */
  aimAt(col) {
    if (col && this.aim && col[0] === this.aim[0] && col[1] === this.aim[1]) return;
    this.aim = col;
    this.updateGhost();
  }

  /** Recomputes the ghost: where the stone in hand rests over the aimed column. */
  updateGhost() {
    window.clearTimeout(this.checkTimer);
    if (!this.hand || !this.aim || !this.canPlace()) {
      this.ghost = null;
      this.scene.setGhost(null, false, '');
      this.renderAimHint();
      return;
    }
    const cubes = restingPlace(this.hand.cubes, this.aim[0], this.aim[1], (x, y) => this.scene.columnHeight(x, y));
    const text = moveText(cubes);
    const legal = this.legal.has(text);
    this.ghost = { text, legal, reason: null };
    this.scene.setGhost(cubes, legal, this.colourToMove());
    this.renderAimHint();
    if (!legal) {
      // The rules engine says why, once the aim rests for a moment.
      this.checkTimer = window.setTimeout(() => this.sock.send({ type: 'check', cells: text }), 250);
    }
  }

  placeGhost() {
    const g = this.ghost;
    if (!g || !this.canPlace()) return;
    if (!g.legal) {
      this.toast(g.reason ? `Not here: ${g.reason}` : 'This placement is not legal.');
      return;
    }
    this.sending = true;
    this.sock.send({ type: 'move', cells: g.text, ply: this.state.ply });
    this.hand = null;
    this.ghost = null;
    this.scene.setGhost(null, false, '');
    this.renderAimHint();
  }

  /** Hints are for practice against the computer: an AI seat and no other person. */
  hintsAllowed() {
    const s = this.state;
    return !s.rated && s.seats.some((st) => st.kind === 'ai') && !s.seats.some((st) => st.kind === 'human');
  }

  /** Asks the server for the AI's placement for this player and shows it in the view. */
  async askHint() {
    const s = this.state;
    if (!this.canPlace()) return;
    const held = tokensFor(this.id).find((t) => t.seat === s.player_to_move);
    if (!held) return;
    const button = /** @type {HTMLButtonElement} */ ($('#ai-hint'));
    button.disabled = true;
    try {
      /** @type {{ply: number, piece: string, cells: string[]}} */
      const hint = await postJson(`/api/games/${this.id}/hint`, { token: held.token });
      this.aiHint = hint;
      this.renderHint();
    } catch (e) {
      this.toast(`No hint: ${/** @type {Error} */ (e).message}`);
    } finally {
      button.disabled = false;
    }
  }

  /** The hint of this turn, if one was asked for: its stone drawn in the view, and said. */
  renderHint() {
    const hint = this.aiHint && this.aiHint.ply === this.state.ply && this.canPlace() ? this.aiHint : null;
    this.scene.setHint(hint ? hint.cells.map(parseCube) : null, this.colourToMove());
    const el = $('#hint-text');
    el.hidden = !hint;
    el.textContent = hint ? `Hint: the AI would place ${hint.piece} at ${hint.cells.join(',')} (outlined in the view).` : '';
  }

  /* ---------------------------------------------------------------- replay */

  shownPly() {
    return this.viewPly ?? this.state.moves.length;
  }

  /** @param {number} n */
  showPly(n) {
    const total = this.state.moves.length;
    const k = Math.max(0, Math.min(total, n));
    this.viewPly = k === total ? null : k;
    if (this.viewPly !== null) this.pick(null);
    this.renderView();
    this.renderReplay();
    this.renderStatus();
    this.renderScores();
    this.renderMoves();
    this.renderHint();
    $('#undo').hidden = !this.state.can_undo || this.viewPly !== null;
    $('#ai-hint').hidden = !this.hintsAllowed() || !this.canPlace();
  }

  /* ---------------------------------------------------------------- rendering */

  render() {
    this.renderView();
    this.renderStatus();
    this.renderTray();
    this.renderSeats();
    this.renderScores();
    this.renderMoves();
    this.renderReplay();
    this.renderOver();
    this.renderSpectators();
    this.updateGhost();
    this.renderHint();
    $('#undo').hidden = !this.state.can_undo || this.viewPly !== null;
    $('#ai-hint').hidden = !this.hintsAllowed() || !this.canPlace();
    // After the game nobody places; spectators have nothing to place.
    $('#tray-col').hidden = this.state.over || !(this.state.you || []).length;
    $('#variant-name').textContent = `${VARIANTS.find((v) => v.id === this.state.variant)?.name || this.state.variant} · site ${this.state.site.name}`;
  }

  renderView() {
    const s = this.state;
    const n = this.shownPly();
    /** @type {Array<[number, number, number, number]>} */
    let cubes;
    if (n === s.moves.length) {
      cubes = s.cubes;
    } else {
      cubes = s.moves.slice(0, n).flatMap((m) => m.cubes.map((c) => /** @type {[number, number, number, number]} */ ([...parseCube(c), m.colour])));
    }
    const last = n > 0 ? new Set(s.moves[n - 1].cubes.map((c) => parseCube(c).join(','))) : new Set();
    this.scene.setCubes(cubes, /** @type {Set<string>} */ (last));
  }

  renderStatus() {
    const s = this.state;
    let text;
    if (this.viewPly !== null) text = `Replay: the position after move ${this.viewPly} of ${s.moves.length}. » returns to the game.`;
    else if (s.over) text = 'The game is over.';
    else if (this.waitingForOpponent()) {
      text = (s.you || []).length ? 'Waiting for the opponent to join — share this game\'s link.' : 'Waiting for an invited player to take their seat.';
    } else if (this.myTurn()) text = `Your turn (${title(this.colourToMove())}): pick a stone, turn it (X, Y, Z), aim and click.`;
    else text = `${title(this.colourToMove())} (${this.seatLabel(/** @type {number} */ (s.player_to_move))}) to move.`;
    $('#status').textContent = text;
    document.title = `${this.myTurn() ? '● ' : ''}Blokus 3D`;
  }

  renderAimHint() {
    const g = this.ghost;
    const el = $('#aim-hint');
    el.className = `hint ${g ? (g.legal ? 'legal' : 'illegal') : ''}`;
    if (!g) el.textContent = this.hand ? 'Point at a square of the site.' : '';
    else if (g.legal) el.textContent = `${g.text}: legal — click or Enter to place.`;
    else el.textContent = `${g.text}: not legal${g.reason ? ` — ${g.reason}` : ''}.`;
  }

  renderHand() {
    const el = $('#hand');
    if (!this.hand) {
      el.textContent = 'No stone in hand.';
      return;
    }
    const stone = this.state.stones[this.hand.stone];
    el.replaceChildren(h('b', {}, [stone.name]), ' ', stoneSvg(this.hand.cubes, colourHex(this.colourToMove()), 16));
  }

  renderTray() {
    const s = this.state;
    const tray = $('#tray');
    const mine = this.myTurn() && this.viewPly === null;
    const colour = s.to_move ?? 0;
    const legalStones = new Set(s.legal_pieces || []);
    tray.replaceChildren(
      ...s.stones.map((st, i) => {
        const left = (s.remaining[colour]?.[i] || 0) > 0;
        const b = /** @type {HTMLButtonElement} */ (h('button', {
          type: 'button',
          class: `stone${this.hand?.stone === i ? ' picked' : ''}`,
          'data-stone': st.name,
          'aria-label': `stone ${st.name}${left ? '' : ' (placed)'}`,
          title: left ? (legalStones.has(i) || !mine ? `Stone ${st.name}` : `Stone ${st.name}: no legal placement now`) : `${st.name} is placed`,
        }, [stoneSvg(normalise(st.cubes), colourHex(s.colours[colour]), 14), h('span', {}, [st.name])]));
        b.disabled = !mine || !left || !legalStones.has(i);
        b.addEventListener('click', () => this.pick(this.hand?.stone === i ? null : i));
        return b;
      }),
    );
    this.renderHand();
    for (const id of ['turn-x', 'turn-y', 'turn-z', 'back-x', 'back-y', 'back-z']) {
      /** @type {HTMLButtonElement} */ ($(`#${id}`)).disabled = !this.hand;
    }
  }

  /** @param {number} seat @returns {string} who sits there, as the other players see it */
  seatLabel(seat) {
    const s = this.state;
    const st = s.seats[seat];
    const you = (s.you || []).includes(seat);
    if (st.kind === 'ai') return `Computer, level ${st.level}`;
    if (you) return st.name ? `${st.name} (you)` : st.kind === 'hotseat' ? 'hot-seat (you)' : 'you';
    if (st.name) return st.claimed ? st.name : `${st.name} (invited)`;
    if (st.kind === 'human' && !st.claimed) return 'open: a person by link';
    return `player ${seat + 1}`;
  }

  renderSeats() {
    const s = this.state;
    const mine = s.you || [];
    $('#seats').replaceChildren(
      ...s.seats.map((seat) => {
        const row = h('div', { class: `seat${s.player_to_move === seat.seat && !s.over ? ' to-move' : ''}` }, [
          ...seat.colours.map((c) => h('span', { class: 'swatch', style: `background:${colourHex(c)}` }, [])),
          ` ${seat.colours.map(title).join(' + ')}: `,
          h('span', { class: seat.name ? 'player-name' : '' }, [this.seatLabel(seat.seat)]),
          seat.connected || seat.kind === 'ai' ? '' : ' — away',
        ]);
        return row;
      }),
    );
    $('#name-input').setAttribute('aria-label', mine.length ? 'your name, shown to the other players' : 'your name in the spectators\' chat');
    const open = s.seats.some((x) => x.kind === 'human' && !x.claimed && !x.reserved);
    const share = $('#share');
    share.hidden = !open;
    if (open) {
      const url = `${location.origin}/cube/${this.id}`;
      /** @type {HTMLElement[]} */
      const parts = [h('p', {}, ['Invite with this link: ', h('code', {}, [url])])];
      if (mine.length === 0) {
        const claim = h('button', { type: 'button' }, ['Take an open seat']);
        claim.addEventListener('click', async () => {
          try {
            /** @type {{seat: number, token: string}} */
            const r = await postJson(`/api/games/${this.id}/join`, {});
            addTokens(this.id, [r]);
            this.join();
          } catch (e) {
            this.toast(/** @type {Error} */ (e).message);
          }
        });
        parts.push(claim);
      }
      share.replaceChildren(...parts);
    }
  }

  /** How many watch without a seat. */
  renderSpectators() {
    renderSpectators(this.state.spectators || 0);
  }

  /**
   * The score of every colour in the position after `n` moves, by the rules' count: the
   * squares of its colour seen from above, minus one per stone not placed.
   * @param {number} n
   * @returns {Array<{colour: number, visible: number, stones_left: number, points: number}>}
   */
  scoresAt(n) {
    const s = this.state;
    if (n === s.moves.length) return s.scores;
    /** @type {Map<string, {z: number, colour: number}>} */
    const top = new Map();
    const placed = s.colours.map(() => 0);
    for (const m of s.moves.slice(0, n)) {
      placed[m.colour]++;
      for (const text of m.cubes) {
        const [x, y, z] = parseCube(text);
        const k = `${x},${y}`;
        if ((top.get(k)?.z ?? -1) < z) top.set(k, { z, colour: m.colour });
      }
    }
    return s.colours.map((_, c) => {
      const visible = [...top.values()].filter((t) => t.colour === c).length;
      const left = s.stones.length - placed[c];
      return { colour: c, visible, stones_left: left, points: visible - left };
    });
  }

  renderScores() {
    const s = this.state;
    const replay = this.viewPly !== null;
    $('#scores-title').textContent = replay ? `Score at move ${this.viewPly}` : 'Score';
    $('#scores').replaceChildren(
      h('p', { class: 'muted' }, ['1 point per square of your colour seen from above, −1 per stone not placed.']),
      ...this.scoresAt(this.shownPly()).map((sc) => h('div', { class: `score-row${s.to_move === sc.colour && !s.over && !replay ? ' to-move' : ''}` }, [
        h('span', { class: 'swatch', style: `background:${colourHex(s.colours[sc.colour])}` }, []),
        h('b', {}, [` ${title(s.colours[sc.colour])}: ${sc.points}`]),
        h('span', { class: 'muted' }, [` — ${sc.visible} on top, ${sc.stones_left} stones left${s.out[sc.colour] && !s.over && !replay ? ', out' : ''}`]),
      ])),
    );
  }

  renderMoves() {
    const s = this.state;
    const ol = $('#moves');
    const items = s.moves.map((m, i) => {
      const li = h('li', { class: this.viewPly !== null && i === this.viewPly - 1 ? 'current' : '' }, [
        h('span', { class: 'swatch', style: `background:${colourHex(s.colours[m.colour])}` }, []),
        ` ${m.stone} ${m.cubes.join(',')}`,
        ...(m.passes.length ? [h('span', { class: 'muted' }, [` — ${m.passes.map((c) => title(s.colours[c])).join(', ')} out`])] : []),
      ]);
      li.addEventListener('click', () => this.showPly(i + 1));
      return li;
    });
    ol.replaceChildren(...items);
    // The list follows the position shown.
    if (this.viewPly === null) ol.scrollTop = ol.scrollHeight;
    else if (this.viewPly > 0) items[this.viewPly - 1].scrollIntoView({ block: 'nearest' });
    else ol.scrollTop = 0;
  }

  renderReplay() {
    renderReplay(this.viewPly, this.state.moves.length);
  }

  /** The end screen: places and scores, the record, a rematch and a new game. */
  renderOver() {
    const s = this.state;
    const panel = $('#gameover');
    panel.hidden = !s.over;
    if (!s.over) return;
    // Equal scores share a place, so the places are written out, not counted.
    const rows = [...s.results].sort((a, b) => a.place - b.place).map((res) =>
      h('li', { class: res.place === 1 ? 'winner' : '' }, [
        h('span', { class: 'place' }, [`${res.place}.`]),
        `${sideTitle(res.name)}: ${res.score} point${Math.abs(res.score) === 1 ? '' : 's'}${res.place === 1 ? ' ★' : ''}`,
      ]));
    const { offer, button: rematch, watch } = rematchControls(s, this.sock, (seat) => this.seatLabel(seat), '/cube/');
    const replay = h('button', { type: 'button' }, ['Replay from the start']);
    replay.addEventListener('click', () => this.showPly(0));
    panel.replaceChildren(
      h('h2', {}, ['Game over']),
      ...offer,
      h('ul', { class: 'final' }, rows),
      h('div', { class: 'row wrap' }, [
        h('a', { class: 'button', href: `/api/games/${this.id}/record.blksgf`, download: '' }, ['⬇ Download the record']),
        replay,
        rematch,
        ...watch,
        h('a', { class: 'button', href: '/cube' }, ['New game']),
      ]),
    );
  }
}

/**
 * A small isometric drawing of cubes.
 * @param {Cube[]} cubes normalised
 * @param {string} fill
 * @param {number} u size of a cube edge in pixels
 */
function stoneSvg(cubes, fill, u) {
  const NS = 'http://www.w3.org/2000/svg';
  const iso = (/** @type {number} */ x, /** @type {number} */ y, /** @type {number} */ z) => [
    (x - y) * u * 0.87,
    (x + y) * u * 0.5 - z * u,
  ];
  const pts = cubes.flatMap(([x, y, z]) => [iso(x, y, z), iso(x + 1, y + 1, z + 1), iso(x + 1, y, z), iso(x, y + 1, z + 1)]);
  const minX = Math.min(...pts.map((p) => p[0])) - 1;
  const minY = Math.min(...pts.map((p) => p[1])) - 1;
  const maxX = Math.max(...pts.map((p) => p[0])) + 1;
  const maxY = Math.max(...pts.map((p) => p[1])) + 1;
  const svg = document.createElementNS(NS, 'svg');
  svg.setAttribute('viewBox', `${minX} ${minY} ${maxX - minX} ${maxY - minY}`);
  svg.setAttribute('width', String(Math.round(maxX - minX)));
  svg.setAttribute('height', String(Math.round(maxY - minY)));
  svg.setAttribute('aria-hidden', 'true');
  // Far cubes first: larger x + y and lower z are nearer the viewer.
  const order = [...cubes].sort((a, b) => a[0] + a[1] - (b[0] + b[1]) || a[2] - b[2]);
  for (const [x, y, z] of order) {
    const faces = [
      { p: [iso(x, y, z + 1), iso(x + 1, y, z + 1), iso(x + 1, y + 1, z + 1), iso(x, y + 1, z + 1)], o: '1' },
      { p: [iso(x + 1, y, z), iso(x + 1, y + 1, z), iso(x + 1, y + 1, z + 1), iso(x + 1, y, z + 1)], o: '0.75' },
      { p: [iso(x, y + 1, z), iso(x + 1, y + 1, z), iso(x + 1, y + 1, z + 1), iso(x, y + 1, z + 1)], o: '0.55' },
    ];
    for (const f of faces) {
      const poly = document.createElementNS(NS, 'polygon');
      poly.setAttribute('points', f.p.map((q) => q.join(',')).join(' '));
      poly.setAttribute('fill', fill);
      poly.setAttribute('fill-opacity', f.o);
      poly.setAttribute('stroke', '#222');
      poly.setAttribute('stroke-width', '0.6');
      svg.append(poly);
    }
  }
  return svg;
}

async function main() {
  const parts = location.pathname.split('/').filter(Boolean);
  const id = parts[0] === 'cube' && parts[1] ? decodeURIComponent(parts[1]) : '';
  $('#create').hidden = true;
  try {
    VARIANTS = await getJson('/api/cube-variants');
    if (!id) {
      await createPage();
      return;
    }
    /** @type {CubeState} */
    const s = await getJson(`/api/games/${id}`);
    if (s.family !== 'cube') {
      location.replace(`/game/${id}`);
      return;
    }
    const me = await account();
    let page;
    try {
      page = new CubePage(id, s, me ? me.name : '');
    } catch (e) {
      $('#status').textContent = `This page draws the site with WebGL, which this browser does not offer (${/** @type {Error} */ (e).message}).`;
      return;
    }
    const p = page;
    window.blokusCube = {
      state: () => p.state,
      myTurn: () => p.canPlace(),
      sending: () => p.sending,
      hand: () => (p.hand ? { stone: p.state.stones[p.hand.stone].name, cubes: p.hand.cubes } : null),
      columnFor: (text) => {
        if (!p.hand) return null;
        const cubes = text.split(',').map(parseCube);
        if (shapeKey(cubes) !== shapeKey(p.hand.cubes)) return null;
        const n = normalise(cubes);
        const a = n[anchorIndex(n)];
        const min = [0, 1].map((i) => Math.min(...cubes.map((c) => c[i])));
        return [a[0] + min[0], a[1] + min[1]];
      },
      screenPoint: (x, y) => p.scene.screenPoint(x, y),
      ghost: () => (p.ghost ? { ...p.ghost } : null),
      hintCubes: () => p.scene.hintCubes(),
      sounds: () => soundsPlayed(),
      rowLabelPoint: (y) => {
        const at = p.scene.rowLabelAt(y);
        return p.scene.pagePoint(at.x, at.y, at.z);
      },
    };
  } catch (e) {
    $('#status').textContent = `Cannot open this game: ${/** @type {Error} */ (e).message}`;
  }
}

main();
