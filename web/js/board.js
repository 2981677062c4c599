// @ts-check
/**
 * The board in SVG: cells, coordinates, starting points, attach points, the last move
 * and the ghost preview of a placement.
 * @module
 */

import { cellPolygon, centre, gridSize, pointsAttr, UNIT } from './geometry.js';
import { colourHex } from './api.js';

const SVG = 'http://www.w3.org/2000/svg';
const MARGIN = 26;

/**
 * @param {string} tag
 * @param {Record<string, string|number>} attrs
 * @returns {SVGElement}
 */
export function svg(tag, attrs = {}) {
  const el = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) {
    // Styles through the style object: the page's CSP forbids style attributes.
    if (k === 'style') el.style.cssText = String(v);
    else el.setAttribute(k, String(v));
  }
  return el;
}

/**
 * A small SVG of a piece shape (tray buttons, the piece in hand).
 * @param {import('./geometry.js').Grid} grid
 * @param {Array<[number, number]>} shape
 * @param {string} fill
 * @param {number} scale
 * @returns {SVGElement}
 */
export function pieceSvg(grid, shape, fill, scale) {
  const w = Math.max(...shape.map((c) => c[0])) + 1;
  const hgt = Math.max(...shape.map((c) => c[1])) + 1;
  const [pw, ph] = gridSize(grid, w, hgt);
  const el = svg('svg', {
    viewBox: `-2 -2 ${pw + 4} ${ph + 4}`,
    width: ((pw + 4) * scale).toFixed(1),
    height: ((ph + 4) * scale).toFixed(1),
    class: 'piece-svg',
  });
  for (const [x, y] of shape) {
    const up = grid === 'triangle' && (((x + y) % 2) + 2) % 2 === 0;
    el.append(svg('polygon', { points: pointsAttr(cellPolygon(grid, x, y, up, hgt)), style: `fill:${fill}` }));
  }
  return el;
}

/**
 * @typedef {Object} BoardHandlers
 * @property {(cell: number|null) => void} onHover
 * @property {(cell: number, pointerType: string) => void} onTap
 */

/**
 * @typedef {Object} BoardMarks
 * @property {number[]} owners colour per cell, -1 empty
 * @property {string[]} colours colour names
 * @property {Set<number>} last cells of the last move
 * @property {Set<number>} attach attach points to highlight
 * @property {string|null} attachColour colour of the attach marks
 * @property {Array<{cell: number, colour: string|null}>} starts free starting points
 * @property {number[][]} [outlines] cells of pieces to outline (tilings, where pieces of one
 *   colour touch along edges)
 * @property {{cells: number[], colour: string}|null} [hint] a suggested placement, highlighted
 */

export class BoardView {
  /**
   * @param {HTMLElement} host
   * @param {import('./api.js').VariantDetail} v
   * @param {BoardHandlers} handlers
   */
  constructor(host, v, handlers) {
    this.v = v;
    this.grid = v.grid;
    /** @type {Map<string, number>} */
    this.byXY = new Map();
    v.cells.forEach((c, i) => this.byXY.set(`${c[0]},${c[1]}`, i));
    const [w, hgt] = gridSize(v.grid, v.width, v.height);
    this.root = /** @type {SVGSVGElement} */ (
      svg('svg', {
        viewBox: `${-MARGIN} ${-8} ${w + MARGIN + 8} ${hgt + MARGIN + 8}`,
        class: `board board-${v.grid}`,
        role: 'application',
        tabindex: 0,
        'aria-label': `${v.name} board, ${v.cells.length} cells. Pick a piece, then the arrow keys aim it and Enter places it.`,
      })
    );
    this.cellsLayer = svg('g', { class: 'cells' });
    this.marksLayer = svg('g', { class: 'marks', 'pointer-events': 'none' });
    this.ghostLayer = svg('g', { class: 'ghost', 'pointer-events': 'none' });
    this.cursorLayer = svg('g', { class: 'cursor', 'pointer-events': 'none' });
    this.labels = svg('g', { class: 'labels', 'pointer-events': 'none' });
    this.root.append(this.cellsLayer, this.marksLayer, this.ghostLayer, this.cursorLayer, this.labels);
    /** @type {SVGElement[]} */
    this.cellEls = [];
    /** @type {import('./geometry.js').XY[]} */
    this.centres = [];
    v.cells.forEach((c, i) => {
      const pts = cellPolygon(v.grid, c[0], c[1], c[2] === 1, v.height);
      const el = svg('polygon', { points: pointsAttr(pts), class: 'cell', 'data-cell': i, 'data-name': v.names[i] });
      this.cellEls.push(el);
      this.centres.push(centre(pts));
      this.cellsLayer.append(el);
    });
    this.drawLabels(hgt);
    host.replaceChildren(this.root);
    this.root.addEventListener('pointermove', (ev) => handlers.onHover(this.cellAt(ev)));
    this.root.addEventListener('pointerleave', (ev) => {
      if (ev.pointerType === 'mouse') handlers.onHover(null);
    });
    this.root.addEventListener('click', (ev) => {
      const c = this.cellAt(ev);
      const pe = /** @type {PointerEvent} */ (ev);
      if (c !== null) handlers.onTap(c, pe.pointerType || 'mouse');
    });
  }

