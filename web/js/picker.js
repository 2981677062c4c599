// @ts-check
/**
 * The piece picker of the game and puzzle pages: the piece in hand, turning it (buttons,
 * keys, Shift + wheel), aiming it on the board (pointer or a keyboard cursor), the ghost
 * preview with its verdict, and placing it (a click, a second tap on touch screens, or
 * Enter). The page says what may be placed and does the placing.
 * @module
 */

import { $, colourHex, h } from './api.js';
import { pieceSvg } from './board.js';
import { Orientation, placeShape } from './geometry.js';

/** @typedef {import('./api.js').VariantDetail} VariantDetail */
/** @typedef {import('./board.js').BoardView} BoardView */
/** @typedef {import('./geometry.js').XY} XY */

/**
 * Whether the piece in hand may cover some cells, and if not, why (for people).
 * @typedef {Object} Verdict
 * @property {boolean} legal
 * @property {string} [reason]
 */

/**
 * What a page tells the picker.
 * @typedef {Object} PickerHost
 * @property {() => boolean} canPlace whether a piece may be placed now
 * @property {() => string|null} colour colour name of the pieces in hand
 * @property {(piece: number) => boolean} available whether a piece can be picked
 * @property {(cells: number[]) => Verdict} check the verdict on cells, all on the board
 * @property {(cells: number[]) => void} place places the piece in hand on legal cells
 * @property {(cells: number[]) => void} [refused] the player insists on an illegal placement
 * @property {(cells: number[]) => void} [ask] asks why cells are illegal (the answer comes back through `explain`)
 * @property {() => void} changed the piece in hand changed (redraw the tray)
 * @property {(ev: KeyboardEvent) => boolean} [key] page keys, tried first; true if handled
 */

/**
 * The elements the picker draws into.
 * @typedef {Object} PickerElements
 * @property {HTMLElement} picked shows the piece in hand
 * @property {HTMLElement} controls gets the class `has-piece` while a piece is in hand
 * @property {HTMLElement} message the hint line: keys, or why a placement is illegal
 * @property {HTMLElement} rotate
 * @property {HTMLElement} flip
 * @property {HTMLElement} boardHost the element holding the board (for the wheel)
 * @property {HTMLElement} trayCol the pieces' column (a folding drawer on phones)
 * @property {HTMLElement} trayToggle folds and unfolds the drawer
 */

/**
 * The picker's elements on the game and puzzle pages (the same ids on both).
 * @returns {PickerElements}
 */
export function pickerElements() {
  return {
    picked: $('#picked'),
    controls: $('#controls'),
    message: $('#aim-hint'),
    rotate: $('#rotate'),
    flip: $('#flip'),
    boardHost: $('#board'),
    trayCol: $('#tray-col'),
    trayToggle: $('#tray-toggle'),
  };
}

/**
 * Where to aim a piece: orientation `t` (see `Orientation`), board cell under the
 * pointer, and `half` = the number of rotations (t >= half are mirrored).
 * @typedef {Object} AimPlan
 * @property {string} piece
 * @property {number} t
 * @property {number} cell
 * @property {number} half
 */

/** The hint line while a piece is in hand and nothing is wrong. */
const KEYS_HINT = 'R / Shift+R: rotate · F: flip · arrows + Enter: aim and place · Esc: put back';

export class PiecePicker {
  /**
   * @param {PickerHost} host
   * @param {PickerElements} els
   */
  constructor(host, els) {
    this.host = host;
    this.els = els;
    /** @type {BoardView|null} */
    this.board = null;
    /** @type {number|null} the piece in hand (index into the board's pieces) */
    this.piece = null;
    this.orient = new Orientation('square');
    /** @type {number|null} the board cell aimed at (pointer or keyboard cursor) */
    this.aim = null;
    /** @type {number[]|null} the cells the ghost covers, null when (partly) off the board */
    this.cells = null;
    /** @type {Verdict|null} */
    this.verdict = null;
    /** @type {string|null} a reason given by the server for the current aim */
    this.explained = null;
    /** @type {ReturnType<typeof setTimeout>|undefined} the pending question why an aim is illegal */
    this.askTimer = undefined;
    /** Whether the aim was set with the arrow keys. */
    this.byKeyboard = false;
    this.bindInput();
  }

