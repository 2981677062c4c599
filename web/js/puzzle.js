// @ts-check
/**
 * The puzzle page: choose a solitaire puzzle (SPEC 7), place pieces by hand, undo, ask
 * for hints, and see it solved. The server checks every placement with the rules engine
 * and answers hints from the solver; this page keeps the placements.
 * @module
 */

import { $, colourHex, getJson, h, postJson, title } from './api.js';
import { BoardView, pieceSvg } from './board.js';
import { notify } from './notices.js';
import { PiecePicker, pickerElements } from './picker.js';

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

/**
 * The puzzles' names for people, easiest first (the order of the list); a puzzle the
 * server adds later is listed after them under its id.
 * @type {Record<string, string>}
 */
const PUZZLE_NAMES = {
  tetro_8x10: 'Tetrominoes 8×10',
  penta_15x16: 'Pentominoes 15×16',
  all_84: 'All 84 pieces (Classic board)',
  all_88: 'All 88 pieces (Trigon board)',
};

/**
 * Easiest first.
 * @param {PuzzleSummary[]} list
 * @returns {PuzzleSummary[]}
 */
function ordered(list) {
  const rank = (/** @type {string} */ id) => {
    const i = Object.keys(PUZZLE_NAMES).indexOf(id);
    return i < 0 ? Infinity : i;
  };
  return [...list].sort((a, b) => rank(a.id) - rank(b.id));
}

