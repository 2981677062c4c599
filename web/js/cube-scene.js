// @ts-check
/**
 * The 3D view of a Blokus 3D site with three.js: the base squares with their names, the
 * cubes placed (edged, so levels can be counted), each column's height written on top,
 * a level ruler and the height limit, the last placement marked, and a ghost stone. The
 * camera turns about the site and tilts (drag, buttons, keys). Picking turns a pointer
 * position into the column it points at.
 * @module
 */

import * as THREE from '../vendor/three/three.module.js';

/** @typedef {import('./cube-shapes.js').Cube} Cube */

/** Colours of the four colours, as in the flat pages. */
export const COLOUR_HEX = { blue: 0x2f6fd0, yellow: 0xe8b820, red: 0xd23b3b, green: 0x2e9e4f };

/**
 * A text sprite (column letters, row numbers, heights).
 * @param {string} text
 * @param {string} colour CSS colour
 * @param {number} size world units
 */
function label(text, colour, size) {
  const canvas = document.createElement('canvas');
  canvas.width = 64;
  canvas.height = 64;
  const g = /** @type {CanvasRenderingContext2D} */ (canvas.getContext('2d'));
  g.font = 'bold 44px system-ui, sans-serif';
  g.textAlign = 'center';
  g.textBaseline = 'middle';
  g.lineWidth = 8;
  g.strokeStyle = 'rgba(255,255,255,0.85)';
  g.strokeText(text, 32, 34);
  g.fillStyle = colour;
  g.fillText(text, 32, 34);
  // Depth-tested, so a cube in front hides a label behind it (a height or a name seen
  // through a tower would read as belonging to the tower); drawn after the cubes and
  // writing no depth, so the label's clear corners hide nothing.
  const sprite = new THREE.Sprite(
    new THREE.SpriteMaterial({ map: new THREE.CanvasTexture(canvas), transparent: true, depthWrite: false }),
  );
  sprite.scale.set(size, size, 1);
  sprite.renderOrder = 10;
  return sprite;
}

/** How far west of the site the row names stand, and how high above the base. */
const ROW_LABEL_OFFSET = 0.6;
const LABEL_LIFT = 0.05;

/** World position of the centre of cube (x, y, z): y up, rows going north (-z). */
const world = (/** @type {number} */ x, /** @type {number} */ y, /** @type {number} */ z) =>
  new THREE.Vector3(x + 0.5, z + 0.5, -(y + 0.5));

export class CubeScene {
  /**
   * @param {HTMLElement} host
   * @param {{width: number, depth: number, height: number, squares: Array<[number, number]>}} site
   * @param {string[]} colours colour names in turn order
   */
  constructor(host, site, colours) {
    this.host = host;
    this.site = site;
    this.colours = colours;
    this.renderer = new THREE.WebGLRenderer({ antialias: true, preserveDrawingBuffer: true });
    this.renderer.setPixelRatio(Math.min(window.devicePixelRatio || 1, 2));
    this.canvas = /** @type {HTMLCanvasElement} */ (this.renderer.domElement);
    this.canvas.classList.add('cube-canvas');
    this.canvas.tabIndex = 0;
    this.canvas.setAttribute('aria-label', 'the site in 3D: drag to turn and tilt the view');
    host.replaceChildren(this.canvas);
    this.scene = new THREE.Scene();
    this.scene.background = new THREE.Color(0xeef1f5);
    this.scene.add(new THREE.AmbientLight(0xffffff, 1.6));
    const sun = new THREE.DirectionalLight(0xffffff, 2.2);
    sun.position.set(-6, 14, 9);
    this.scene.add(sun);
    this.camera = new THREE.PerspectiveCamera(40, 1, 0.1, 500);
    /** Camera angles in degrees: turn about the site, tilt above the base. */
    this.azimuth = 30;
    this.elevation = 40;
    this.centre = new THREE.Vector3(site.width / 2, site.height / 3, -site.depth / 2);
    this.distance = Math.max(site.width, site.depth, site.height) * 2.2 + 4;
    this.cubeGeom = new THREE.BoxGeometry(0.97, 0.97, 0.97);
    this.edgeGeom = new THREE.EdgesGeometry(this.cubeGeom);
    this.edgeMat = new THREE.LineBasicMaterial({ color: 0x1d2430 });
    /** @type {Record<string, any>} */
    this.materials = {};
    this.pieces = new THREE.Group();
    this.labels = new THREE.Group();
    this.ghost = new THREE.Group();
    this.hint = new THREE.Group();
    this.scene.add(this.pieces, this.labels, this.ghost, this.hint);
    /** Meshes the pointer can hit (base squares and cubes), with their cell. */
    this.targets = /** @type {any[]} */ ([]);
    this.raycaster = new THREE.Raycaster();
    this.buildSite();
    /** Whether a frame is already requested. */
    this.dirty = false;
    this.resize();
    new ResizeObserver(() => this.resize()).observe(host);
  }