  /**
   * Uses a (new) board; the piece in hand is put back.
   * @param {BoardView} board
   */
  attach(board) {
    this.board = board;
    this.piece = null;
    this.aim = null;
    this.orient = new Orientation(board.v.grid);
    this.refresh();
  }

  /** Handlers for the board's pointer events. */
  boardHandlers() {
    return {
      /** @param {number|null} c */
      onHover: (c) => this.hoverAt(c),
      /** @param {number} c @param {string} type */
      onTap: (c, type) => this.tap(c, type),
    };
  }

  /** @returns {VariantDetail|null} */
  get v() {
    return this.board ? this.board.v : null;
  }

  /**
   * Takes a piece in hand (null puts it back); a new piece starts unturned.
   * @param {number|null} piece
   */
  select(piece) {
    if (piece !== null && !this.host.available(piece)) piece = null;
    if (piece !== this.piece && this.v) this.orient = new Orientation(this.v.grid);
    this.piece = piece;
    // On a phone the drawer folds away so the whole board is free to aim at.
    if (piece !== null) this.fold(true);
    this.refresh();
    this.host.changed();
  }

  /**
   * Folds (true) or unfolds the pieces' drawer; only phones show it as a drawer.
   * @param {boolean} folded
   */
  fold(folded) {
    this.els.trayCol.classList.toggle('collapsed', folded);
    this.els.trayToggle.setAttribute('aria-expanded', String(!folded));
    this.els.trayToggle.textContent = folded ? 'Pieces ▴' : 'Pieces ▾';
  }

  /** @param {'rotate'|'back'|'flip'} how */
  turn(how) {
    if (this.piece === null) return;
    if (how === 'rotate') this.orient.rotate();
    else if (how === 'back') this.orient.rotateBack();
    else this.orient.flip();
    this.refresh();
  }

  /**
   * @param {number|null} cell
   * @param {boolean} [byKeyboard] aimed with the arrow keys (the hint names the cell)
   */
  hoverAt(cell, byKeyboard = false) {
    this.byKeyboard = byKeyboard;
    if (cell === this.aim) return;
    this.aim = cell;
    this.refresh();
  }

  /**
   * A click or tap on a board cell: a mouse places at once; on touch screens the first
   * tap previews and a tap on a legal preview places it.
   * @param {number} cell
   * @param {string} pointerType
   */
  tap(cell, pointerType) {
    if (this.piece === null || !this.host.canPlace()) return;
    if (pointerType === 'mouse' || (this.cells !== null && this.cells.includes(cell))) {
      if (pointerType === 'mouse') this.hoverAt(cell);
      this.commit();
      return;
    }
    this.hoverAt(cell);
  }

  /** Places the piece where it is aimed, or asks the page why it cannot go there. */
  commit() {
    if (this.piece === null || this.cells === null || !this.verdict || !this.host.canPlace()) return;
    const cells = this.cells;
    if (this.verdict.legal) this.host.place(cells);
    else if (this.host.refused) this.host.refused(cells);
  }

  /**
   * A reason for the current aim found out later (e.g. the server's answer to a refused
   * placement); shown until the aim changes.
   * @param {string} reason
   */
  explain(reason) {
    this.explained = reason;
    this.renderMessage();
  }