/** @param {string} id @returns {string} */
const puzzleName = (id) => PUZZLE_NAMES[id] || id;

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
    this.busy = false;
    this.solved = false;
    /** @type {Set<number>} */
    this.last = new Set();
    /** Bumped by every restart and puzzle change: answers for an older position are dropped. */
    this.generation = 0;
    /** @type {Placement|null} a hint shown on the board, placed by asking for the hint again */
    this.shownHint = null;
    /** Seed of the next hint search: each request explores another order, so asking again can help. */
    this.hintSeed = 1;
    this.picker = new PiecePicker(
      {
        canPlace: () => !this.busy && !this.solved,
        colour: () => (this.puzzle ? this.colourName(this.colour) : null),
        available: (piece) => !!this.puzzle && !this.usedBy(this.colour).has(this.puzzle.board.pieces[piece].name),
        check: (cells) => {
          const owners = this.owners();
          const taken = cells.find((c) => owners[c] >= 0);
          const names = /** @type {PuzzleDetail} */ (this.puzzle).board.names;
          return taken === undefined ? { legal: true } : { legal: false, reason: `cell ${names[taken]} is already covered` };
        },
        place: (cells) => this.place(cells),
        changed: () => this.renderTray(),
        key: (ev) => {
          const k = ev.key.toLowerCase();
          if (k === 'u') this.undo();
          else if (k === 'h') this.hint();
          else return false;
          return true;
        },
      },
      pickerElements(),
    );
  }

  /** @returns {number|null} the piece in hand */
  get piece() {
    return this.picker.piece;
  }

  async start() {
    this.list = ordered(await getJson('/api/puzzles'));
    const select = /** @type {HTMLSelectElement} */ ($('#puzzle'));
    select.replaceChildren(...this.list.map((p) => h('option', { value: p.id }, [puzzleName(p.id)])));
    const wanted = new URLSearchParams(location.search).get('id');
    if (wanted && this.list.some((p) => p.id === wanted)) select.value = wanted;
    select.addEventListener('change', () => this.load(select.value));
    $('#strict').addEventListener('change', () => this.restart());
    $('#decreasing').addEventListener('change', () => this.restart());
    $('#restart').addEventListener('click', () => this.restart());
    $('#undo').addEventListener('click', () => this.undo());
    $('#hint').addEventListener('click', () => this.hint());
    await this.load(select.value);
  }

  /** @param {string} id */
  async load(id) {
    /** @type {PuzzleDetail} */
    const p = await getJson(`/api/puzzles/${encodeURIComponent(id)}`);
    this.puzzle = p;
    history.replaceState(null, '', `/puzzle?id=${encodeURIComponent(id)}`);
    $('#task').textContent = `${p.task.charAt(0).toUpperCase()}${p.task.slice(1)}.`;
    $('#strict-wrap').hidden = !p.strict;
    $('#decreasing-wrap').hidden = !p.decreasing;
    /** @type {HTMLInputElement} */ ($('#strict')).checked = false;
    /** @type {HTMLInputElement} */ ($('#decreasing')).checked = false;
    this.board = new BoardView($('#board'), p.board, this.picker.boardHandlers());
    this.picker.attach(this.board);
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
    this.shownHint = null;
    this.last = new Set();
    this.solved = false;
    this.colour = 0;
    $('#solved').hidden = true;
    this.picker.select(null);
    this.render();
    this.setStatus('Pick a colour and a piece, then click the board.');
  }

  /** @param {string} text */
  setStatus(text) {
    $('#status').textContent = text;
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

  /**
   * Places the piece in hand on free cells, if the server accepts it.
   * @param {number[]} cells
   */
  async place(cells) {
    const p = /** @type {PuzzleDetail} */ (this.puzzle);
    if (this.piece === null) return;
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
        notify(answer.message || 'Not allowed.', 'error');
        return false;
      }
      this.placements = next;
      this.shownHint = null;
      const added = next[next.length - 1];
      this.last = new Set(added.cells.map((n) => p.board.names.indexOf(n)));
      this.solved = Boolean(answer.solved);
      if (this.usedBy(this.colour).has(added.piece) || this.solved) this.picker.select(null);
      this.render();
      this.setStatus(`${answer.placed} of ${answer.total} pieces placed.`);
      if (this.solved) this.showSolved();
      return true;
    } catch (e) {
      notify(String(e instanceof Error ? e.message : e), 'error');
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
    this.shownHint = null;
    this.last = new Set();
    this.solved = false;
    $('#solved').hidden = true;
    this.render();
    this.setStatus(`${this.placements.length} pieces placed.`);
  }

  /**
   * A hint in two steps: the first asks the solver and highlights its next piece, the
   * second places it.
   */
  async hint() {
    if (this.busy || this.solved || !this.puzzle) return;
    const p = this.puzzle;
    if (this.shownHint) {
      const pl = this.shownHint;
      const kept = await this.tryPlacements([...this.placements, pl]);
      if (kept && !this.solved) {
        this.setStatus(`Placed the hint: ${title(pl.colour)} ${pl.piece} (${this.placements.length} of ${this.total()} placed)`);
      }
      return;
    }
    const generation = this.generation;
    this.busy = true;
    this.setBusy(true);
    this.setStatus('Looking for a solution from here…');
    /** @type {HintAnswer|null} */
    let answer = null;
    try {
      answer = await postJson(`/api/puzzles/${p.id}/hint`, { placements: this.placements, ...this.form(), seed: this.hintSeed++ });
    } catch (e) {
      if (generation === this.generation) notify(String(e instanceof Error ? e.message : e), 'error');
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
      this.shownHint = pl;
      this.picker.select(null);
      this.render();
      // In the status line: toasts would pile up over the buttons when hints are taken
      // one after another.
      this.setStatus(`Hint: ${title(pl.colour)} ${pl.piece} at ${pl.cells.join(',')}, highlighted. Hint (H) again places it.`);
    } else if (answer.status === 'solved') {
      this.showSolved();
    } else if (answer.status === 'no_solution') {
      this.setStatus('No solution from here.');
      notify('No solution from here: no way to finish the puzzle with these pieces where they are. Try undoing some pieces.', 'error');
    } else {
      const text = answer.message || 'No solution found from here within the search limit.';
      this.setStatus(text);
      notify(text, 'error');
    }
  }

  showSolved() {
    const el = $('#solved');
    el.hidden = false;
    const p = /** @type {PuzzleDetail} */ (this.puzzle);
    const again = h('button', { type: 'button', class: 'primary' }, ['Play again']);
    again.addEventListener('click', () => this.restart());
    el.replaceChildren(h('h2', {}, ['Solved!']), h('p', {}, [`All ${this.placements.length} pieces of ${puzzleName(p.id)} are placed.`]), again);
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
      // Pieces of one colour touch in a tiling: outlines keep them apart.
      outlines: this.placements.map((pl) => pl.cells.map((n) => p.board.names.indexOf(n))),
      hint: this.shownHint ? { cells: this.shownHint.cells.map((n) => p.board.names.indexOf(n)), colour: this.shownHint.colour } : null,
    });
    $('#hint').textContent = this.shownHint ? '💡 Place hint' : '💡 Hint';
    this.renderColours();
    this.renderTray();
    this.picker.refresh();
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
        this.picker.select(null);
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
      btn.addEventListener('click', () => this.picker.select(this.piece === i ? null : i));
      return btn;
    });
    $('#tray').replaceChildren(
      h('div', { class: 'tray-colour active' }, [
        h('div', { class: 'tray-head' }, [h('span', { class: 'chip', style: `background:${fill}` }), title(this.colourName(this.colour))]),
        h('div', { class: 'pieces' }, /** @type {HTMLElement[]} */ (items.filter(Boolean))),
      ]),
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
window.blokusPuzzle = {
  puzzleId: () => (page.puzzle ? page.puzzle.id : null),
  placements: () => page.placements,
  busy: () => page.busy,
  findAim: (cells) => page.picker.findAim({ cells, inHand: true }),
  orientation: () => page.picker.orient.t,
};
page.start().catch((e) => {
  const el = document.getElementById('status');
  if (el) el.textContent = `Could not load the puzzles: ${e instanceof Error ? e.message : e}`;
});
