// @ts-check
/**
 * Blokus 3D geometry for the page: turning a stone a quarter turn about an axis, where a
 * stone comes to rest when dropped on a column, and the move text of cubes (`a1.1`,
 * docs/blokus3d.md). Whether a placement is legal is never decided here: the server's
 * legal list and its `check` answers (the rules in blokus-core) say so.
 * @module
 */

/** @typedef {[number, number, number]} Cube x (column), y (row from the south), z (level from the base), 0-based */

/**
 * Moves cubes so the smallest coordinate on each axis is 0, sorted by z, y, x.
 * @param {Cube[]} cubes
 * @returns {Cube[]}
 */
export function normalise(cubes) {
  const min = [0, 1, 2].map((i) => Math.min(...cubes.map((c) => c[i])));
  /** @type {Cube[]} */
  const out = cubes.map((c) => [c[0] - min[0], c[1] - min[1], c[2] - min[2]]);
  return out.sort((a, b) => a[2] - b[2] || a[1] - b[1] || a[0] - b[0]);
}

/**
 * A quarter turn about an axis, counter-clockwise seen from the axis' positive end
 * (`dir` -1 turns back), normalised.
 * @param {Cube[]} cubes
 * @param {'x'|'y'|'z'} axis
 * @param {1|-1} [dir]
 * @returns {Cube[]}
 */
export function turn(cubes, axis, dir = 1) {
  /** @type {(c: Cube) => Cube} */
  const once = {
    x: (/** @type {Cube} */ [x, y, z]) => /** @type {Cube} */ ([x, -z, y]),
    y: (/** @type {Cube} */ [x, y, z]) => /** @type {Cube} */ ([z, y, -x]),
    z: (/** @type {Cube} */ [x, y, z]) => /** @type {Cube} */ ([-y, x, z]),
  }[axis];
  let out = cubes;
  for (let i = 0; i < (dir === 1 ? 1 : 3); i++) out = out.map(once);
  return normalise(out);
}

/** @param {Cube[]} cubes @returns {string} a key equal for equal normalised shapes */
export const shapeKey = (cubes) => JSON.stringify(normalise(cubes));

/**
 * The cube of a shape the pointer holds: the one nearest the middle of its footprint,
 * lowest first.
 * @param {Cube[]} cubes normalised
 * @returns {number}
 */
export function anchorIndex(cubes) {
  const mx = Math.max(...cubes.map((c) => c[0])) / 2;
  const my = Math.max(...cubes.map((c) => c[1])) / 2;
  let best = 0;
  let bestD = Infinity;
  cubes.forEach((c, i) => {
    const d = (c[0] - mx) ** 2 + (c[1] - my) ** 2 + c[2] * 0.01;
    if (d < bestD - 1e-9) {
      best = i;
      bestD = d;
    }
  });
  return best;
}

/**
 * Where a shape rests when its anchor cube is held over column (ax, ay) and let fall:
 * as low as it goes before a cube meets the base or a filled column.
 * @param {Cube[]} shape normalised
 * @param {number} ax
 * @param {number} ay
 * @param {(x: number, y: number) => number} columnHeight filled levels of a column
 * @returns {Cube[]} the cubes, absolute
 */
export function restingPlace(shape, ax, ay, columnHeight) {
  const a = shape[anchorIndex(shape)];
  const dx = ax - a[0];
  const dy = ay - a[1];
  let z0 = 0;
  for (const [x, y, z] of shape) z0 = Math.max(z0, columnHeight(x + dx, y + dy) - z);
  return shape.map(([x, y, z]) => /** @type {Cube} */ ([x + dx, y + dy, z + z0]));
}

/** @param {number} x @param {number} y @param {number} z @returns {string} `c4.2` */
export const cubeName = (x, y, z) => `${String.fromCharCode(97 + x)}${y + 1}.${z + 1}`;

/**
 * Parses `c4.2` into [x, y, z], 0-based.
 * @param {string} name
 * @returns {Cube}
 */
export function parseCube(name) {
  const m = /^([a-z])(\d+)\.(\d+)$/.exec(name.trim().toLowerCase());
  if (!m) throw new Error(`not a cube: ${name}`);
  return [m[1].charCodeAt(0) - 97, Number(m[2]) - 1, Number(m[3]) - 1];
}

/**
 * The move text of cubes in the one spelling the server uses: by level, then row, then
 * column.
 * @param {Cube[]} cubes
 * @returns {string}
 */
export function moveText(cubes) {
  return [...cubes]
    .sort((a, b) => a[2] - b[2] || a[1] - b[1] || a[0] - b[0])
    .map((c) => cubeName(c[0], c[1], c[2]))
    .join(',');
}