  /**
   * Column letters under the board, row numbers to its left.
   * @param {number} hgt
   */
  drawLabels(hgt) {
    const v = this.v;
    /** @type {Map<number, number>} */
    const colX = new Map();
    /** @type {Map<number, number>} */
    const rowY = new Map();
    v.cells.forEach((c, i) => {
      const pts = cellPolygon(v.grid, c[0], c[1], c[2] === 1, v.height);
      if (!colX.has(c[0])) colX.set(c[0], this.centres[i][0]);
      if (!rowY.has(c[1])) rowY.set(c[1], (Math.min(...pts.map((p) => p[1])) + Math.max(...pts.map((p) => p[1]))) / 2);
    });
    for (const [x, cx] of colX) {
      // Triangle boards have twice as many columns: label every other one.
      if (this.grid === 'triangle' && x % 2 === 1) continue;
      const i = v.cells.findIndex((c) => c[0] === x);
      const t = svg('text', { x: cx, y: hgt + 17, class: 'coord', 'text-anchor': 'middle' });
      t.textContent = v.names[i].replace(/\d+$/, '');
      this.labels.append(t);
    }
    for (const [y, cy] of rowY) {
      const t = svg('text', { x: -7, y: cy + 4, class: 'coord', 'text-anchor': 'end' });
      t.textContent = String(y + 1);
      this.labels.append(t);
    }
  }

  /**
   * Whether the (possibly off-board) cell at x, y points up.
   * @param {number} x
   * @param {number} y
   * @returns {boolean}
   */
  isUp(x, y) {
    const [x0, y0, up0] = this.v.cells[0];
    return (x + y - x0 - y0) % 2 === 0 ? up0 === 1 : up0 !== 1;
  }

  /**
   * The cell under a pointer event.
   * @param {Event} ev
   * @returns {number|null}
   */
  cellAt(ev) {
    const pe = /** @type {MouseEvent} */ (ev);
    const el = document.elementFromPoint(pe.clientX, pe.clientY);
    const attr = el && el.getAttribute('data-cell');
    return attr === null || attr === undefined ? null : Number(attr);
  }

  /**
   * The cell at column x, row y, if on the board.
   * @param {number} x
   * @param {number} y
   * @returns {number|undefined}
   */
  cellAtXY(x, y) {
    return this.byXY.get(`${x},${y}`);
  }