  /**
   * Moves the keyboard cursor by whole cells (on triangle boards a column step is half a
   * triangle); starts in the middle of the board.
   * @param {number} dx
   * @param {number} dy
   */
  moveCursor(dx, dy) {
    const v = this.v;
    const board = this.board;
    if (!v || !board) return;
    if (this.aim === null) {
      this.hoverAt(middleCell(v), true);
      return;
    }
    const [x0, y0] = v.cells[this.aim];
    // Holes (Trigon's corners) are skipped: keep going until a cell is found.
    for (let k = 1; k <= Math.max(v.width, v.height); k++) {
      const c = board.cellAtXY(x0 + dx * k, y0 + dy * k);
      if (c !== undefined) {
        this.hoverAt(c, true);
        return;
      }
    }
  }

  /**
   * The board cells a piece covers in an orientation with its middle at a cell, or null
   * where it sticks out of the board; `xy` are the coordinates of all its cells.
   * @param {number} piece
   * @param {number} t
   * @param {number} cell
   * @returns {{xy: XY[], cells: number[]|null}}
   */
  footprint(piece, t, cell) {
    const v = /** @type {VariantDetail} */ (this.v);
    const board = /** @type {BoardView} */ (this.board);
    const [x, y, up] = v.cells[cell];
    const xy = placeShape(v.grid, v.pieces[piece].symmetries[t], x, y, up === 1);
    const cells = xy.map(([cx, cy]) => board.cellAtXY(cx, cy));
    return { xy, cells: cells.every((c) => c !== undefined) ? /** @type {number[]} */ (cells) : null };
  }

  /** Recomputes the ghost and its verdict and redraws the piece in hand. */
  refresh() {
    this.explained = null;
    clearTimeout(this.askTimer);
    this.cells = null;
    this.verdict = null;
    const board = this.board;
    const colour = this.host.colour();
    if (board && this.piece !== null && this.aim !== null && colour !== null && this.host.canPlace()) {
      const { xy, cells } = this.footprint(this.piece, this.orient.t, this.aim);
      this.cells = cells;
      this.verdict = cells ? this.host.check(cells) : { legal: false, reason: 'the piece sticks out of the board' };
      board.showGhost(xy, colour, this.verdict.legal);
      // Why not: the rules engine is asked once the aim rests a moment (not at every cell passed).
      const ask = this.host.ask;
      if (cells && ask && !this.verdict.legal && !this.verdict.reason) this.askTimer = setTimeout(() => ask(cells), 300);
    } else if (board) {
      board.clearGhost();
    }
    if (board) board.showCursor(this.piece !== null ? this.aim : null);
    this.renderPicked();
    this.renderMessage();
  }

  renderMessage() {
    const el = this.els.message;
    const bad = !!this.verdict && !this.verdict.legal;
    el.classList.toggle('bad', bad);
    if (this.piece === null || !this.host.canPlace()) el.textContent = '';
    else if (bad) el.textContent = `Not at ${this.aimName()}: ${this.explained || this.verdict?.reason || 'not a legal placement'}`;
    else if (this.verdict && this.byKeyboard) el.textContent = `${this.aimName()}: fits — Enter places it`;
    else el.textContent = this.verdict ? '' : KEYS_HINT;
  }

  /** The aimed cell's name for the hint line. */
  aimName() {
    const v = this.v;
    return v && this.aim !== null ? v.names[this.aim] : '';
  }

  renderPicked() {
    const { picked, controls } = this.els;
    const v = this.v;
    const colour = this.host.colour();
    if (this.piece === null || !v || colour === null) {
      picked.replaceChildren(h('span', { class: 'muted' }, ['no piece selected']));
      controls.classList.remove('has-piece');
      return;
    }
    controls.classList.add('has-piece');
    const p = v.pieces[this.piece];
    picked.replaceChildren(pieceSvg(v.grid, p.symmetries[this.orient.t], colourHex(colour), 0.8), h('span', {}, [p.name]));
  }

