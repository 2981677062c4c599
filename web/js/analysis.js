// @ts-check
/**
 * The AI's analysis of a finished game on the game page: the request button, the queue
 * and progress while the server computes it, then a graph of each side's expected
 * result over the game, the moves that lost much, and the AI's preferred move of the
 * position shown.
 * @module
 */

import { getJson, h, postJson, sideTitle } from './api.js';

/**
 * @typedef {{piece?: string, cells?: string[], pie?: string}} BestMove
 * @typedef {{values: number[], best?: BestMove}} AnalysedPosition
 * @typedef {{ply: number, side: number, before: number, after: number, loss: number, class?: 'inaccuracy'|'mistake'|'blunder'}} MoveReview
 * @typedef {{status: 'none'|'queued'|'running'|'done', queue_position?: number, done: number, total: number,
 *   simulations: number, sides: string[], positions: AnalysedPosition[], moves: MoveReview[],
 *   thresholds: {inaccuracy: number, mistake: number, blunder: number}}} Analysis
 */

const SVG = 'http://www.w3.org/2000/svg';
/** How often the page asks for progress while the server works. */
const POLL_MS = 1000;
/** The usual marks of annotated games. */
export const CLASS_MARK = { inaccuracy: '?!', mistake: '?', blunder: '??' };

/**
 * @param {string} tag
 * @param {Record<string, string|number>} attrs
 * @returns {SVGElement}
 */
function svg(tag, attrs) {
  const el = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, String(v));
  return el;
}

export class AnalysisPanel {
  /**
   * @param {string} gameId
   * @param {HTMLElement} host the panel
   * @param {{sideColour: (side: number) => string, viewAt: (ply: number) => void, changed: () => void}} hooks
   */
  constructor(gameId, host, hooks) {
    this.id = gameId;
    this.host = host;
    this.hooks = hooks;
    /** @type {Analysis|null} */
    this.data = null;
    this.loading = false;
    /** @type {number|undefined} */
    this.timer = undefined;
    /** The position the page shows (the replay's ply, or the end). */
    this.ply = 0;
  }

  /** Loads the analysis once the game is over (and again while it is being computed). */
  async load() {
    if (this.loading) return;
    this.loading = true;
    try {
      this.set(await getJson(`/api/games/${this.id}/analysis`));
    } catch (e) {
      this.host.replaceChildren(h('h2', {}, ['Analysis']), h('p', { class: 'muted' }, [`Not available: ${e instanceof Error ? e.message : e}`]));
    } finally {
      this.loading = false;
    }
  }

  async request() {
    try {
      this.set(await postJson(`/api/games/${this.id}/analysis`, {}));
    } catch (e) {
      this.host.append(h('p', { class: 'error-text' }, [`No analysis: ${e instanceof Error ? e.message : e}`]));
    }
  }

  /** @param {Analysis} a */
  set(a) {
    this.data = a;
    clearTimeout(this.timer);
    if (a.status === 'queued' || a.status === 'running') this.timer = window.setTimeout(() => this.load(), POLL_MS);
    this.render();
    this.hooks.changed();
  }

  /** @param {number} ply */
  show(ply) {
    this.ply = ply;
    if (this.data) this.render();
  }

  /**
   * The review of event `ply`, when the analysis is done.
   * @param {number} ply
   * @returns {MoveReview|undefined}
   */
  review(ply) {
    return this.data && this.data.status === 'done' ? this.data.moves.find((m) => m.ply === ply) : undefined;
  }

  /**
   * The AI's preferred placement in the position after `ply` events, when done.
   * @param {number} ply
   * @returns {string[]|null}
   */
  bestCells(ply) {
    const a = this.data;
    if (!a || a.status !== 'done') return null;
    return a.positions[ply]?.best?.cells || null;
  }

  render() {
    const a = this.data;
    if (!a) return;
    const head = h('h2', {}, ['Analysis']);
    if (a.status === 'none') {
      const b = h('button', { type: 'button', class: 'primary', id: 'analyse' }, ['Analyse this game']);
      b.addEventListener('click', () => {
        b.setAttribute('disabled', '');
        this.request();
      });
      this.host.replaceChildren(head, h('p', { class: 'muted small-text' }, ['The AI goes over every position: how each side stood, the moves that lost much, and what it would have played.']), b);
      return;
    }
    if (a.status !== 'done') {
      const where =
        a.status === 'queued'
          ? `Waiting: ${a.queue_position ? `${a.queue_position} ${a.queue_position === 1 ? 'analysis' : 'analyses'} before this one` : 'starting soon'}.`
          : `Analysing: ${a.done} of ${a.total} positions.`;
      const bar = h('progress', { max: String(a.total), value: String(a.done), 'aria-label': 'analysis progress' });
      this.host.replaceChildren(head, h('p', { id: 'analysis-progress', role: 'status' }, [where]), bar);
      return;
    }
    this.host.replaceChildren(head, this.graph(a), this.legend(a), this.summary(a), this.here(a));
  }

