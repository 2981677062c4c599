// @ts-check
/**
 * The puzzle page: choose a solitaire puzzle (SPEC 7), place pieces by hand, undo, ask
 * for hints, and see it solved. The server checks every placement with the rules engine
 * and answers hints from the solver; this page keeps the placements.
 * @module
 */

import { $, colourHex, getJson, h, postJson, title } from './api.js';
import { BoardView, pieceSvg } from './board.js';
import { Orientation, placeShape } from './geometry.js';

/**
 * @typedef {Object} PuzzleSummary
 * @property {string} id
 * @property {string} task
 * @property {boolean} strict
 * @property {boolean} decreasing
 * @property {string|null} variant
 */

/** @typedef {PuzzleSummary & {board: import('./api.js').VariantDetail}} PuzzleDetail */

/**
 * @typedef {Object} Placement
 * @property {string} colour
 * @property {string} piece
 * @property {string[]} cells
 */

/**
 * @typedef {Object} CheckAnswer
 * @property {boolean} valid
 * @property {number} [placed]
 * @property {number} [total]
 * @property {boolean} [solved]
 * @property {number|null} [index]
 * @property {string} [message]
 */

/**
 * @typedef {Object} HintAnswer
 * @property {'next'|'solved'|'no_solution'|'not_found'} status
 * @property {Placement} [placement]
 * @property {string} [message]
 */

class PuzzlePage {
  constructor() {
    /** @type {PuzzleSummary[]} */
    this.list = [];
    /** @type {PuzzleDetail|null} */
    this.puzzle = null;
    /** @type {BoardView|null} */
    this.board = null;
    /** @type {Placement[]} */
    this.placements = [];
    this.colour = 0;
    /** @type {number|null} */
    this.piece = null;
    this.orient = new Orientation('square');
    /** @type {number|null} */
    this.hover = null;
    this.busy = false;
    this.solved = false;
    /** @type {Set<number>} */
    this.last = new Set();
    /** Bumped by every restart and puzzle change: answers for an older position are dropped. */
    this.generation = 0;
    /** Seed of the next hint search: each request explores another order, so asking again can help. */
    this.hintSeed = 1;
  }

  async start() {
    this.list = await getJson('/api/puzzles');
    const select = /** @type {HTMLSelectElement} */ ($('#puzzle'));
    select.replaceChildren(...this.list.map((p) => h('option', { value: p.id }, [p.id])));
    const wanted = new URLSearchParams(location.search).get('id');
    if (wanted && this.list.some((p) => p.id === wanted)) select.value = wanted;
    select.addEventListener('change', () => this.load(select.value));
    $('#strict').addEventListener('change', () => this.restart());
    $('#decreasing').addEventListener('change', () => this.restart());
    $('#restart').addEventListener('click', () => this.restart());
    $('#rotate').addEventListener('click', () => this.turn('rotate'));
    $('#flip').addEventListener('click', () => this.turn('flip'));
    $('#undo').addEventListener('click', () => this.undo());
    $('#hint').addEventListener('click', () => this.hint());
    // Registered once: the board host outlives the board views of each puzzle.
    $('#board').addEventListener(
      'wheel',
      (ev) => {
        if (this.piece === null) return;
        ev.preventDefault();
        if (ev.deltaY > 0) this.orient.rotate();
        else this.orient.rotateBack();
        this.renderPicked();
        this.renderGhost();
      },
      { passive: false },
    );
    document.addEventListener('keydown', (ev) => {
      if (ev.target instanceof HTMLInputElement || ev.target instanceof HTMLSelectElement) return;
      const k = ev.key.toLowerCase();
      if (k === 'r') this.turn('rotate');
      else if (k === 'f') this.turn('flip');
      else if (k === 'u') this.undo();
      else if (k === 'h') this.hint();
      else if (k === 'escape') this.select(null);
    });
    await this.load(select.value);
  }