  /**
   * Finds where to aim a piece so that it is legal (and covers `cells`, names, if given),
   * trying the preferred piece first (only the piece in hand with `inHand`): what a player
   * works out by looking. Changes nothing.
   * @param {{prefer?: string, cells?: string[], inHand?: boolean}} [want]
   * @returns {AimPlan|null}
   */
  findAim(want = {}) {
    const v = this.v;
    if (!v || this.host.colour() === null) return null;
    const target = want.cells ? [...want.cells].sort().join(',') : null;
    const order = want.inHand ? (this.piece === null ? [] : [this.piece]) : [...v.pieces.keys()].filter((i) => this.host.available(i));
    order.sort((a, b) => Number(v.pieces[b].name === want.prefer) - Number(v.pieces[a].name === want.prefer));
    const n = new Orientation(v.grid).n;
    for (const piece of order) {
      for (let t = 0; t < n; t++) {
        for (let cell = 0; cell < v.cells.length; cell++) {
          const { cells } = this.footprint(piece, t, cell);
          if (!cells) continue;
          const ok = target !== null ? cells.map((c) => v.names[c]).sort().join(',') === target : this.host.check(cells).legal;
          if (ok) return { piece: v.pieces[piece].name, t, cell, half: n / 2 };
        }
      }
    }
    return null;
  }

  bindInput() {
    this.els.rotate.addEventListener('click', () => this.turn('rotate'));
    this.els.flip.addEventListener('click', () => this.turn('flip'));
    this.els.trayToggle.addEventListener('click', () => this.fold(!this.els.trayCol.classList.contains('collapsed')));
    this.els.rotate.setAttribute('aria-keyshortcuts', 'R');
    this.els.flip.setAttribute('aria-keyshortcuts', 'F');
    document.addEventListener('keydown', (ev) => {
      const t = ev.target;
      if (t instanceof HTMLInputElement || t instanceof HTMLSelectElement || t instanceof HTMLTextAreaElement) return;
      if (ev.ctrlKey || ev.metaKey || ev.altKey) return;
      if (this.host.key && this.host.key(ev)) {
        ev.preventDefault();
        return;
      }
      const k = ev.key.toLowerCase();
      const inHand = this.piece !== null;
      /** @type {Record<string, [number, number]>} */
      const arrows = { arrowleft: [-1, 0], arrowright: [1, 0], arrowup: [0, 1], arrowdown: [0, -1] };
      if (k === 'r') this.turn(ev.shiftKey ? 'back' : 'rotate');
      else if (k === 'e') this.turn('back');
      else if (k === 'f') this.turn('flip');
      else if (k === 'escape' && inHand) this.select(null);
      else if (inHand && k in arrows) this.moveCursor(...arrows[k]);
      // Enter on a focused button activates the button, not the board.
      else if (inHand && (k === 'enter' || k === ' ') && !(t instanceof HTMLButtonElement || t instanceof HTMLAnchorElement)) this.commit();
      else return;
      ev.preventDefault();
    });
    // The wheel scrolls the page; only with Shift held does it turn the piece in hand.
    this.els.boardHost.addEventListener(
      'wheel',
      (ev) => {
        if (this.piece === null || !ev.shiftKey) return;
        ev.preventDefault();
        // Chromium turns Shift + wheel into a horizontal scroll.
        const d = ev.deltaY || ev.deltaX;
        if (d !== 0) this.turn(d > 0 ? 'rotate' : 'back');
      },
      { passive: false },
    );
  }
}

/**
 * The cell nearest the middle of the board: where the keyboard cursor starts.
 * @param {VariantDetail} v
 * @returns {number}
 */
function middleCell(v) {
  const xs = v.cells.map((c) => c[0]);
  const ys = v.cells.map((c) => c[1]);
  const mx = (Math.min(...xs) + Math.max(...xs)) / 2;
  const my = (Math.min(...ys) + Math.max(...ys)) / 2;
  let best = 0;
  let bestD = Infinity;
  v.cells.forEach(([x, y], i) => {
    const d = (x - mx) ** 2 + (y - my) ** 2;
    if (d < bestD) {
      bestD = d;
      best = i;
    }
  });
  return best;
}