  /**
   * Each side's expected result over the game, the classed moves marked, the position
   * shown as a line; a click replays that position.
   * @param {Analysis} a
   */
  graph(a) {
    const W = 300;
    const H = 120;
    const n = Math.max(1, a.positions.length - 1);
    const x = (/** @type {number} */ i) => (i / n) * W;
    const y = (/** @type {number} */ v) => H - v * H;
    const root = svg('svg', { viewBox: `-4 -4 ${W + 8} ${H + 8}`, class: 'analysis-graph', role: 'img', id: 'analysis-graph' });
    root.setAttribute('aria-label', `Expected result of each side over the game, from 0 (lost) to 1 (won)`);
    root.append(svg('rect', { x: 0, y: 0, width: W, height: H, class: 'ag-frame' }));
    root.append(svg('line', { x1: 0, x2: W, y1: y(0.5), y2: y(0.5), class: 'ag-even' }));
    a.sides.forEach((_, side) => {
      const pts = a.positions.map((p, i) => `${x(i).toFixed(1)},${y(p.values[side]).toFixed(1)}`).join(' ');
      root.append(svg('polyline', { points: pts, class: 'ag-line', stroke: this.hooks.sideColour(side), 'data-side': side }));
    });
    for (const m of a.moves) {
      if (!m.class) continue;
      const v = a.positions[m.ply + 1].values[m.side];
      const dot = svg('circle', { cx: x(m.ply + 1), cy: y(v), r: m.class === 'blunder' ? 4 : 3, class: `ag-mark ag-${m.class}` });
      const t = svg('title', {});
      t.textContent = `move ${m.ply + 1}: ${m.class}`;
      dot.append(t);
      root.append(dot);
    }
    root.append(svg('line', { x1: x(this.ply), x2: x(this.ply), y1: 0, y2: H, class: 'ag-now' }));
    root.addEventListener('click', (ev) => {
      const box = root.getBoundingClientRect();
      const frac = (ev.clientX - box.left) / box.width;
      const ply = Math.round(((frac * (W + 8) - 4) / W) * n);
      this.hooks.viewAt(Math.max(0, Math.min(n, ply)));
    });
    return root;
  }

  /** @param {Analysis} a */
  legend(a) {
    return h(
      'p',
      { class: 'small-text ag-legend' },
      a.sides.map((name, side) =>
        h('span', {}, [h('span', { class: 'chip', style: `background:${this.hooks.sideColour(side)}` }), `${sideTitle(name)} ${a.positions[this.ply]?.values[side].toFixed(2) ?? ''} `]),
      ),
    );
  }

  /** Counts of classed moves per side, with the thresholds. @param {Analysis} a */
  summary(a) {
    const rows = a.sides.map((name, side) => {
      const count = (/** @type {string} */ c) => a.moves.filter((m) => m.side === side && m.class === c).length;
      return h('li', {}, [
        `${sideTitle(name)}: ${count('inaccuracy')} inaccuracies (?!), ${count('mistake')} mistakes (?), ${count('blunder')} blunders (??)`,
      ]);
    });
    const t = a.thresholds;
    return h('div', {}, [
      h('ul', { class: 'ag-summary small-text' }, rows),
      h('p', { class: 'muted small-text' }, [
        `Values: each side's expected result, 0 lost to 1 won (${a.simulations} simulations per position). A move losing ${t.inaccuracy} is an inaccuracy, ${t.mistake} a mistake, ${t.blunder} a blunder.`,
      ]),
    ]);
  }

  /** The preferred move of the position shown, and the review of the move that led to it. @param {Analysis} a */
  here(a) {
    const lines = [];
    const prev = a.moves.find((m) => m.ply === this.ply - 1);
    if (prev) {
      lines.push(
        h('p', { class: 'small-text' }, [
          `Move ${prev.ply + 1}: ${prev.before.toFixed(2)} → ${prev.after.toFixed(2)} for ${sideTitle(a.sides[prev.side])}${prev.class ? ` — ${prev.class} ${CLASS_MARK[prev.class]}` : ''}.`,
        ]),
      );
    }
    const best = a.positions[this.ply]?.best;
    if (best && best.cells) {
      lines.push(h('p', { class: 'small-text', id: 'analysis-best' }, [`AI's choice here: ${best.piece} at ${best.cells.join(',')} (ghost on the board).`]));
    } else if (best && best.pie) {
      lines.push(h('p', { class: 'small-text', id: 'analysis-best' }, [`AI's choice here: ${best.pie}.`]));
    }
    return h('div', {}, lines);
  }
}