  /**
   * Draws the position.
   * @param {BoardMarks} m
   */
  render(m) {
    this.cellEls.forEach((el, i) => {
      const o = m.owners[i];
      el.setAttribute('class', o >= 0 ? `cell filled${m.last.has(i) ? ' last' : ''}` : 'cell');
      // Through the style object, not a style attribute: the page's CSP allows no inline styles.
      if (o >= 0) el.style.fill = colourHex(m.colours[o]);
      else el.style.removeProperty('fill');
    });
    this.marksLayer.replaceChildren();
    for (const s of m.starts) {
      if (m.owners[s.cell] >= 0) continue;
      const [cx, cy] = this.centres[s.cell];
      this.marksLayer.append(
        svg('circle', {
          cx,
          cy,
          r: UNIT * 0.22,
          class: 'start',
          style: s.colour ? `stroke:${colourHex(s.colour)}` : '',
        }),
      );
    }
    if (m.attachColour) {
      for (const i of m.attach) {
        const [cx, cy] = this.centres[i];
        this.marksLayer.append(
          svg('circle', { cx, cy, r: UNIT * 0.12, class: 'attach', style: `fill:${colourHex(m.attachColour)}` }),
        );
      }
    }
    for (const i of m.last) {
      const [cx, cy] = this.centres[i];
      this.marksLayer.append(svg('circle', { cx, cy, r: UNIT * 0.09, class: 'last-dot' }));
    }
    for (const group of m.outlines || []) this.marksLayer.append(svg('path', { d: this.outlinePath(group), class: 'piece-outline' }));
    if (m.hint) {
      for (const i of m.hint.cells) {
        const [x, y, up] = this.v.cells[i];
        const pts = pointsAttr(cellPolygon(this.grid, x, y, up === 1, this.v.height));
        this.marksLayer.append(svg('polygon', { points: pts, class: 'hint-cell', style: `fill:${colourHex(m.hint.colour)}` }));
      }
      this.marksLayer.append(svg('path', { d: this.outlinePath(m.hint.cells), class: 'hint-outline' }));
    }
  }

  /**
   * The outline of a group of cells: the cell edges not shared by two of its cells.
   * @param {number[]} group
   * @returns {string} SVG path data
   */
  outlinePath(group) {
    /** @type {Map<string, [import('./geometry.js').XY, import('./geometry.js').XY, number]>} */
    const edges = new Map();
    const key = (/** @type {import('./geometry.js').XY} */ p) => `${p[0].toFixed(1)},${p[1].toFixed(1)}`;
    for (const i of group) {
      const [x, y, up] = this.v.cells[i];
      const pts = cellPolygon(this.grid, x, y, up === 1, this.v.height);
      pts.forEach((a, k) => {
        const b = pts[(k + 1) % pts.length];
        const id = [key(a), key(b)].sort().join(' ');
        const e = edges.get(id);
        edges.set(id, [a, b, e ? e[2] + 1 : 1]);
      });
    }
    return [...edges.values()]
      .filter((e) => e[2] === 1)
      .map(([a, b]) => `M${a[0].toFixed(1)} ${a[1].toFixed(1)}L${b[0].toFixed(1)} ${b[1].toFixed(1)}`)
      .join('');
  }

  /**
   * Shows a placement preview.
   * @param {Array<import('./geometry.js').XY>} xy board coordinates of the piece's cells
   * @param {string} colour colour name
   * @param {boolean} legal
   */
  showGhost(xy, colour, legal) {
    this.ghostLayer.replaceChildren();
    for (const [x, y] of xy) {
      const pts = cellPolygon(this.grid, x, y, this.grid === 'triangle' && this.isUp(x, y), this.v.height);
      this.ghostLayer.append(
        svg('polygon', {
          points: pointsAttr(pts),
          class: legal ? 'ghost-cell legal' : 'ghost-cell illegal',
          style: legal ? `fill:${colourHex(colour)}` : '',
        }),
      );
    }
  }

  clearGhost() {
    this.ghostLayer.replaceChildren();
  }

  /**
   * Outlines the cell the piece in hand is aimed at (null: none).
   * @param {number|null} cell
   */
  showCursor(cell) {
    this.cursorLayer.replaceChildren();
    if (cell === null) return;
    const [x, y, up] = this.v.cells[cell];
    this.cursorLayer.append(svg('polygon', { points: pointsAttr(cellPolygon(this.grid, x, y, up === 1, this.v.height)), class: 'cursor-cell' }));
  }
}