  /** @param {string} id */
  async load(id) {
    /** @type {PuzzleDetail} */
    const p = await getJson(`/api/puzzles/${encodeURIComponent(id)}`);
    this.puzzle = p;
    history.replaceState(null, '', `/puzzle?id=${encodeURIComponent(id)}`);
    $('#task').textContent = p.task;
    $('#strict-wrap').hidden = !p.strict;
    $('#decreasing-wrap').hidden = !p.decreasing;
    /** @type {HTMLInputElement} */ ($('#strict')).checked = false;
    /** @type {HTMLInputElement} */ ($('#decreasing')).checked = false;
    this.orient = new Orientation(p.board.grid);
    this.board = new BoardView($('#board'), p.board, {
      onHover: (cell) => {
        this.hover = cell;
        this.renderGhost();
      },
      onTap: (cell) => this.place(cell),
    });
    this.restart();
  }

  /** The form chosen with the check boxes. */
  form() {
    return {
      strict: /** @type {HTMLInputElement} */ ($('#strict')).checked,
      decreasing: /** @type {HTMLInputElement} */ ($('#decreasing')).checked,
    };
  }

  restart() {
    this.generation++;
    this.busy = false;
    this.setBusy(false);
    this.placements = [];
    this.last = new Set();
    this.solved = false;
    this.piece = null;
    this.colour = 0;
    $('#solved').hidden = true;
    this.render();
    this.setStatus('Pick a colour and a piece, then click the board.');
  }

  /** @param {string} text */
  setStatus(text) {
    $('#status').textContent = text;
  }

  /**
   * @param {string} text
   * @param {'info'|'error'} kind
   */
  toast(text, kind) {
    const el = h('div', { class: `toast toast-${kind}` }, [text]);
    $('#toasts').append(el);
    setTimeout(() => el.remove(), 4000);
  }

  /**
   * Pieces a colour has placed, by name.
   * @param {number} colour
   * @returns {Set<string>}
   */
  usedBy(colour) {
    const name = this.colourName(colour);
    return new Set(this.placements.filter((p) => p.colour === name).map((p) => p.piece));
  }

  /** @param {number} c */
  colourName(c) {
    return /** @type {PuzzleDetail} */ (this.puzzle).board.colours[c];
  }

  /** @param {number|null} i */
  select(i) {
    this.piece = i;
    this.render();
  }

  /** @param {'rotate'|'flip'} how */
  turn(how) {
    if (this.piece === null) return;
    if (how === 'rotate') this.orient.rotate();
    else this.orient.flip();
    this.renderPicked();
    this.renderGhost();
  }

  /**
   * The cells (indices) the picked piece would cover with its reference cell at `cell`,
   * or null where a cell is off the board.
   * @param {number} cell
   * @returns {number[]|null}
   */
  cellsAt(cell) {
    const p = /** @type {PuzzleDetail} */ (this.puzzle);
    const board = /** @type {BoardView} */ (this.board);
    if (this.piece === null) return null;
    const shape = p.board.pieces[this.piece].symmetries[this.orient.t];
    const [x, y, up] = p.board.cells[cell];
    const xy = placeShape(p.board.grid, shape, x, y, up === 1);
    const cells = xy.map(([cx, cy]) => board.cellAtXY(cx, cy));
    return cells.every((c) => c !== undefined) ? /** @type {number[]} */ (cells) : null;
  }

  /** Colour index per cell, -1 when empty. */
  owners() {
    const p = /** @type {PuzzleDetail} */ (this.puzzle);
    const owners = p.board.cells.map(() => -1);
    const index = new Map(p.board.names.map((n, i) => [n, i]));
    for (const pl of this.placements) {
      const c = p.board.colours.indexOf(pl.colour);
      for (const name of pl.cells) {
        const i = index.get(name);
        if (i !== undefined) owners[i] = c;
      }
    }
    return owners;
  }

  renderGhost() {
    const board = this.board;
    if (!board) return;
    if (this.piece === null || this.hover === null || this.solved) {
      board.clearGhost();
      return;
    }
    const p = /** @type {PuzzleDetail} */ (this.puzzle);
    const shape = p.board.pieces[this.piece].symmetries[this.orient.t];
    const [x, y, up] = p.board.cells[this.hover];
    const xy = placeShape(p.board.grid, shape, x, y, up === 1);
    const cells = this.cellsAt(this.hover);
    const owners = this.owners();
    const free = cells !== null && cells.every((c) => owners[c] < 0);
    board.showGhost(xy, this.colourName(this.colour), free);
  }

