// @ts-check
/**
 * Board and piece geometry for drawing: cell polygons on square and triangle grids,
 * piece orientations (rotate, flip) and placing a piece under the pointer.
 * @module
 */

/** Side of a cell in SVG units. */
export const UNIT = 30;
const TRI_H = (UNIT * Math.sqrt(3)) / 2;

/** @typedef {'square'|'triangle'} Grid */
/** @typedef {[number, number]} XY */

/**
 * Vertices of a cell at column x, row y (0 = bottom) in a grid of `height` rows.
 * On triangle grids `up` says whether the triangle points up.
 * @param {Grid} grid
 * @param {number} x
 * @param {number} y
 * @param {boolean} up
 * @param {number} height
 * @returns {XY[]}
 */
export function cellPolygon(grid, x, y, up, height) {
  const row = height - 1 - y;
  if (grid === 'square') {
    const l = x * UNIT;
    const t = row * UNIT;
    return [[l, t], [l + UNIT, t], [l + UNIT, t + UNIT], [l, t + UNIT]];
  }
  const l = (x * UNIT) / 2;
  const t = row * TRI_H;
  return up
    ? [[l, t + TRI_H], [l + UNIT, t + TRI_H], [l + UNIT / 2, t]]
    : [[l, t], [l + UNIT, t], [l + UNIT / 2, t + TRI_H]];
}

/**
 * The centre of a polygon (its vertex mean; the centroid for triangles).
 * @param {XY[]} pts
 * @returns {XY}
 */
export function centre(pts) {
  const n = pts.length;
  return [pts.reduce((s, p) => s + p[0], 0) / n, pts.reduce((s, p) => s + p[1], 0) / n];
}

/**
 * Pixel size of the bounding box of a grid of width x height cells.
 * @param {Grid} grid
 * @param {number} width
 * @param {number} height
 * @returns {XY}
 */
export function gridSize(grid, width, height) {
  return grid === 'square' ? [width * UNIT, height * UNIT] : [((width + 1) * UNIT) / 2, height * TRI_H];
}

/**
 * SVG `points` text of a polygon.
 * @param {XY[]} pts
 * @returns {string}
 */
export function pointsAttr(pts) {
  return pts.map((p) => `${p[0].toFixed(2)},${p[1].toFixed(2)}`).join(' ');
}

/**
 * Whether a local piece cell points up (triangles: x + y even).
 * @param {number} x
 * @param {number} y
 * @returns {boolean}
 */
export function pieceCellUp(x, y) {
  return (((x + y) % 2) + 2) % 2 === 0;
}

/**
 * The orientation state of the picked piece: symmetry index t, where t < n/2 are
 * rotations of the base shape and t >= n/2 rotations of its mirror image.
 */
export class Orientation {
  /** @param {Grid} grid */
  constructor(grid) {
    this.n = grid === 'square' ? 8 : 12;
    this.t = 0;
  }

  /** Rotates one step (90 or 60 degrees). */
  rotate() {
    const half = this.n / 2;
    const flip = this.t >= half ? half : 0;
    this.t = flip + (((this.t % half) + 1) % half);
  }

  /** Rotates one step the other way. */
  rotateBack() {
    const half = this.n / 2;
    const flip = this.t >= half ? half : 0;
    this.t = flip + (((this.t % half) + half - 1) % half);
  }

  /** Mirrors the shape as shown: the flip toggles and the rotation is negated. */
  flip() {
    const half = this.n / 2;
    const flipped = this.t >= half;
    const k = this.t % half;
    this.t = (flipped ? 0 : half) + ((half - k) % half);
  }
}

/**
 * Places a shape so that the pointer cell lies at its middle, keeping triangle
 * orientations. Returns the board coordinates of the shape's cells.
 * @param {Grid} grid
 * @param {XY[]} shape local cells (normalised)
 * @param {number} px pointer cell column
 * @param {number} py pointer cell row
 * @param {boolean} pUp whether the pointer cell points up (triangles)
 * @returns {XY[]}
 */
export function placeShape(grid, shape, px, py, pUp) {
  const cx = shape.reduce((s, c) => s + c[0], 0) / shape.length;
  const cy = shape.reduce((s, c) => s + c[1], 0) / shape.length;
  const candidates = grid === 'square' ? shape : shape.filter((c) => pieceCellUp(c[0], c[1]) === pUp);
  const pool = candidates.length ? candidates : shape;
  let best = pool[0];
  let bestD = Infinity;
  for (const c of pool) {
    const d = (c[0] - cx) ** 2 + (c[1] - cy) ** 2;
    if (d < bestD - 1e-9) {
      bestD = d;
      best = c;
    }
  }
  const dx = px - best[0];
  const dy = py - best[1];
  return shape.map((c) => /** @type {XY} */ ([c[0] + dx, c[1] + dy]));
}