  /** @param {string} key @param {() => any} make */
  material(key, make) {
    if (!this.materials[key]) this.materials[key] = make();
    return this.materials[key];
  }

  /** The base squares, their names along two edges, the level ruler and the height limit. */
  buildSite() {
    const { width, depth, height, squares } = this.site;
    const base = new THREE.MeshLambertMaterial({ color: 0xc9ced6 });
    const tileGeom = new THREE.BoxGeometry(0.94, 0.12, 0.94);
    for (const [x, y] of squares) {
      const tile = new THREE.Mesh(tileGeom, base);
      tile.position.set(x + 0.5, -0.06, -(y + 0.5));
      tile.userData = { cell: [x, y, -1] };
      this.scene.add(tile);
      this.targets.push(tile);
    }
    for (let x = 0; x < width; x++) {
      const l = label(String.fromCharCode(97 + x), '#333', 0.55);
      l.position.set(x + 0.5, 0.05, 0.6);
      this.scene.add(l);
    }
    for (let y = 0; y < depth; y++) {
      const l = label(String(y + 1), '#333', 0.55);
      const at = this.rowLabelAt(y);
      l.position.copy(world(at.x - 0.5, at.y - 0.5, at.z - 0.5));
      this.scene.add(l);
    }
    // The ruler at the south-west corner: one tick and number per level.
    for (let z = 0; z < height; z++) {
      const l = label(String(z + 1), '#666', 0.45);
      l.position.set(-0.6, z + 0.5, 0.6);
      this.scene.add(l);
    }
    const limit = new THREE.LineSegments(
      new THREE.EdgesGeometry(new THREE.BoxGeometry(width, height, depth)),
      new THREE.LineBasicMaterial({ color: 0x8a93a3, transparent: true, opacity: 0.35 }),
    );
    limit.position.set(width / 2, height / 2, -depth / 2);
    this.scene.add(limit);
  }

  resize() {
    const w = Math.max(50, this.host.clientWidth);
    const h = Math.max(50, this.host.clientHeight);
    this.renderer.setSize(w, h, false);
    this.camera.aspect = w / h;
    this.camera.updateProjectionMatrix();
    this.redraw();
  }

  /** Turns (degrees about the vertical) and tilts (degrees of elevation) the view. */
  orbit(/** @type {number} */ turnBy, /** @type {number} */ tiltBy) {
    this.azimuth = (this.azimuth + turnBy + 360) % 360;
    this.elevation = Math.min(88, Math.max(5, this.elevation + tiltBy));
    this.redraw();
  }

  placeCamera() {
    const a = (this.azimuth * Math.PI) / 180;
    const e = (this.elevation * Math.PI) / 180;
    const d = this.distance;
    this.camera.position.set(
      this.centre.x + d * Math.cos(e) * Math.sin(a),
      this.centre.y + d * Math.sin(e),
      this.centre.z + d * Math.cos(e) * Math.cos(a),
    );
    this.camera.lookAt(this.centre);
    this.camera.updateMatrixWorld();
  }

  redraw() {
    if (this.dirty) return;
    this.dirty = true;
    requestAnimationFrame(() => {
      this.dirty = false;
      this.placeCamera();
      this.renderer.render(this.scene, this.camera);
    });
  }

  /**
   * An edged cube.
   * @param {Cube} c
   * @param {any} material
   * @param {boolean} edges
   */
  cube(c, material, edges = true) {
    const m = new THREE.Mesh(this.cubeGeom, material);
    m.position.copy(world(c[0], c[1], c[2]));
    if (edges) m.add(new THREE.LineSegments(this.edgeGeom, this.edgeMat));
    return m;
  }

  /**
   * Shows these cubes, with each column's height on top; `last` marks a placement.
   * @param {Array<[number, number, number, number]>} cubes [x, y, z, colour]
   * @param {Set<string>} last keys `x,y,z` of the last placement's cubes
   */
  setCubes(cubes, last) {
    this.pieces.clear();
    this.labels.clear();
    this.targets = this.targets.filter((t) => t.userData.cell[2] < 0);
    /** @type {Map<string, number>} */
    const tops = new Map();
    for (const [x, y, z, colour] of cubes) {
      const name = this.colours[colour];
      const isLast = last.has(`${x},${y},${z}`);
      const mat = this.material(`${name}${isLast ? '-last' : ''}`, () => {
        const m = new THREE.MeshLambertMaterial({ color: COLOUR_HEX[/** @type {keyof COLOUR_HEX} */ (name)] ?? 0x888888 });
        if (isLast) m.emissive = new THREE.Color(0x555555);
        return m;
      });
      const mesh = this.cube([x, y, z], mat);
      mesh.userData = { cell: [x, y, z] };
      this.pieces.add(mesh);
      this.targets.push(mesh);
      const k = `${x},${y}`;
      tops.set(k, Math.max(tops.get(k) ?? 0, z + 1));
    }
    for (const [k, h] of tops) {
      const [x, y] = k.split(',').map(Number);
      const l = label(String(h), '#111', 0.42);
      l.position.set(x + 0.5, h + 0.3, -(y + 0.5));
      this.labels.add(l);
    }
    this.heights = tops;
    this.redraw();
  }