  /**
   * Places the picked piece at a cell, if the server accepts it.
   * @param {number} cell
   */
  async place(cell) {
    if (this.piece === null || this.busy || this.solved) return;
    const p = /** @type {PuzzleDetail} */ (this.puzzle);
    const cells = this.cellsAt(cell);
    if (!cells) {
      this.toast('The piece does not fit on the board there.', 'error');
      return;
    }
    const placement = {
      colour: this.colourName(this.colour),
      piece: p.board.pieces[this.piece].name,
      cells: cells.map((c) => p.board.names[c]),
    };
    await this.tryPlacements([...this.placements, placement]);
  }

  /**
   * Asks the server to check a new list of placements and keeps it if valid.
   * @param {Placement[]} next
   * @returns {Promise<boolean>} whether it was kept
   */
  async tryPlacements(next) {
    const p = /** @type {PuzzleDetail} */ (this.puzzle);
    const generation = this.generation;
    this.busy = true;
    try {
      /** @type {CheckAnswer} */
      const answer = await postJson(`/api/puzzles/${p.id}/check`, { placements: next, ...this.form() });
      if (generation !== this.generation) return false;
      if (!answer.valid) {
        this.toast(answer.message || 'Not allowed.', 'error');
        return false;
      }
      this.placements = next;
      const added = next[next.length - 1];
      this.last = new Set(added.cells.map((n) => p.board.names.indexOf(n)));
      if (this.usedBy(this.colour).has(added.piece)) this.piece = null;
      this.solved = Boolean(answer.solved);
      this.render();
      this.setStatus(`${answer.placed} of ${answer.total} pieces placed.`);
      if (this.solved) this.showSolved();
      return true;
    } catch (e) {
      this.toast(String(e instanceof Error ? e.message : e), 'error');
      return false;
    } finally {
      if (generation === this.generation) this.busy = false;
    }
  }

  /**
   * Marks a hint search in progress: the hint button waits and says so.
   * @param {boolean} on
   */
  setBusy(on) {
    const b = /** @type {HTMLButtonElement} */ ($('#hint'));
    b.disabled = on;
    b.classList.toggle('busy', on);
    document.body.classList.toggle('hint-busy', on);
  }

  undo() {
    if (this.busy || this.placements.length === 0) return;
    this.placements = this.placements.slice(0, -1);
    this.last = new Set();
    this.solved = false;
    $('#solved').hidden = true;
    this.render();
    this.setStatus(`${this.placements.length} pieces placed.`);
  }

  async hint() {
    if (this.busy || this.solved || !this.puzzle) return;
    const p = this.puzzle;
    const generation = this.generation;
    this.busy = true;
    this.setBusy(true);
    this.setStatus('Looking for a solution from here…');
    /** @type {HintAnswer|null} */
    let answer = null;
    try {
      answer = await postJson(`/api/puzzles/${p.id}/hint`, { placements: this.placements, ...this.form(), seed: this.hintSeed++ });
    } catch (e) {
      if (generation === this.generation) this.toast(String(e instanceof Error ? e.message : e), 'error');
    } finally {
      if (generation === this.generation) {
        this.busy = false;
        this.setBusy(false);
      }
    }
    // The position changed while the server searched (restart, another puzzle).
    if (!answer || generation !== this.generation) return;
    if (answer.status === 'next' && answer.placement) {
      const pl = answer.placement;
      this.colour = Math.max(0, p.board.colours.indexOf(pl.colour));
      // Shown in the status line (toasts would pile up over the buttons when hints
      // are taken one after another); the piece itself is marked as the last one.
      const kept = await this.tryPlacements([...this.placements, pl]);
      if (kept && !this.solved) {
        this.setStatus(`Hint: ${title(pl.colour)} ${pl.piece} at ${pl.cells.join(',')} (${this.placements.length} of ${this.total()} placed)`);
      }
    } else if (answer.status === 'solved') {
      this.showSolved();
    } else if (answer.status === 'no_solution') {
      this.setStatus('No solution from here.');
      this.toast('No solution from here: no way to finish the puzzle with these pieces where they are. Try undoing some pieces.', 'error');
    } else {
      const text = answer.message || 'No solution found from here within the search limit.';
      this.setStatus(text);
      this.toast(text, 'error');
    }
  }