  /** Filled levels of a column. */
  columnHeight(/** @type {number} */ x, /** @type {number} */ y) {
    return this.heights?.get(`${x},${y}`) ?? 0;
  }

  /**
   * Shows the ghost stone (or none), green when legal, red when not.
   * @param {Cube[]|null} cubes
   * @param {boolean} legal
   * @param {string} colour colour name of the stone
   */
  setGhost(cubes, legal, colour) {
    this.ghost.clear();
    if (cubes) {
      const mat = this.material(`ghost-${colour}-${legal}`, () => new THREE.MeshLambertMaterial({
        color: legal ? COLOUR_HEX[/** @type {keyof COLOUR_HEX} */ (colour)] ?? 0x44aa44 : 0xff3030,
        transparent: true,
        opacity: legal ? 0.7 : 0.45,
        depthWrite: false,
      }));
      for (const c of cubes) this.ghost.add(this.cube(c, mat));
    }
    this.redraw();
  }

  /**
   * Shows the AI's suggested stone (or none): see-through, with bright edges, so it reads
   * as a suggestion and not as a stone placed or in hand.
   * @param {Cube[]|null} cubes
   * @param {string} colour colour name of the stone
   */
  setHint(cubes, colour) {
    this.hint.clear();
    if (cubes) {
      const mat = this.material(`hint-${colour}`, () => new THREE.MeshLambertMaterial({
        color: COLOUR_HEX[/** @type {keyof COLOUR_HEX} */ (colour)] ?? 0x888888,
        transparent: true,
        opacity: 0.35,
        depthWrite: false,
      }));
      const edges = this.material('hint-edges', () => new THREE.LineBasicMaterial({ color: 0xff00aa }));
      for (const c of cubes) {
        const m = new THREE.Mesh(this.cubeGeom, mat);
        m.position.copy(world(c[0], c[1], c[2]));
        m.add(new THREE.LineSegments(this.edgeGeom, edges));
        this.hint.add(m);
      }
    }
    this.redraw();
  }

  /** The number of cubes of the hint shown (for tests). */
  hintCubes() {
    return this.hint.children.length;
  }

  /**
   * The column under a point of the canvas: the square hit on the base, the column of a
   * cube whose top is hit, or the neighbour column of a cube whose side is hit.
   * @param {number} clientX
   * @param {number} clientY
   * @returns {[number, number]|null}
   */
  columnAt(clientX, clientY) {
    const r = this.canvas.getBoundingClientRect();
    const ndc = new THREE.Vector2(((clientX - r.left) / r.width) * 2 - 1, -((clientY - r.top) / r.height) * 2 + 1);
    this.placeCamera();
    this.raycaster.setFromCamera(ndc, this.camera);
    const hit = this.raycaster.intersectObjects(this.targets, false)[0];
    if (!hit) return null;
    const [x, y, z] = hit.object.userData.cell;
    if (z < 0 || !hit.face) return [x, y];
    const n = hit.face.normal;
    if (n.y > 0.5) return [x, y];
    return [x + Math.round(n.x), y - Math.round(n.z)];
  }

  /**
   * The page coordinates of the middle of a column's top (a filled column's top face,
   * or the base square), for aiming by keyboard and for tests.
   * @param {number} x
   * @param {number} y
   * @returns {{x: number, y: number}}
   */
  screenPoint(x, y) {
    return this.pagePoint(x + 0.5, y + 0.5, this.columnHeight(x, y));
  }

  /**
   * The page coordinates of a point of the site's space: `x` east and `y` north along the
   * base (a square is 1 wide, its corner at whole numbers), `z` up in levels.
   * @param {number} x
   * @param {number} y
   * @param {number} z
   * @returns {{x: number, y: number}}
   */
  pagePoint(x, y, z) {
    this.placeCamera();
    const p = new THREE.Vector3(x, z, -y).project(this.camera);
    const r = this.canvas.getBoundingClientRect();
    return { x: r.left + ((p.x + 1) / 2) * r.width, y: r.top + ((1 - p.y) / 2) * r.height };
  }

  /** Where the name of row `y` is written (west of the site), in the site's space. */
  rowLabelAt(/** @type {number} */ y) {
    return { x: -ROW_LABEL_OFFSET, y: y + 0.5, z: LABEL_LIFT };
  }
}