  showSolved() {
    const el = $('#solved');
    el.hidden = false;
    const p = /** @type {PuzzleDetail} */ (this.puzzle);
    const again = h('button', { type: 'button', class: 'primary' }, ['Play again']);
    again.addEventListener('click', () => this.restart());
    el.replaceChildren(h('h2', {}, ['Solved!']), h('p', {}, [`All ${this.placements.length} pieces of ${p.id} are placed.`]), again);
    this.setStatus('Solved!');
  }

  render() {
    if (!this.puzzle || !this.board) return;
    const p = this.puzzle;
    this.board.render({
      owners: this.owners(),
      colours: p.board.colours,
      last: this.last,
      attach: new Set(),
      attachColour: null,
      starts: p.board.starts.map((name, i) => ({
        cell: p.board.names.indexOf(name),
        colour: p.board.starts_per_colour ? p.board.colours[i] : null,
      })),
    });
    this.renderColours();
    this.renderTray();
    this.renderPicked();
    this.renderGhost();
    this.renderMoves();
  }

  renderColours() {
    const p = /** @type {PuzzleDetail} */ (this.puzzle);
    const buttons = p.board.colours.map((name, c) => {
      const left = p.board.pieces.length - this.usedBy(c).size;
      const b = h('button', { type: 'button', class: c === this.colour ? 'selected' : '', title: `${title(name)}: ${left} pieces left` }, [
        h('span', { class: 'chip', style: `background:${colourHex(name)}` }),
        `${title(name)} (${left})`,
      ]);
      b.addEventListener('click', () => {
        this.colour = c;
        this.piece = null;
        this.render();
      });
      return b;
    });
    $('#colours').replaceChildren(...buttons);
  }

  renderTray() {
    const p = /** @type {PuzzleDetail} */ (this.puzzle);
    const used = this.usedBy(this.colour);
    const fill = colourHex(this.colourName(this.colour));
    const items = p.board.pieces.map((piece, i) => {
      if (used.has(piece.name)) return null;
      const btn = h('button', {
        type: 'button',
        class: `piece${this.piece === i ? ' selected' : ''}`,
        title: `${piece.name} (${piece.size} cells)`,
        'data-piece': piece.name,
      });
      btn.append(pieceSvg(p.board.grid, piece.symmetries[0], fill, p.board.grid === 'square' ? 0.5 : 0.55));
      btn.addEventListener('click', () => this.select(this.piece === i ? null : i));
      return btn;
    });
    $('#tray').replaceChildren(
      h('div', { class: 'tray-colour active' }, [
        h('div', { class: 'tray-head' }, [h('span', { class: 'chip', style: `background:${fill}` }), title(this.colourName(this.colour))]),
        h('div', { class: 'pieces' }, /** @type {HTMLElement[]} */ (items.filter(Boolean))),
      ]),
    );
  }

  renderPicked() {
    const el = $('#picked');
    if (this.piece === null || !this.puzzle) {
      el.replaceChildren(h('span', { class: 'muted' }, ['no piece selected']));
      $('#controls').classList.remove('has-piece');
      return;
    }
    $('#controls').classList.add('has-piece');
    const piece = this.puzzle.board.pieces[this.piece];
    el.replaceChildren(
      pieceSvg(this.puzzle.board.grid, piece.symmetries[this.orient.t], colourHex(this.colourName(this.colour)), 0.8),
      h('span', {}, [piece.name]),
    );
  }

  renderMoves() {
    const items = this.placements.map((pl) =>
      h('li', {}, [h('span', { class: 'chip', style: `background:${colourHex(pl.colour)}` }), h('b', {}, [pl.piece]), ' ', h('span', { class: 'cells' }, [pl.cells.join(',')])]),
    );
    $('#moves').replaceChildren(...items);
    $('#count').textContent = `${this.placements.length} / ${this.total()}`;
  }

  /** Pieces of the whole puzzle. */
  total() {
    const p = /** @type {PuzzleDetail} */ (this.puzzle);
    return p.board.pieces.length * p.board.colours.length;
  }
}

const page = new PuzzlePage();
// For the end-to-end tests and the console, as on the game page.
/** @type {any} */ (window).puzzlePage = page;
page.start().catch((e) => {
  const el = document.getElementById('status');
  if (el) el.textContent = `Could not load the puzzles: ${e instanceof Error ? e.message : e}`;
});
