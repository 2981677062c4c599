// @ts-check
// End-to-end tests of `blokus serve` in headless Chromium (playwright-core).
// Usage: BLOKUS_BIN=/path/to/blokus node run-tests.mjs
// Prints one line per test and ends with "N passed, N failed".

import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '..');
const shots = path.join(root, 'test-output', 'screenshots');
mkdirSync(shots, { recursive: true });
const BIN = process.env.BLOKUS_BIN || path.join(root, 'target', 'release', 'blokus');
const CHROMIUM = process.env.CHROMIUM || '/usr/bin/chromium';

/** @returns {Promise<number>} */
function freePort() {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.listen(0, '127.0.0.1', () => {
      const a = s.address();
      const port = typeof a === 'object' && a ? a.port : 0;
      s.close(() => resolve(port));
    });
    s.on('error', reject);
  });
}

/** A `blokus serve` process on a data directory. */
class Server {
  /** @param {string} data @param {number} port @param {string[]} [args] more `blokus serve` options */
  constructor(data, port, args = []) {
    this.data = data;
    this.port = port;
    this.args = args;
    /** @type {import('node:child_process').ChildProcess|null} */
    this.proc = null;
  }

  get url() {
    return `http://127.0.0.1:${this.port}`;
  }

  async start() {
    this.proc = spawn(BIN, ['serve', '--port', String(this.port), '--data', this.data, ...this.args], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    this.proc.stderr?.on('data', (d) => process.stderr.write(`[server] ${d}`));
    const deadline = Date.now() + 20000;
    while (Date.now() < deadline) {
      try {
        const r = await fetch(`${this.url}/api/variants`);
        if (r.ok) return;
      } catch {
        /* not up yet */
      }
      await sleep(100);
    }
    throw new Error('server did not start');
  }

  /** Kills the process with SIGKILL (no chance to clean up) and waits for its end. */
  async kill9() {
    const p = this.proc;
    if (!p || p.exitCode !== null) return;
    const done = new Promise((r) => p.once('exit', r));
    p.kill('SIGKILL');
    await done;
    this.proc = null;
  }
}

/** @param {number} ms */
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/**
 * @param {boolean} cond
 * @param {string} msg
 */
function assert(cond, msg) {
  if (!cond) throw new Error(`assertion failed: ${msg}`);
}

/** @typedef {import('playwright-core').Page} Page */

/** @param {Page} page @returns {Promise<number>} the game's ply (-1 before it loads) */
const ply = (page) => page.evaluate(() => window.blokusGame?.state()?.ply ?? -1);

/** @param {Page} page @param {number} n @param {number} [timeout] */
const waitPly = (page, n, timeout = 30000) =>
  page.waitForFunction((n) => (window.blokusGame?.state()?.ply ?? -1) >= n, n, { timeout });

/** @param {Page} page @param {number} [timeout] */
const waitMyTurn = (page, timeout = 30000) => page.waitForFunction(() => !!window.blokusGame?.myTurn(), null, { timeout });

/**
 * Turns the piece in hand with the F and R keys, as a person does, until it has
 * orientation `t` (see web/js/geometry.js Orientation).
 * @param {Page} page
 * @param {'game'|'puzzle'} kind
 * @param {{t: number, half: number}} plan
 */
async function turnTo(page, kind, plan) {
  const orient = () => page.evaluate((k) => (k === 'game' ? window.blokusGame : window.blokusPuzzle)?.orientation() ?? -1, kind);
  if ((await orient()) >= plan.half !== plan.t >= plan.half) await page.keyboard.press('f');
  for (let i = 0; i < plan.half && (await orient()) !== plan.t; i++) await page.keyboard.press('r');
  assert((await orient()) === plan.t, 'turned to the wanted orientation');
}

/**
 * Picks a piece in the tray, turns it, aims it and waits for a legal preview, the way a
 * person does; where to aim is what the page's picker finds (it changes nothing).
 * @param {Page} page
 * @param {string} [preferred] piece name to try first
 */
async function aimSomeMove(page, preferred) {
  await page.waitForFunction(() => {
    const g = window.blokusGame;
    return !!g && g.myTurn() && g.legalCount() > 0 && !g.sending();
  });
  const plan = await page.evaluate((pref) => window.blokusGame?.findAim(pref) ?? null, preferred || '');
  assert(plan !== null, 'a legal placement exists');
  if (!plan) throw new Error('unreachable');
  await page.click(`#tray .tray-colour.active button[data-piece="${plan.piece}"]`);
  await turnTo(page, 'game', plan);
  const cell = page.locator(`#board polygon[data-cell="${plan.cell}"]`);
  await cell.hover();
  await page.waitForSelector('.ghost-cell.legal');
  return { plan, cell };
}

/**
 * Plays a legal move with real clicks and key presses.
 * @param {Page} page
 * @param {string} [preferred] piece name to try first
 */
async function playSomeMove(page, preferred) {
  const before = await ply(page);
  const { plan, cell } = await aimSomeMove(page, preferred);
  await cell.click();
  await waitPly(page, before + 1);
  return plan;
}

/**
 * Creates a game from the lobby form.
 * @param {import('playwright-core').Page} page
 * @param {string} base
 * @param {string} variant
 * @param {Array<string>} kinds seat kinds (me, ai, human, hotseat)
 */
async function createFromLobby(page, base, variant, kinds) {
  await page.goto(`${base}/`);
  await page.selectOption('#variant', variant);
  const selects = page.locator('.seat-kind');
  for (let i = 0; i < kinds.length; i++) await selects.nth(i).selectOption(kinds[i]);
  const levels = page.locator('.seat-level');
  for (let i = 0; i < kinds.length; i++) if (kinds[i] === 'ai') await levels.nth(i).selectOption('1');
  await Promise.all([page.waitForURL(/\/game\/[0-9a-f]{16}$/), page.click('#create-btn')]);
  await page.waitForFunction(() => !!window.blokusGame?.state());
}

/** @param {import('playwright-core').Page} page @param {string} name */
async function shot(page, name) {
  await page.screenshot({ path: path.join(shots, `${name}.png`), fullPage: true });
}

/** @type {Array<[string, (ctx: {browser: import('playwright-core').Browser, server: Server}) => Promise<void>]>} */
const tests = [];
/** @param {string} name @param {(ctx: {browser: import('playwright-core').Browser, server: Server}) => Promise<void>} fn */
const test = (name, fn) => tests.push([name, fn]);

test('duo against the AI: place pieces by clicking, the AI answers, reload resumes', async ({ browser, server }) => {
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  await page.goto(`${server.url}/`);
  await page.waitForSelector('#variant option[value="trigon_3"]', { state: 'attached' });
  await shot(page, 'lobby');
  await createFromLobby(page, server.url, 'duo', ['me', 'ai']);
  await page.waitForSelector('#status.status-you');
  await shot(page, 'duo-start');
  // Aimed away from the starting points: the preview already says why, in the rules
  // engine's words, naming the cell; a click changes nothing.
  await page.click('#tray .tray-colour.active button[data-piece="O"]');
  await page.locator('#board polygon[data-name="b2"]').hover();
  await page.waitForFunction(() => (document.querySelector('#aim-hint')?.textContent || '').includes('starting point'));
  assert((await page.locator('#aim-hint').innerText()).startsWith('Not at b2'), 'the cell named');
  await page.locator('#board polygon[data-name="b2"]').click();
  assert((await ply(page)) === 0, 'nothing placed');
  await page.keyboard.press('Escape');
  await playSomeMove(page, 'X');
  await waitPly(page, 2, 60000);
  await playSomeMove(page, 'F');
  await waitPly(page, 4, 60000);
  // Select a piece and hover to show the ghost preview in the screenshot.
  await waitMyTurn(page);
  await page.click('#tray .tray-colour.active button.piece:not(.blocked)');
  await page.locator('#board polygon[data-cell="100"]').hover();
  await page.screenshot({ path: path.join(shots, 'duo-ghost.png') });
  await shot(page, 'duo-vs-ai');
  const filled = await page.locator('#board polygon.cell.filled').count();
  assert(filled >= 4, `pieces on the board (${filled})`);
  await page.reload();
  await waitPly(page, 4);
  await page.waitForSelector('#conn.conn-open');
  const after = await page.locator('#board polygon.cell.filled').count();
  assert(after === filled, `same board after reload (${after} vs ${filled})`);
  assert((await page.locator('#moves li').count()) >= 4, 'move list restored');
  // Undo takes back my last move and the AI's answer.
  const now = await ply(page);
  await page.click('#undo');
  await page.waitForFunction((p) => window.blokusGame?.state()?.ply === p - 2, now);
  await page.close();
});

test('a Trigon move by clicking', async ({ browser, server }) => {
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  await createFromLobby(page, server.url, 'trigon', ['me', 'ai', 'ai', 'ai']);
  await page.waitForSelector('#status.status-you');
  const plan = await playSomeMove(page, 'I6');
  assert(!!plan, 'played');
  await waitPly(page, 4, 60000);
  const filled = await page.locator('#board polygon.cell.filled').count();
  assert(filled >= 4, `triangles covered (${filled})`);
  await shot(page, 'trigon');
  // A legal ghost preview on triangles, for the screenshot.
  await waitMyTurn(page, 60000);
  await aimSomeMove(page, 'F');
  await page.screenshot({ path: path.join(shots, 'trigon-ghost.png') });
  await page.close();
});

test('two browsers play each other by link', async ({ browser, server }) => {
  const ca = await browser.newContext({ viewport: { width: 1200, height: 850 } });
  const cb = await browser.newContext({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true });
  const a = await ca.newPage();
  const b = await cb.newPage();
  await createFromLobby(a, server.url, 'duo', ['me', 'human']);
  await a.waitForSelector('#share:not([hidden])');
  const link = await a.locator('#share input').inputValue();
  // The host waits for the invited player: no move before the seat is taken.
  assert((await a.locator('#status').innerText()).includes('Waiting for the opponent to join — share this link'), 'the host is told to wait');
  assert(await a.locator('#ai-hint').isHidden(), 'no AI hints in a game between people');
  await a.click('#tray .tray-colour.active button[data-piece="X"]');
  await a.locator('#board polygon[data-name="e10"]').click();
  await sleep(300);
  assert((await ply(a)) === 0 && (await a.locator('#board .ghost-cell').count()) === 0, 'no move before the seat is taken');
  await a.keyboard.press('Escape');
  assert(link.includes('/game/'), 'share link shown');
  await b.goto(link);
  await b.click('text=Take this seat');
  await b.waitForFunction(() => (window.blokusGame?.state()?.you || []).length === 1);
  await playSomeMove(a, 'X');
  await waitMyTurn(b);
  await playSomeMove(b, 'X');
  await waitPly(a, 2);
  await shot(a, 'link-player-a');
  await shot(b, 'link-player-b-phone');
  // Out of turn from the UI: B cannot act now (A's turn), so B has no legal moves.
  const bLegal = await b.evaluate(() => window.blokusGame?.legalCount());
  assert(bLegal === 0, 'no legal moves offered out of turn');
  await ca.close();
  await cb.close();
});

test('kill -9 of the server in the middle of a game loses nothing; clients reconnect', async ({ browser, server }) => {
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  await createFromLobby(page, server.url, 'classic_2', ['me', 'ai']);
  await playSomeMove(page, 'X');
  await waitPly(page, 2, 60000);
  await waitMyTurn(page, 60000);
  const moves = () => page.evaluate(() => JSON.stringify(window.blokusGame?.state()?.moves));
  const before = await moves();
  await server.kill9();
  await page.waitForSelector('#conn.conn-waiting');
  await shot(page, 'server-down');
  await server.start();
  await page.waitForSelector('#conn.conn-open', { timeout: 30000 });
  await waitMyTurn(page);
  const after = await moves();
  assert(after === before, 'the same moves after the restart');
  await playSomeMove(page);
  await shot(page, 'after-restart');
  await page.close();
});

test('phone-sized screen: tap to preview, tap again to place', async ({ browser, server }) => {
  const ctx = await browser.newContext({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true });
  const page = await ctx.newPage();
  await createFromLobby(page, server.url, 'duo', ['me', 'ai']);
  await shot(page, 'phone-start');
  await page.waitForSelector('#status.status-you');
  await page.tap('#tray .tray-colour.active button[data-piece="1"]');
  const cell = page.locator('#board polygon[data-name="e10"]');
  await cell.tap();
  await page.waitForSelector('.ghost-cell.legal');
  assert((await ply(page)) === 0, 'first tap only previews');
  await cell.tap();
  await waitPly(page, 1);
  await waitPly(page, 2, 60000);
  await shot(page, 'phone-after');
  await ctx.close();
});

test('Polyomino pie rule in hot-seat: opening of two colours, then keep or swap', async ({ browser, server }) => {
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  await createFromLobby(page, server.url, 'polyomino_mini', ['hotseat', 'hotseat']);
  await playSomeMove(page, 'O');
  await playSomeMove(page, 'I4');
  await page.waitForSelector('#pie:not([hidden])');
  await shot(page, 'pie-choice');
  await page.click('#pie button:has-text("Swap")');
  await waitPly(page, 3);
  const seats = await page.evaluate(() => window.blokusGame?.state()?.seats.map((s) => s.colours.join('+')) ?? []);
  assert(seats[0] === 'blue' && seats[1] === 'orange', `after a swap the first player plays Blue (${seats})`);
  await playSomeMove(page);
  await page.close();
});

test('replay of a game move by move', async ({ browser, server }) => {
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  await createFromLobby(page, server.url, 'duo', ['hotseat', 'hotseat']);
  await playSomeMove(page, 'X');
  await playSomeMove(page, 'X');
  await playSomeMove(page, 'I5');
  const full = await page.locator('#board polygon.cell.filled').count();
  await page.click('#r-first');
  assert((await page.locator('#board polygon.cell.filled').count()) === 0, 'empty board at move 0');
  await page.click('#r-next');
  assert((await page.locator('#board polygon.cell.filled').count()) === 5, 'one piece after move 1');
  await page.keyboard.press('ArrowRight');
  assert((await page.locator('#board polygon.cell.filled').count()) === 10, 'two pieces after move 2');
  await shot(page, 'replay');
  await page.click('#r-last');
  assert((await page.locator('#board polygon.cell.filled').count()) === full, 'live again');
  const rec = await page.evaluate(async () => (await fetch(/** @type {HTMLAnchorElement} */ (document.querySelector('#download')).href)).text());
  assert(rec.includes('GM[Blokus Duo]'), 'the record downloads');
  await page.close();
});

test('spectate an AI game to the end: game-over panel with the scores', async ({ browser, server }) => {
  const r = await fetch(`${server.url}/api/games`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ variant: 'duo', seats: [{ kind: 'ai', level: 1 }, { kind: 'ai', level: 1 }] }),
  });
  const g = await r.json();
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  await page.goto(`${server.url}${g.url}`);
  await page.waitForSelector('#gameover:not([hidden])', { timeout: 120000 });
  const text = await page.locator('#gameover').innerText();
  assert(text.includes('Game over'), 'game-over panel');
  assert((await page.locator('#tray .tray-colour.active').count()) === 0, 'spectators get no active tray');
  await shot(page, 'game-over');
  await page.close();
});

/**
 * Places a piece on the puzzle page the way a person does: picks it in the tray, turns
 * it with the R and F keys until it has the wanted shape, hovers over the board and
 * clicks. `cells` are the cell names it must cover.
 * @param {import('playwright-core').Page} page
 * @param {string} colour colour name
 * @param {string} piece piece name
 * @param {string[]} cells
 */
async function placePuzzlePiece(page, colour, piece, cells) {
  if (await page.locator('#tray').isHidden()) await page.click('#tray-toggle');
  await page.click(`#colours button:has-text("${colour[0].toUpperCase()}${colour.slice(1)}")`);
  await page.click(`#tray button[data-piece="${piece}"]`);
  // Where to aim, and in which orientation (found as a person would, by trying).
  const plan = await page.evaluate((cells) => window.blokusPuzzle?.findAim(cells) ?? null, cells);
  assert(plan !== null, `${piece} can cover ${cells}`);
  if (!plan) return;
  await turnTo(page, 'puzzle', plan);
  const before = await placed(page);
  const target = page.locator(`#board polygon[data-cell="${plan.cell}"]`);
  await target.hover();
  await page.waitForSelector('#board .ghost-cell');
  await target.click();
  await waitPlaced(page, before + 1);
}

/** @param {Page} page @returns {Promise<number>} pieces placed on the puzzle page */
const placed = (page) => page.evaluate(() => window.blokusPuzzle?.placements().length ?? -1);

/** @param {Page} page @param {number} n @param {number} [timeout] */
const waitPlaced = (page, n, timeout = 30000) =>
  page.waitForFunction((n) => window.blokusPuzzle?.placements().length === n, n, { timeout });

test('puzzle page: place by clicking, undo, a dead end, hints to the solved screen', async ({ browser, server }) => {
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  await page.goto(`${server.url}/puzzle?id=tetro_8x10`);
  await page.waitForFunction(() => window.blokusPuzzle?.puzzleId() === 'tetro_8x10');
  assert((await page.locator('#board polygon.cell').count()) === 80, 'an 8 x 10 board');
  const filled = () => page.locator('#board polygon.cell.filled').count();

  // A piece by clicking, shown on the board and in the list; then undone.
  await placePuzzlePiece(page, 'blue', 'L4', ['a1', 'b1', 'c1', 'a2']);
  assert((await filled()) === 4, 'four cells covered');
  assert((await page.locator('#moves li').count()) === 1, 'listed');
  assert((await page.locator('#count').innerText()).startsWith('1 /'), 'counted');
  await page.click('#undo');
  await waitPlaced(page, 0);
  assert((await filled()) === 0, 'undo empties the board');

  // An overlapping placement is previewed as illegal, says why, and changes nothing.
  await placePuzzlePiece(page, 'blue', 'O', ['a1', 'b1', 'a2', 'b2']);
  await page.click('#colours button:has-text("Yellow")');
  await page.click('#tray button[data-piece="O"]');
  const same = page.locator('#board polygon[data-name="b2"]');
  await same.hover();
  await page.waitForSelector('#board .ghost-cell.illegal');
  assert((await page.locator('#aim-hint').innerText()).includes('already covered'), 'the preview says why');
  await same.click();
  assert((await placed(page)) === 1, 'an overlapping piece is refused');
  await page.click('#undo');
  await waitPlaced(page, 0);

  // A T that cuts off the corner a1: the hint says there is no solution from here.
  await placePuzzlePiece(page, 'red', 'T4', ['a2', 'b2', 'c2', 'b1']);
  await page.click('#hint');
  await page.waitForFunction(() => (document.querySelector('#status')?.textContent || '').includes('No solution from here'));
  assert((await page.locator('.toast-error').last().innerText()).includes('No solution from here'), 'told why');
  assert((await placed(page)) === 1, 'nothing placed by a failed hint');
  await shot(page, 'puzzle-no-solution');
  await page.click('#undo');
  await waitPlaced(page, 0);

  // The strict form, one piece by hand, then hint after hint to the solved screen.
  await page.check('#strict');
  await placePuzzlePiece(page, 'green', 'I4', ['a1', 'a2', 'a3', 'a4']);
  for (let i = 1; i < 20; i++) {
    // The first press highlights the solver's next piece, the second places it.
    await page.click('#hint');
    await page.waitForSelector('#board .hint-cell', { timeout: 20000 });
    if (i === 1) {
      const status = await page.locator('#status').innerText();
      assert(status.startsWith('Hint: ') && status.includes('highlighted'), `the hint is shown first (${status})`);
      assert((await page.locator('#board .hint-cell').count()) === 4, 'its four cells highlighted');
      assert((await placed(page)) === 1, 'not placed yet');
      await shot(page, 'puzzle-hint');
    }
    await page.click('#hint');
    await waitPlaced(page, i + 1, 20000);
  }
  await page.waitForSelector('#solved:not([hidden])');
  assert((await page.locator('#solved').innerText()).includes('Solved!'), 'solved screen');
  assert((await filled()) === 80, 'every cell covered');
  const first = await page.evaluate(() => window.blokusPuzzle?.placements()[0]);
  assert(first?.piece === 'I4' && first?.colour === 'green', 'the hand-placed piece stays');
  // The server agrees: the strict tiling is complete and valid.
  const check = await page.evaluate(async () => {
    const r = await fetch('/api/puzzles/tetro_8x10/check', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ placements: window.blokusPuzzle?.placements(), strict: true }),
    });
    return r.json();
  });
  assert(check.valid && check.solved, `the server checks the solution (${JSON.stringify(check)})`);
  await shot(page, 'puzzle-solved');
  await page.close();
});

test('puzzle page on a phone: the first tap previews, Shift+R and E turn back', async ({ browser, server }) => {
  const ctx = await browser.newContext({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true });
  const page = await ctx.newPage();
  await page.goto(`${server.url}/puzzle?id=tetro_8x10`);
  await page.waitForFunction(() => window.blokusPuzzle?.puzzleId() === 'tetro_8x10');
  await page.tap('#tray button[data-piece="L4"]');
  const orient = () => page.evaluate(() => window.blokusPuzzle?.orientation() ?? -1);
  await page.keyboard.press('r');
  assert((await orient()) === 1, 'R turns');
  await page.keyboard.press('Shift+R');
  assert((await orient()) === 0, 'Shift+R turns back');
  await page.keyboard.press('e');
  assert((await orient()) === 3, 'E turns back');
  const cell = page.locator('#board polygon[data-name="b2"]');
  await cell.tap();
  await page.waitForSelector('#board .ghost-cell.legal');
  assert((await placed(page)) === 0, 'the first tap only previews');
  await cell.tap();
  await waitPlaced(page, 1);
  await ctx.close();
});

test('puzzle page: a strict 15 x 16 pentomino hint comes back within seconds', async ({ browser, server }) => {
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  await page.goto(`${server.url}/puzzle?id=penta_15x16`);
  await page.waitForFunction(() => window.blokusPuzzle?.puzzleId() === 'penta_15x16');
  await page.check('#strict');
  const t0 = Date.now();
  await page.click('#hint');
  await page.waitForFunction(() => !window.blokusPuzzle?.busy() && !document.body.classList.contains('hint-busy'), null, { timeout: 30000 });
  const secs = (Date.now() - t0) / 1000;
  const n = await page.locator('#board .hint-cell').count();
  const status = await page.locator('#status').innerText();
  // Either a piece of a solution (highlighted) or an honest "not found within the limit".
  assert(n === 5 || status.includes('within the search limit'), `hint answered (${n} cells highlighted, "${status}")`);
  assert(secs < 15, `hint took ${secs.toFixed(1)} s`);
  console.log(`     penta_15x16 strict hint from the empty board: ${n === 5 ? 'a piece' : 'not found'} in ${secs.toFixed(1)} s`);
  await shot(page, 'puzzle-penta-hint');
  await page.close();
});

// ----- issue 11: the move loop, the game's end, feedback, access, polish -----

/** The two screens every front-end test runs at. */
const SIZES = [
  { name: 'desktop', viewport: { width: 1280, height: 800 } },
  { name: 'phone', viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true },
];

/**
 * Runs a test body once per screen size in a fresh browser context.
 * @param {import('playwright-core').Browser} browser
 * @param {(page: Page, size: typeof SIZES[number]) => Promise<void>} body
 * @param {import('playwright-core').BrowserContextOptions} [extra]
 */
async function atBothSizes(browser, body, extra = {}) {
  for (const size of SIZES) {
    const { name, ...opts } = size;
    const ctx = await browser.newContext({ ...opts, ...extra });
    try {
      await body(await ctx.newPage(), size);
    } catch (e) {
      if (e instanceof Error) e.message = `at ${name} size: ${e.message}`;
      throw e;
    } finally {
      await ctx.close();
    }
  }
}

/**
 * Creates a game through the API with this page's seat tokens stored, and opens it.
 * @param {Page} page
 * @param {string} base
 * @param {string} variant
 * @param {Array<{kind: string, level?: number}>} seats
 */
async function openGame(page, base, variant, seats) {
  await page.goto(`${base}/`);
  const url = await page.evaluate(
    async ([variant, seats]) => {
      const r = await fetch('/api/games', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ variant, seats }) });
      /** @type {{id: string, url: string, tokens: Array<{seat: number, token: string}>}} */
      const g = await r.json();
      localStorage.setItem('blokus.tokens', JSON.stringify({ [g.id]: g.tokens }));
      return g.url;
    },
    /** @type {[string, Array<{kind: string, level?: number}>]} */ ([variant, seats]),
  );
  await page.goto(`${base}${url}`);
  await page.waitForFunction(() => !!window.blokusGame?.state());
}

/** @param {Page} page @param {string} sel */
const box = async (page, sel) => {
  const b = await page.locator(sel).first().boundingBox();
  assert(b !== null, `${sel} is shown`);
  return /** @type {{x: number, y: number, width: number, height: number}} */ (b);
};

/** @param {Page} page */
const pageWidth = (page) => page.evaluate(() => document.documentElement.scrollWidth);

test('layout: board and pieces side by side on a wide screen for every board; a pieces drawer on a phone', async ({ browser, server }) => {
  const boards = [
    ['classic', 4],
    ['duo', 2],
    ['trigon', 4],
    ['polyomino_hexa', 2],
  ];
  await atBothSizes(browser, async (page, size) => {
    const { width: W, height: H } = size.viewport;
    for (const [variant, n] of boards) {
      await openGame(page, server.url, String(variant), [{ kind: 'me' }, ...Array(Number(n) - 1).fill({ kind: 'ai', level: 1 })]);
      await waitMyTurn(page);
      const board = await box(page, '#board svg');
      assert(board.y + board.height <= H + 1, `${variant}: the board fits the window height (bottom ${board.y + board.height} of ${H})`);
      assert((await pageWidth(page)) <= W, `${variant}: no sideways scrolling`);
      if (size.name === 'desktop') {
        const tray = await box(page, '#tray .tray-colour.active');
        assert(tray.x >= board.x + board.width, `${variant}: the pieces are beside the board`);
        assert(tray.y < H / 2, `${variant}: the pieces start in the upper half of the window`);
        assert(board.height >= H * 0.7, `${variant}: the board uses the window height (${board.height})`);
      } else {
        assert(board.width >= W * 0.9, `${variant}: the board spans the phone's width (${board.width})`);
        // The drawer: open on my turn, folded when a piece is picked, unfolded again.
        const tray = await box(page, '#tray .tray-colour.active');
        assert(tray.y < H, `${variant}: the pieces are on screen`);
        await page.tap('#tray .tray-colour.active button.piece:not(.blocked)');
        assert(await page.locator('#tray').isHidden(), `${variant}: picking a piece folds the drawer`);
        const drawer = await box(page, '#tray-col');
        assert(drawer.y >= board.y + board.height * 0.85, `${variant}: the folded drawer leaves the board free`);
        await page.tap('#tray-toggle');
        assert(await page.locator('#tray').isVisible(), `${variant}: the drawer unfolds`);
      }
      await shot(page, `layout-${variant}-${size.name}`);
    }
    await page.goto(`${server.url}/puzzle?id=penta_15x16`);
    await page.waitForFunction(() => window.blokusPuzzle?.puzzleId() === 'penta_15x16');
    const board = await box(page, '#board svg');
    assert(board.y + board.height <= H + 1, 'the 15x16 puzzle board fits the window height');
    assert((await pageWidth(page)) <= W, 'puzzle: no sideways scrolling');
    if (size.name === 'desktop') assert((await box(page, '#tray')).x >= board.x + board.width, 'puzzle pieces beside the board');
    await shot(page, `layout-puzzle-${size.name}`);
  });
});

test('the mouse wheel scrolls the page; only Shift + wheel turns the piece in hand', async ({ browser, server }) => {
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  await openGame(page, server.url, 'classic', [{ kind: 'me' }, { kind: 'ai', level: 1 }, { kind: 'ai', level: 1 }, { kind: 'ai', level: 1 }]);
  await waitMyTurn(page);
  await page.click('#tray .tray-colour.active button[data-piece="L5"]');
  await page.locator('#board polygon[data-name="j10"]').hover();
  const orient = () => page.evaluate(() => window.blokusGame?.orientation() ?? -1);
  const prevented = await page.evaluate(() => {
    const ev = new WheelEvent('wheel', { deltaY: 120, bubbles: true, cancelable: true });
    document.querySelector('#board polygon[data-name="j10"]')?.dispatchEvent(ev);
    return ev.defaultPrevented;
  });
  await page.mouse.wheel(0, 240);
  assert(!prevented, 'a plain wheel event is left to scroll the page');
  assert((await orient()) === 0, 'a plain wheel does not turn the piece');
  await page.keyboard.down('Shift');
  await page.mouse.wheel(0, 120);
  await page.keyboard.up('Shift');
  await page.waitForFunction(() => window.blokusGame?.orientation() === 1);
  await page.close();
});

test('keyboard placement: arrow keys move a cursor, Enter places; controls are labelled', async ({ browser, server }) => {
  await atBothSizes(browser, async (page) => {
    await openGame(page, server.url, 'duo', [{ kind: 'me' }, { kind: 'ai', level: 1 }]);
    await waitMyTurn(page);
    assert((await page.getAttribute('#board svg', 'role')) === 'application', 'the board is an operable control');
    assert((await page.getAttribute('#board svg', 'tabindex')) === '0', 'the board takes the focus');
    for (const id of ['rotate', 'flip', 'r-prev', 'r-next', 'mute']) {
      assert(!!(await page.getAttribute(`#${id}`, 'aria-label')), `#${id} has an aria-label`);
    }
    const label = await page.getAttribute('#tray .tray-colour.active button[data-piece="X"]', 'aria-label');
    assert(!!label && label.includes('X') && label.includes('5 cells'), `tray buttons are labelled (${label})`);
    const plan = await page.evaluate(() => window.blokusGame?.findAim('X') ?? null);
    if (!plan) throw new Error('no plan');
    await page.locator(`#tray .tray-colour.active button[data-piece="${plan.piece}"]`).click();
    await turnTo(page, 'game', plan);
    /** @param {number|null} c @returns {Promise<[number, number]>} */
    const xy = async (c) => {
      const name = (await page.getAttribute(`#board polygon[data-cell="${c}"]`, 'data-name')) || '';
      const m = /^([a-z]+)(\d+)$/.exec(name);
      if (!m) throw new Error(`cell name ${name}`);
      return [m[1].charCodeAt(0) - 97, Number(m[2]) - 1];
    };
    await page.keyboard.press('ArrowUp');
    for (let i = 0; i < 40; i++) {
      const [ax, ay] = await xy(await page.evaluate(() => window.blokusGame?.aim() ?? null));
      const [tx, ty] = await xy(plan.cell);
      if (ax === tx && ay === ty) break;
      await page.keyboard.press(ax < tx ? 'ArrowRight' : ax > tx ? 'ArrowLeft' : ay < ty ? 'ArrowUp' : 'ArrowDown');
    }
    await page.waitForSelector('.ghost-cell.legal');
    assert((await page.locator('#aim-hint').innerText()).includes('Enter'), 'the hint says Enter places it');
    await page.keyboard.press('Enter');
    await waitPly(page, 1);
  });
});

test('the game end: no controls, the result on screen, places, scores, record; passes in one notice', async ({ browser, server }) => {
  await atBothSizes(browser, async (page, size) => {
    await page.goto(`${server.url}/`);
    const url = await page.evaluate(async () => {
      const r = await fetch('/api/games', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ variant: 'classic', seats: [1, 2, 3, 4].map(() => ({ kind: 'ai', level: 1 })) }),
      });
      return (await r.json()).url;
    });
    await page.goto(`${server.url}${url}`);
    // Count the notices shown at once while the AIs play to the end.
    await page.evaluate(() => {
      const w = /** @type {Window & {maxToasts?: number}} */ (window);
      w.maxToasts = 0;
      new MutationObserver(() => {
        w.maxToasts = Math.max(w.maxToasts || 0, document.querySelectorAll('#toasts .toast').length);
      }).observe(/** @type {Node} */ (document.querySelector('#toasts')), { childList: true });
    });
    await page.waitForSelector('#gameover:not([hidden])', { timeout: 120000 });
    const most = await page.evaluate(() => /** @type {Window & {maxToasts?: number}} */ (window).maxToasts ?? 0);
    assert(most <= 1, `at most one notice at a time (${most})`);
    assert(await page.locator('#tray-col').isHidden(), 'no piece controls after the game');
    const over = await box(page, '#gameover');
    assert(over.y + 40 < size.viewport.height, `the result is on screen without scrolling (top ${over.y})`);
    const text = await page.locator('#gameover').innerText();
    assert(/wins|draw/.test(text) && text.includes('points'), `places and scores (${text.slice(0, 80)})`);
    assert((await page.locator('#gameover li').count()) === 4, 'four places');
    const places = await page.locator('#gameover li .place').allInnerTexts();
    const want = await page.evaluate(() => (window.blokusGame?.state()?.results || []).map((r) => r.place).sort().map((p) => `${p}.`));
    assert(places.join() === want.join(), `equal scores share a place (${places} vs ${want})`);
    const href = await page.getAttribute('#gameover a[download]', 'href');
    assert(!!href && href.endsWith('record.blksgf'), 'the record download is on the end screen');
    assert((await page.locator('#gameover a[href^="/?variant="]').count()) === 1, 'a new-game button');
    assert(await page.locator('#rematch').isHidden(), 'spectators are offered no rematch');
    assert((await page.locator('#scores thead th').count()) === 3, 'one score per side');
    await shot(page, `game-end-${size.name}`);
  });
});

test('replay shows the position shown: status, score and the move list follow', async ({ browser, server }) => {
  await atBothSizes(browser, async (page, size) => {
    await openGame(page, server.url, 'duo', [{ kind: 'hotseat' }, { kind: 'hotseat' }]);
    for (const p of ['X', 'X', 'I5', 'L5', 'T5', 'V5']) await playSomeMove(page, p);
    await page.click('#r-first');
    await page.click('#r-next');
    const status = await page.locator('#status').innerText();
    assert(status.includes('move 1 of 6') && status.includes('placed'), `the status names the move shown (${status})`);
    assert((await page.locator('#scores-title').innerText()).includes('move 1'), 'the score is of the position shown');
    const cells = await page.locator('#scores tbody tr').first().locator('td').last().innerText();
    assert(cells === '84', `Purple has 84 cells left after its first piece (${cells})`);
    const current = page.locator('#moves li.current');
    assert((await current.count()) === 1, 'the move is marked in the list');
    assert((await current.innerText()).includes('X'), 'the list marks the move shown');
    await page.click('#r-last');
    assert(!(await page.locator('#status').innerText()).includes('Replay'), 'live again');
    await shot(page, `replay-${size.name}`);
  });
});

test('four colours: every move since my last turn is marked; my-turn title and sounds with a mute switch', async ({ browser, server }) => {
  await atBothSizes(browser, async (page) => {
    await openGame(page, server.url, 'classic', [{ kind: 'me' }, { kind: 'ai', level: 1 }, { kind: 'ai', level: 1 }, { kind: 'ai', level: 1 }]);
    await waitMyTurn(page);
    assert((await page.title()).startsWith('● Your turn'), 'the title tells whose turn it is');
    await playSomeMove(page, 'X');
    await waitPly(page, 4, 60000);
    await waitMyTurn(page);
    const marked = await page.locator('#board polygon.cell.last').count();
    const others = await page.evaluate(() => (window.blokusGame?.state()?.moves || []).slice(1, 4).reduce((n, m) => n + (m.cells || []).length, 0));
    assert(marked === others && marked > 5, `the three AI moves are marked (${marked} cells of ${others})`);
    assert((await page.locator('#moves li.recent').count()) === 3, 'and listed as recent');
    const heard = await page.evaluate(() => window.blokusGame?.sounds() ?? 0);
    assert(heard > 0, 'moves and the turn make sounds');
    await page.click('#mute');
    assert((await page.getAttribute('#mute', 'aria-pressed')) === 'true', 'muted');
    await playSomeMove(page);
    await waitPly(page, 8, 60000);
    assert((await page.evaluate(() => window.blokusGame?.sounds() ?? 0)) === heard, 'muted: no more sounds');
    await page.reload();
    await page.waitForFunction(() => !!window.blokusGame?.state());
    assert((await page.getAttribute('#mute', 'aria-pressed')) === 'true', 'the mute switch is remembered');
  });
});

test('lobby: AI levels readable and explained, no sideways scrolling, abandoned games not under Running', async ({ browser, server }) => {
  await fetch(`${server.url}/api/games`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ variant: 'duo', seats: [{ kind: 'me' }, { kind: 'ai', level: 2 }] }),
  });
  await atBothSizes(browser, async (page, size) => {
    await page.goto(`${server.url}/`);
    await page.waitForSelector('.seat-level', { state: 'attached' });
    const level = page.locator('.seat-level').nth(1);
    const fits = await level.evaluate((el) => {
      const sel = /** @type {HTMLSelectElement} */ (el);
      const probe = document.createElement('span');
      probe.style.font = getComputedStyle(sel).font;
      probe.textContent = sel.options[sel.selectedIndex].text;
      document.body.append(probe);
      const w = probe.getBoundingClientRect().width;
      probe.remove();
      return { text: sel.options[sel.selectedIndex].text, fits: w + 30 <= sel.clientWidth };
    });
    assert(fits.text === '3 · casual' && fits.fits, `the level reads in full (${JSON.stringify(fits)})`);
    await page.click('#levels-help summary');
    assert((await page.locator('#levels-help li').count()) === 9, 'every level explained');
    assert((await pageWidth(page)) <= size.viewport.width, `no sideways scrolling (${await pageWidth(page)})`);
    await shot(page, `lobby-${size.name}`);
  });
  // The server leaves out games nobody moved in and nobody has open (after 3 s here).
  const data = mkdtempSync(path.join(os.tmpdir(), 'blokus-e2e-abandoned-'));
  const quick = new Server(data, await freePort(), ['--abandoned-after', '0.05']);
  await quick.start();
  try {
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    await createFromLobby(page, quick.url, 'duo', ['me', 'hotseat']);
    await page.goto(`${quick.url}/`);
    await page.waitForSelector('#running li a');
    assert((await page.locator('#running li a').count()) === 1, 'a new game is listed as running');
    await sleep(4000);
    await page.reload();
    await page.waitForSelector('#running li');
    assert((await page.locator('#running li a').count()) === 0, 'an abandoned 0-move game is left out');
    await page.close();
  } finally {
    await quick.kill9();
    rmSync(data, { recursive: true, force: true });
  }
});

test('pie rule explained to both players; dark mode follows the system', async ({ browser, server }) => {
  await atBothSizes(
    browser,
    async (page, size) => {
      await openGame(page, server.url, 'polyomino_mini', [{ kind: 'hotseat' }, { kind: 'hotseat' }]);
      await waitMyTurn(page);
      assert((await page.locator('#status').innerText()).includes('pie rule'), 'the opener is told what the opening is');
      await playSomeMove(page, 'O');
      await playSomeMove(page, 'I4');
      await page.waitForSelector('#pie:not([hidden])');
      const status = await page.locator('#status').innerText();
      assert(status.includes('choose your colour') && !status.includes('you chooses'), `grammar (${status})`);
      assert((await page.locator('#pie').innerText()).includes('cuts'), 'the pie rule is explained');
      const bg = await page.evaluate(() => getComputedStyle(document.documentElement).backgroundColor);
      const [r, g, b] = (bg.match(/\d+/g) || []).map(Number);
      assert(r + g + b < 150, `a dark page in dark mode (${bg})`);
      await shot(page, `pie-dark-${size.name}`);
    },
    { colorScheme: 'dark' },
  );
});

test('puzzles: named for people, easiest first, placed pieces outlined', async ({ browser, server }) => {
  await atBothSizes(browser, async (page) => {
    await page.goto(`${server.url}/puzzle`);
    await page.waitForFunction(() => !!window.blokusPuzzle?.puzzleId());
    const names = await page.locator('#puzzle option').allInnerTexts();
    assert(names[0] === 'Tetrominoes 8×10' && names.every((n) => !n.includes('_')), `names (${names})`);
    assert((await page.evaluate(() => window.blokusPuzzle?.puzzleId())) === 'tetro_8x10', 'the easiest is first');
    await placePuzzlePiece(page, 'blue', 'O', ['a1', 'b1', 'a2', 'b2']);
    await placePuzzlePiece(page, 'blue', 'I4', ['c1', 'c2', 'c3', 'c4']);
    assert((await page.locator('#board path.piece-outline').count()) === 2, 'each placed piece is outlined');
  });
});

test('rematch: the same table with the colours rotated', async ({ browser, server }) => {
  await atBothSizes(browser, async (page, size) => {
    await openGame(page, server.url, 'polyomino_mini', [{ kind: 'me' }, { kind: 'ai', level: 2 }]);
    const first = page.url();
    for (let i = 0; i < 40; i++) {
      await page.waitForFunction(() => {
        const g = window.blokusGame;
        const s = g?.state();
        return !!s && (s.over || (g?.myTurn() && !g.sending()) || (s.awaiting_pie && (s.you || []).includes(1)));
      }, null, { timeout: 60000 });
      if (await page.evaluate(() => !!window.blokusGame?.state()?.over)) break;
      await playSomeMove(page);
    }
    await page.waitForSelector('#gameover:not([hidden]) #rematch');
    await shot(page, `rematch-before-${size.name}`);
    await Promise.all([page.waitForURL((u) => u.href !== first && /\/game\//.test(u.href)), page.click('#rematch')]);
    await page.waitForFunction(() => (window.blokusGame?.state()?.you || []).length === 1);
    const seats = await page.evaluate(() => window.blokusGame?.state()?.seats.map((st) => `${st.kind}${st.level ?? ''}`) ?? []);
    assert(seats.join() === 'ai2,me', `the AI opens now and I choose (${seats})`);
  });
});

test('against the AI: a hint button shows the AI\'s move as a highlight', async ({ browser, server }) => {
  await atBothSizes(browser, async (page, size) => {
    await openGame(page, server.url, 'duo', [{ kind: 'me' }, { kind: 'ai', level: 1 }]);
    await waitMyTurn(page);
    await page.click('#ai-hint');
    await page.waitForSelector('#board .hint-cell');
    const cells = await page.locator('#board .hint-cell').count();
    assert(cells >= 1 && cells <= 5, `a piece highlighted (${cells} cells)`);
    assert((await page.locator('#aim-hint').innerText()).startsWith('Hint: '), 'and named');
    assert((await ply(page)) === 0, 'nothing played');
    await shot(page, `ai-hint-${size.name}`);
    await playSomeMove(page);
    assert((await page.locator('#board .hint-cell').count()) === 0, 'the hint goes with the move');
  });
});

test('How to play: every variant drawn by the board code, with diagrams and advice', async ({ browser, server }) => {
  const variants = /** @type {Array<{id: string}>} */ (await (await fetch(`${server.url}/api/variants`)).json());
  await atBothSizes(browser, async (page, size) => {
    await page.goto(`${server.url}/howto.html?variant=trigon`);
    await page.waitForSelector('#board svg .start');
    assert((await page.locator('#board svg polygon.cell').count()) === 486, 'the Trigon board');
    assert((await page.locator('#board svg .start').count()) === 6, 'its six starting points');
    assert((await page.locator('#diagrams figure').count()) === 3, 'three diagrams of the corner rule');
    assert((await page.locator('#diagrams .ghost-cell.illegal').count()) === 4, 'the forbidden placement drawn as a red ghost');
    assert((await page.locator('#tips li').count()) >= 5, 'strategy advice');
    assert((await pageWidth(page)) <= size.viewport.width, 'no sideways scrolling');
    await shot(page, `howto-trigon-${size.name}`);
    for (const v of variants) {
      await page.selectOption('#variant', v.id);
      await page.waitForFunction((id) => location.search === `?variant=${id}`, v.id);
      const special = await page.locator('#special').innerText();
      assert(special.length > 40, `${v.id}: its own rules`);
      if (v.id.startsWith('polyomino')) assert(special.includes('pie rule'), `${v.id}: the pie rule`);
    }
    await page.click('#play');
    await page.waitForURL(/\/\?variant=polyomino_hexa$/);
    await page.waitForFunction(() => /** @type {HTMLSelectElement|null} */ (document.querySelector('#variant'))?.value === 'polyomino_hexa');
  });
});

test('docs: the README and docs/ link only to files in the repository', async () => {
  const { readFileSync, readdirSync, existsSync } = await import('node:fs');
  const files = ['README.md', ...readdirSync(path.join(root, 'docs')).map((f) => `docs/${f}`)].filter((f) => f.endsWith('.md'));
  const dead = [];
  for (const f of files) {
    const text = readFileSync(path.join(root, f), 'utf8');
    for (const m of text.matchAll(/\]\(([^)#\s]+)(#[^)]*)?\)/g)) {
      const target = m[1];
      if (/^[a-z]+:/.test(target)) continue;
      if (!existsSync(path.resolve(root, path.dirname(f), target))) dead.push(`${f} -> ${target}`);
    }
  }
  assert(dead.length === 0, `dead links: ${dead.join('; ')}`);
  assert(existsSync(path.join(root, 'docs', 'rules.md')), 'the rules are in the repository');
  const ignore = readFileSync(path.join(root, '.gitignore'), 'utf8');
  assert(ignore.split('\n').includes('blokus-data/'), '.gitignore covers the default data folder');
});

test('every page works under the strict content security policy', async ({ browser, server }) => {
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 }, bypassCSP: false });
  /** @type {string[]} */
  const violations = [];
  page.on('console', (m) => {
    if (m.text().includes('Content Security Policy')) violations.push(m.text());
  });
  const res = await page.goto(`${server.url}/`);
  assert((res?.headers()['content-security-policy'] || '').includes("default-src 'none'"), 'the lobby has a CSP');
  // Only waits that Playwright runs without evaluating strings (the CSP forbids that):
  // selectors, locators and URLs. An AI game fills cells (styles set by script).
  await page.waitForSelector('#variant option[value="duo"]', { state: 'attached' });
  await page.selectOption('#variant', 'duo');
  const kinds = page.locator('.seat-kind');
  const levels = page.locator('.seat-level');
  for (let i = 0; i < 2; i++) {
    await kinds.nth(i).selectOption('ai');
    await levels.nth(i).selectOption('1');
  }
  await Promise.all([page.waitForURL(/\/game\/[0-9a-f]{16}$/), page.click('#create-btn')]);
  await page.locator('#board polygon.cell.filled').first().waitFor({ timeout: 60000 });
  await page.waitForSelector('#conn.conn-open');
  await page.goto(`${server.url}/puzzle?id=tetro_8x10`);
  await page.locator('#board polygon.cell').nth(79).waitFor();
  assert((await page.locator('#board polygon.cell').count()) === 80, 'the puzzle board drawn');
  // The tournament pages: an online event of two bots created from the form, paired.
  await page.goto(`${server.url}/events`);
  await page.waitForSelector('#ev-variant option[value="duo"]', { state: 'attached' });
  await page.fill('#ev-name', 'CSP cup');
  await page.selectOption('#ev-variant', 'duo');
  await page.fill('#ev-bots', '2');
  await page.selectOption('#ev-bot-level', '1');
  await Promise.all([page.waitForURL(/\/event\/[0-9a-f]{16}$/), page.click('#create-event-btn')]);
  await page.waitForSelector('#organiser:not([hidden])');
  await page.click('#pair');
  await page.waitForSelector('#tables-table tbody tr .chip');
  assert(violations.length === 0, `CSP violations: ${violations.join(' | ')}`);
  await page.close();
});

// ----- issue 11 item 3: clocks -----

/**
 * Creates a timed game through the API with this page's seat tokens stored, and opens it.
 * @param {Page} page
 * @param {string} base
 * @param {Array<{kind: string, level?: number}>} seats
 * @param {{type: string, base?: number, increment?: number, days?: number}} clock
 */
async function openTimedGame(page, base, seats, clock) {
  await page.goto(`${base}/`);
  const url = await page.evaluate(
    async ([seats, clock]) => {
      const r = await fetch('/api/games', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ variant: 'duo', seats, clock }) });
      /** @type {{id: string, url: string, tokens: Array<{seat: number, token: string}>}} */
      const g = await r.json();
      localStorage.setItem('blokus.tokens', JSON.stringify({ [g.id]: g.tokens }));
      return g.url;
    },
    /** @type {[Array<{kind: string, level?: number}>, object]} */ ([seats, clock]),
  );
  await page.goto(`${base}${url}`);
  await page.waitForFunction(() => !!window.blokusGame?.state());
}

/** Seconds shown by a clock ("4:05" or "9.4"). @param {string} text */
const clockSeconds = (text) => {
  const parts = text.trim().split(':').map(Number);
  return parts.length === 2 ? parts[0] * 60 + parts[1] : parts[0];
};

test('clocks: the lobby offers time controls; a timed game counts down, warns when low, and the flag ends it', async ({ browser, server }) => {
  await atBothSizes(browser, async (page, size) => {
    // The lobby: choose 1+0 against the AI; the game page shows both clocks, mine running.
    await page.goto(`${server.url}/`);
    const choices = await page.locator('#clock option').allInnerTexts();
    for (const want of ['No clock', '1+0', '3+2', '5+3', '10+5', '15+10', '1 day', '3 days', '7 days']) {
      assert(choices.some((c) => c.includes(want)), `the lobby offers ${want} (${choices.join(' | ')})`);
    }
    await page.selectOption('#variant', 'duo');
    await page.locator('.seat-kind').nth(0).selectOption('me');
    await page.locator('.seat-kind').nth(1).selectOption('ai');
    await page.locator('.seat-level').nth(1).selectOption('1');
    await page.selectOption('#clock', 'f:60:0');
    await Promise.all([page.waitForURL(/\/game\/[0-9a-f]{16}$/), page.click('#create-btn')]);
    await page.waitForFunction(() => !!window.blokusGame?.state());
    await page.locator('#clocks .clock').nth(1).waitFor();
    assert((await page.locator('#clocks').innerText()).includes('1+0'), 'the time control is named');
    assert((await page.locator('#clocks .clock.running').getAttribute('data-seat')) === '0', 'my clock runs first');
    const mine = page.locator('#clocks .clock[data-seat="0"] .clock-time');
    const t1 = clockSeconds(await mine.innerText());
    await sleep(1500);
    const t2 = clockSeconds(await mine.innerText());
    assert(t1 <= 60 && t2 < t1 && t2 > t1 - 4, `my clock counts down (${t1} then ${t2})`);
    assert(!(await page.locator('#clocks .clock[data-seat="0"]').getAttribute('class'))?.includes('low'), 'not low with most of a minute left');
    const clocks = await box(page, '#clocks');
    assert(clocks.x >= 0 && clocks.x + clocks.width <= size.viewport.width + 1, `the clocks fit the width (${clocks.x}+${clocks.width})`);
    assert(clocks.y + clocks.height < size.viewport.height, `the clocks are on screen (top ${clocks.y})`);
    assert((await pageWidth(page)) <= size.viewport.width, 'no sideways scrolling');
    await shot(page, `clocks-running-${size.name}`);

    // A short clock set through the API: under 20 s it is low; nobody moves, the server
    // flags and the page shows the loss on time.
    await openTimedGame(page, server.url, [{ kind: 'me' }, { kind: 'hotseat' }], { type: 'fischer', base: 4, increment: 0 });
    const first = page.locator('#clocks .clock[data-seat="0"]');
    await first.waitFor();
    assert((await first.getAttribute('class'))?.includes('running low') ?? false, 'the running clock is low under 20 s');
    await page.waitForSelector('#gameover:not([hidden])', { timeout: 20000 });
    const over = await page.locator('#gameover').innerText();
    assert(over.includes('wins on time'), `the end screen says it was on time (${over.slice(0, 80)})`);
    assert((await first.innerText()).includes('0.0'), 'the flagged clock shows zero');
    assert((await first.getAttribute('class'))?.includes('flagged') ?? false, 'the flagged clock is marked');
    assert((await page.locator('#clocks .clock.running').count()) === 0, 'no clock runs after the end');
    assert((await page.locator('#moves').innerText()).includes('ran out of time'), 'the move list records it');
    await shot(page, `clocks-flag-${size.name}`);
  });
});

// ----- game analysis -----

test('analysis: finish a game against the AI, request the analysis, see the graph, marks and the AI\'s choice', async ({ browser, server }) => {
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  await openGame(page, server.url, 'duo', [{ kind: 'me' }, { kind: 'ai', level: 1 }]);
  // No analysis while the game runs: the panel is hidden and the server refuses it.
  assert(await page.locator('#analysis').isHidden(), 'no analysis during the game');
  const r = await page.evaluate(async () => (await fetch(`/api/games/${location.pathname.split('/').pop()}/analysis`)).status);
  assert(r === 409, 'the server refuses it too');
  for (let i = 0; i < 40; i++) {
    await page.waitForFunction(() => {
      const g = window.blokusGame;
      return !!g && (g.state()?.over || (g.myTurn() && !g.sending()));
    }, null, { timeout: 30000 });
    if (await page.evaluate(() => !!window.blokusGame?.state()?.over)) break;
    await playSomeMove(page);
  }
  await page.waitForSelector('#gameover:not([hidden])');
  await page.waitForSelector('#analysis:not([hidden]) #analyse');
  await page.click('#analyse');
  await page.waitForSelector('#analysis-graph', { timeout: 120000 });
  const lines = await page.locator('#analysis-graph polyline.ag-line').count();
  assert(lines === 2, `one line per side (${lines})`);
  const points = await page.locator('#analysis-graph polyline.ag-line').first().getAttribute('points');
  const moves = await page.evaluate(() => window.blokusGame?.state()?.moves.length ?? 0);
  assert((points || '').trim().split(' ').length === moves + 1, 'a point per position');
  // Level-1 play has moves that lost much: marked on the graph and in the move list.
  const marks = await page.locator('#analysis-graph circle.ag-mark').count();
  assert(marks >= 1 && marks === (await page.locator('#moves li .an-mark').count()), `marked moves (${marks})`);
  await shot(page, 'analysis');
  // Replaying a position shows the AI's preferred move there as a ghost.
  await page.click('#r-first');
  await page.waitForSelector('#board .hint-cell');
  assert((await page.locator('#board .hint-cell').count()) === 5, 'the AI\'s first move as a ghost');
  assert((await page.locator('#analysis-best').innerText()).startsWith('AI\'s choice here: '), 'and named');
  // The analysis is kept: a reload shows it at once.
  await page.reload();
  await page.waitForSelector('#analysis-graph');
  await page.close();
});

// ---- Tournaments (web/event.html, web/events.html) ----

/**
 * Plays the game on the page to its end: a legal move, by clicks, whenever it is this
 * browser's turn.
 * @param {Page} page
 */
async function playOut(page) {
  for (;;) {
    await page.waitForFunction(() => {
      const g = window.blokusGame;
      const s = g?.state();
      return !!g && !!s && (s.over || (g.myTurn() && !g.sending() && g.legalCount() > 0));
    }, null, { timeout: 60000 });
    if (await page.evaluate(() => !!window.blokusGame?.state()?.over)) return;
    await playSomeMove(page);
  }
}

/**
 * A player's rounds: from the event page, "Play your game" of each round, played to its
 * end, then back to the event page for the next.
 * @param {Page} page
 * @param {string} url the event page
 * @param {number} rounds
 */
async function playRounds(page, url, rounds) {
  for (let r = 1; r <= rounds; r++) {
    await page.waitForFunction((r) => (document.querySelector('#my-table')?.textContent || '').includes(`round ${r}, table`), r, { timeout: 60000 });
    await page.waitForSelector('#my-game');
    await Promise.all([page.waitForURL(/\/game\/[0-9a-f]{16}$/), page.click('#my-game')]);
    await page.waitForFunction(() => (window.blokusGame?.state()?.you || []).length === 1);
    // Every game of the event has its clock, started when the round was paired.
    await page.locator('#clocks .clock').first().waitFor();
    await playOut(page);
    await page.goto(url);
  }
}

test('online tournament: 8-entrant Duo event with 6 bots and 2 people to the final standings', async ({ browser, server }) => {
  const ca = await browser.newContext({ viewport: { width: 1200, height: 900 } });
  const cb = await browser.newContext({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true });
  const a = await ca.newPage();
  const b = await cb.newPage();
  // The organiser creates the event: online, 2 rounds, six bots at level 1.
  await a.goto(`${server.url}/`);
  await Promise.all([a.waitForURL(/\/events$/), a.click('a[href="/events"]')]);
  await a.waitForSelector('#ev-variant option[value="duo"]', { state: 'attached' });
  await a.fill('#ev-name', 'Friday Duo');
  await a.selectOption('#ev-variant', 'duo');
  await a.fill('#ev-rounds', '2');
  await a.fill('#ev-bots', '6');
  await a.selectOption('#ev-bot-level', '1');
  await a.selectOption('#ev-clock', 'f:900:10');
  await shot(a, 'event-create');
  await Promise.all([a.waitForURL(/\/event\/[0-9a-f]{16}$/), a.click('#create-event-btn')]);
  const url = a.url();
  await a.waitForSelector('#organiser:not([hidden])');
  assert((await a.locator('#ev-state').innerText()).includes('6 registered'), 'six bots registered');
  assert((await a.locator('#ev-settings').innerText()).includes('clock 15+10'), 'the time control is shown');
  // The organiser plays too; the second person registers through the link on a phone.
  await a.fill('#reg-name', 'Ada');
  await a.click('#reg-btn');
  await a.waitForSelector('#me:not([hidden])');
  const link = (await a.locator('#reg-link').innerText()).trim();
  assert(link === url, 'the registration link is the event page');
  await b.goto(link);
  assert(await b.locator('#organiser').isHidden(), 'no organiser controls without the token');
  await b.fill('#reg-name', 'ada');
  await b.click('#reg-btn');
  await b.waitForSelector('#reg-error:not([hidden])');
  assert((await b.locator('#reg-error').innerText()).includes('already registered'), 'a duplicate name is refused');
  await b.fill('#reg-name', 'Bruno');
  await b.click('#reg-btn');
  await b.waitForSelector('#me:not([hidden])');
  await a.waitForFunction(() => (document.querySelector('#ev-state')?.textContent || '').includes('8 registered'));
  await a.click('#pair');
  await a.waitForSelector('#tables-table');
  assert((await a.locator('#tables-table tbody tr').count()) === 4, 'four tables of two');
  await shot(a, 'event-round1');
  // Both people play every round; bots play theirs; the next round pairs itself.
  await Promise.all([playRounds(a, url, 2), playRounds(b, url, 2)]);
  for (const p of [a, b]) {
    await p.waitForFunction(() => (document.querySelector('#ev-state')?.textContent || '').includes('Finished'), null, { timeout: 60000 });
    assert((await p.locator('#standings-table tbody tr').count()) === 8, 'eight in the standings');
    assert((await p.locator('#my-standing').innerText()).includes('Final place'), 'each player sees their final place');
  }
  assert((await a.locator('#crosstable-table tbody tr').count()) === 8, 'the crosstable');
  assert((await pageWidth(b)) <= 390, `no sideways scrolling on the phone (${await pageWidth(b)})`);
  const games = await a.locator('#tables-table a.watch').count();
  assert(games === 4, 'every table links to its game for spectators');
  await shot(a, 'event-final');
  await shot(b, 'event-final-phone');
  // Exports: standings as CSV, every game in one .blksgf collection.
  const csv = await (await fetch(`${server.url}${await a.locator('#csv').getAttribute('href')}`)).text();
  assert(csv.split('\n').filter(Boolean).length === 9 && csv.includes('Bruno'), 'the CSV has every entrant');
  const sgf = await (await fetch(`${server.url}${await a.locator('#sgf').getAttribute('href')}`)).text();
  assert((sgf.match(/GM\[/g) || []).length === 8, 'eight games in the collection');
  // On paper: pairings and standings without the controls.
  await a.emulateMedia({ media: 'print' });
  assert(await a.locator('#organiser').isHidden(), 'no organiser controls in print');
  assert(await a.locator('#standings-table').isVisible(), 'the standings are printed');
  await a.emulateMedia({ media: 'screen' });
  await ca.close();
  await cb.close();
});

test('over-the-board tournament: numbers drawn by hand, results entered and corrected, standings', async ({ browser, server }) => {
  const page = await browser.newPage({ viewport: { width: 1200, height: 900 } });
  await page.goto(`${server.url}/events`);
  await page.waitForSelector('#ev-variant option[value="duo"]', { state: 'attached' });
  assert((await page.locator('header.topbar a[href="/cube"]').innerText()) === 'Blokus 3D', 'the top bar links to Blokus 3D as the lobby does');
  await page.fill('#ev-name', 'Ludoteca');
  await page.check('#mode-otb');
  assert(await page.locator('#online-only').isHidden(), 'no bots over the board');
  await page.fill('#ev-rounds', '2');
  await page.fill('#ev-entrants', 'Ada\nBruno\nChiara\nDario');
  await Promise.all([page.waitForURL(/\/event\/[0-9a-f]{16}$/), page.click('#create-event-btn')]);
  await page.waitForSelector('#use-numbers');
  // Drawn by hand: Ada 4, Bruno 3, Chiara 2, Dario 1 -> round 1: Dario-Chiara, Bruno-Ada.
  const numbers = page.locator('.numbers input');
  for (const [i, n] of ['4', '3', '2', '1'].entries()) await numbers.nth(i).fill(n);
  await page.click('#use-numbers');
  await page.waitForFunction(() => (document.querySelector('.numbers')?.previousElementSibling?.textContent || '').includes('used for round 1'));
  await page.click('#pair');
  await page.waitForSelector('#tables-table');
  const first = await page.locator('#tables-table tbody tr').first().innerText();
  assert(first.includes('Dario (1)') && first.includes('Chiara (2)'), `table 1 by the hand-drawn numbers: ${first}`);
  assert(await page.locator('#pair').isDisabled(), 'no pairing before the results');
  // Results by hand; table 1 entered wrongly, then corrected.
  /** @param {number} table @param {number[]} scores */
  const enter = async (table, scores) => {
    const row = page.locator(`#tables-table tbody tr[data-table="${table}"]`);
    const inputs = row.locator('.entry input');
    for (const [i, s] of scores.entries()) await inputs.nth(i).fill(String(s));
    await row.locator('.entry button').click();
    await page.waitForFunction(([t, s]) => (document.querySelector(`#tables-table tr[data-table="${t}"]`)?.textContent || '').includes(` ${s} (`), [table, scores[0]]);
  };
  await enter(1, [10, -5]);
  await enter(1, [-7, 12]);
  await enter(2, [3, -2]);
  const row1 = await page.locator('#tables-table tbody tr[data-table="1"]').innerText();
  assert(row1.includes('Dario -7 (2nd)') && row1.includes('Chiara 12 (1st)'), `the correction stands: ${row1}`);
  await page.click('#pair');
  await page.waitForFunction(() => (document.querySelector('#tables-title')?.textContent || '').includes('Round 2'));
  await enter(1, [1, 0]);
  await enter(2, [0, 0]);
  await page.waitForFunction(() => (document.querySelector('#ev-state')?.textContent || '').includes('Finished'));
  assert((await page.locator('#standings-table tbody tr').count()) === 4, 'four in the standings');
  assert((await page.locator('#crosstable-table tbody tr').first().innerText()).includes('+'), 'the crosstable shows the results');
  await shot(page, 'event-otb');
  await page.emulateMedia({ media: 'print' });
  assert(await page.locator('#tables-table').isVisible() && (await page.locator('.entry').first().isHidden()), 'pairings print without the entry fields');
  await page.close();
});

// ----- accounts and ratings (docs/accounts.md) -----

test('accounts: sign up keeps a guest game, a rated game against the AI to the end, the rating on the profile', async ({ browser, server }) => {
  const page = await browser.newPage();
  const base = server.url;
  // A guest game first: it comes along at sign-up.
  await createFromLobby(page, base, 'duo', ['me', 'ai']);
  const guestGame = page.url().split('/').pop();
  await page.goto(`${base}/`);
  assert(await page.isVisible('#rated-login'), 'guests are told to log in for rated games');
  assert(await page.isHidden('#rated-wrap'), 'no rated box for guests');
  await Promise.all([page.waitForURL(/\/account$/), page.click('#login-link')]);
  const name = `Tester${Date.now() % 100000}`;
  await page.fill('#signup-name', name);
  await page.fill('#signup-password', 'a good password');
  await page.fill('#signup-password2', 'another password');
  await page.click('#signup-btn');
  await page.waitForSelector('#signup-error:text("the two passwords differ")');
  await page.fill('#signup-password', 'a good password');
  await page.fill('#signup-password2', 'a good password');
  await Promise.all([page.waitForURL(/\/profile\//), page.click('#signup-btn')]);
  await page.waitForSelector(`#player-name:text("${name}")`);
  await page.waitForSelector(`#games a[href="/game/${guestGame}"]`);
  await page.waitForSelector(`.account-nav #me:text("${name}")`);

  // A rated Duo game against the computer at level 1.
  await page.goto(`${base}/`);
  await page.waitForSelector('#rated-wrap:not([hidden])');
  await page.selectOption('#variant', 'duo');
  await page.locator('.seat-kind').nth(0).selectOption('me');
  await page.locator('.seat-kind').nth(1).selectOption('ai');
  await page.locator('.seat-level').nth(1).selectOption('1');
  await page.check('#rated');
  await Promise.all([page.waitForURL(/\/game\/[0-9a-f]{16}$/), page.click('#create-btn')]);
  const id = page.url().split('/').pop();
  await page.waitForFunction(() => !!window.blokusGame?.state());
  await page.waitForSelector('.rated-badge');
  await page.waitForSelector(`.seat-accounts a:text("${name}")`);
  // The seat shows the account's name; there is no other name to choose.
  await page.waitForFunction((n) => window.blokusGame?.state()?.seats[0]?.name === n, name);
  assert(await page.isHidden('#name-form'), 'no display-name box when logged in');
  await page.waitForSelector('.seat-accounts li[data-seat="1"] .rating:text("641")');
  for (let i = 0; i < 60; i++) {
    await page.waitForFunction(() => {
      const g = window.blokusGame;
      return !!g && (!!g.state()?.over || (g.myTurn() && g.legalCount() > 0 && !g.sending()));
    }, null, { timeout: 60000 });
    if (await page.evaluate(() => !!window.blokusGame?.state()?.over)) break;
    await playSomeMove(page);
    assert(await page.isHidden('#undo'), 'no undo in a rated game');
    assert(await page.isHidden('#ai-hint'), 'no hint in a rated game');
  }
  assert(await page.evaluate(() => !!window.blokusGame?.state()?.over), 'the game ended');
  // A draw against a much weaker player costs rating, like a loss.
  const won = await page.evaluate(() => {
    const r = window.blokusGame?.state()?.results || [];
    return r[0]?.place === 1 && r[1]?.place !== 1;
  });
  // The new rating next to the name once the game is settled.
  await page.waitForFunction(
    () => /^\d+\?$/.test(document.querySelector('.seat-accounts li[data-seat="0"] .rating')?.textContent?.trim() || '')
      && document.querySelector('.seat-accounts li[data-seat="0"] .rating')?.textContent?.trim() !== '1500?',
    null,
    { timeout: 20000 },
  );
  await shot(page, 'rated-game-over');

  // The profile: the rating changed, the history graph has its line, the game is listed.
  await Promise.all([page.waitForURL(/\/profile\//), page.click('.account-nav #me')]);
  await page.waitForSelector('#ratings tr[data-pool="duo"]');
  const rating = Number((await page.textContent('#ratings tr[data-pool="duo"] .rating'))?.replace('?', ''));
  assert(won ? rating > 1500 : rating < 1500, `the rating moved the right way (${rating}, won: ${won})`);
  assert((await page.locator('#graph svg polyline[data-pool="duo"]').count()) === 1, 'a line in the history graph');
  assert((await page.locator('#graph svg circle').count()) === 1, 'one point: one rated game');
  await page.waitForSelector(`#games a[href="/game/${id}"]`);
  assert((await page.locator('#games .badge:text("rated")').count()) === 1, 'the rated game is marked');
  await shot(page, 'profile');

  // The lobby shows the account's rating in the game's pool next to its name.
  const shown = `${name} ${rating}?`;
  await page.goto(`${base}/`);
  await page.selectOption('#variant', 'duo');
  await page.locator('.seat-kind').nth(0).selectOption('me');
  await page.locator('.seat-kind').nth(1).selectOption('human');
  await Promise.all([page.waitForURL(/\/game\/[0-9a-f]{16}$/), page.click('#create-btn')]);
  const open = page.url().split('/').pop();
  await page.goto(`${base}/`);
  await page.waitForSelector(`#open a[href="/game/${open}"]:has-text("${shown}")`);

  // A rated event: entered with one click as the account, the rating in the standings,
  // "your table" found from the account, and the event on the profile with its place.
  const event = await page.evaluate(async () => {
    const r = await fetch('/api/tournaments', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ name: 'Rated club night', variant: 'duo', rounds: 1, online: true, rated: true, bots: [{ level: 1 }] }),
    });
    return r.json();
  });
  await page.goto(`${base}/event/${event.id}`);
  await page.waitForSelector(`#reg-btn:text("Enter as ${name}")`);
  assert(await page.isHidden('#reg-name'), 'no name to type when logged in');
  await page.click('#reg-btn');
  await page.waitForSelector(`#standings-table a[href="/profile/${name}"]`);
  await page.waitForSelector(`#standings-table .rating:text("${rating}?")`);
  assert(((await page.textContent('#ev-settings')) || '').includes('rated'), 'the event says it is rated');
  const paired = await page.evaluate(async (token) => {
    const r = await fetch(`/api/tournaments/${location.pathname.split('/')[2]}/pair`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ token }),
    });
    return r.json();
  }, event.organiser_token);
  await page.waitForSelector('#my-game');
  // The organiser enters the table's result by hand: the event is over.
  const seats = paired.event.rounds[0].tables[0].seats;
  const mine = paired.event.entrants.find((/** @type {{name: string}} */ e) => e.name === name).id;
  const scores = seats.map((/** @type {number} */ e) => (e === mine ? 20 : 10));
  await page.evaluate(async ([token, sc]) => {
    await fetch(`/api/tournaments/${location.pathname.split('/')[2]}/results`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ token, round: 1, table: 1, scores: sc }),
    });
  }, [event.organiser_token, scores]);
  await page.goto(`${base}/profile/${name}`);
  await page.waitForSelector(`#events li[data-event="${event.id}"] a[href="/event/${event.id}"]:has-text("Rated club night")`);
  const line = await page.textContent(`#events li[data-event="${event.id}"]`);
  assert(!!line && line.includes('final place 1st of 2') && line.includes('rated'), `the event's line: ${line}`);
  await shot(page, 'profile-events');

  // Blokus 3D: the rated box on its form, a rated game against the computer, the 3D
  // pool and the ratings in its Players panel, the account in its top bar.
  await page.goto(`${base}/cube`);
  await page.waitForSelector('#c-rated-wrap:not([hidden])');
  assert(await page.isHidden('#c-rated-login'), 'no login hint on the 3D form when logged in');
  await page.waitForSelector(`.account-nav #me:text("${name}")`);
  await fillYardAgainstAi(page);
  await page.check('#c-rated');
  await Promise.all([page.waitForURL(/\/cube\/[0-9a-f]{16}$/), page.click('#c-create')]);
  await page.waitForSelector('.rated-badge:has-text("Blokus 3D")');
  await page.waitForSelector(`.seat-accounts a:text("${name}")`);
  await page.waitForSelector('.seat-accounts li[data-seat="0"] .rating:text("1500?")');
  await page.waitForSelector('.seat-accounts li[data-seat="1"] .rating:text("641")');
  await page.waitForFunction(() => !!window.blokusCube?.myTurn());
  assert(await page.isHidden('#undo'), 'no undo in a rated 3D game');
  assert(await page.isHidden('#ai-hint'), 'no hint in a rated 3D game');
  await shot(page, 'cube-rated');

  // The leaderboard lists the player; logging out brings back the login link.
  await page.goto(`${base}/leaderboard?pool=duo`);
  await page.waitForSelector(`#board a[href="/profile/${name}"]`);
  await Promise.all([page.waitForURL(`${base}/`), page.click('#logout')]);
  await page.waitForSelector('#login-link');
  await page.close();
});

// ---- Blokus 3D (web/cube.html): created from its form with a site file, played to the
// end against the AI by clicking into the WebGL view.

/** A 4 x 3 site with two levels for two players: a whole game takes a minute. */
const YARD_SITE = 'name = yard\nheights = 2:2 3:3 4:3\nfootprint =\noooo\noooo\noooo\n';

/**
 * Fills the Blokus 3D form: Blokus 3D Duo on the yard site file, this browser against
 * the computer at level 1.
 * @param {Page} page
 */
async function fillYardAgainstAi(page) {
  await page.waitForSelector('#c-variant option[value="rumis_2"]', { state: 'attached' });
  await page.selectOption('#c-variant', 'rumis_2');
  await page.selectOption('#c-site', '');
  await page.setInputFiles('#c-file', { name: 'yard.site', mimeType: 'text/plain', buffer: Buffer.from(YARD_SITE) });
  await page.locator('.seat-kind').nth(0).selectOption('me');
  await page.locator('.seat-kind').nth(1).selectOption('ai');
  await page.locator('.seat-level').nth(1).selectOption('1');
}

/**
 * Turns the stone in hand with the X, Y and Z keys, as a person does, until it has the
 * shape of `move` (every rotation is X^i Y^j Z^k); returns the column to aim at.
 * @param {Page} page
 * @param {string} move
 * @returns {Promise<[number, number]|null>}
 */
async function turnCubeStoneTo(page, move) {
  for (let i = 0; i < 4; i++) {
    for (let j = 0; j < 4; j++) {
      for (let k = 0; k < 4; k++) {
        const col = await page.evaluate((m) => window.blokusCube?.columnFor(m) ?? null, move);
        if (col) return col;
        await page.keyboard.press('z');
      }
      await page.keyboard.press('y');
    }
    await page.keyboard.press('x');
  }
  return null;
}

/**
 * Moves the pointer over a column's top in the 3D view (where the page's camera shows it).
 * @param {Page} page
 * @param {[number, number]} col
 */
async function hoverColumn(page, col) {
  const pt = await page.evaluate(([x, y]) => window.blokusCube?.screenPoint(x, y) ?? { x: 0, y: 0 }, col);
  await page.mouse.move(pt.x, pt.y);
  return pt;
}

/**
 * Places a legal move of the player to move by clicking: picks its stone in the tray,
 * turns it with the keys, aims at its column and clicks once the ghost shows it legal
 * (turning the view with Q when another column hides it).
 * @param {Page} page
 */
async function clickSomeCubeMove(page) {
  const s = await page.evaluate(() => window.blokusCube?.state());
  assert(!!s && Array.isArray(s.legal) && s.legal.length > 0, 'legal moves offered');
  const state = /** @type {import('../web/js/cube.js').CubeState} */ (s);
  const legal = /** @type {string[]} */ (state.legal);
  // A big stone first: the game ends sooner.
  const move = [...legal].sort((a, b) => b.split(',').length - a.split(',').length)[0];
  const size = move.split(',').length;
  for (const stone of state.stones) {
    if (stone.cubes.length !== size) continue;
    const button = page.locator(`#tray button[data-stone="${stone.name}"]`);
    if (await button.isDisabled()) continue;
    await button.click();
    const col = await turnCubeStoneTo(page, move);
    if (!col) continue;
    for (let turn = 0; turn < 12; turn++) {
      const pt = await hoverColumn(page, col);
      const ghost = await page.evaluate(() => window.blokusCube?.ghost() ?? null);
      if (ghost && ghost.text === move) {
        assert(ghost.legal, `the ghost of ${move} is shown legal`);
        await page.mouse.click(pt.x, pt.y);
        return move;
      }
      await page.keyboard.press('q');
    }
    throw new Error(`could not aim ${move}`);
  }
  throw new Error(`no stone in the tray turns into ${move}`);
}

test('Blokus 3D against the AI: a site file, stones turned by keys, placed by clicking to the end', async ({ browser, server }) => {
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  await page.goto(`${server.url}/`);
  await page.click('a[href="/cube"]');
  await page.waitForSelector('#c-rated-login:not([hidden])');
  assert(await page.isHidden('#c-rated-wrap'), 'no rated box for guests on the 3D form');
  await fillYardAgainstAi(page);
  await Promise.all([page.waitForURL(/\/cube\/[0-9a-f]{16}$/), page.click('#c-create')]);
  await page.waitForFunction(() => !!window.blokusCube?.myTurn());
  const first = await page.evaluate(() => window.blokusCube?.state());
  assert(first?.site.name === 'yard' && first.site.height === 2, 'the site from the file');
  await shot(page, 'cube-start');

  // A stone aimed where it cannot go: the ghost is red and the rules engine says why.
  await page.click('#tray button[data-stone="I4"]');
  await page.click('#turn-z');
  await page.click('#back-z');
  await page.keyboard.press('Shift+X');
  await page.keyboard.press('x');
  await hoverColumn(page, [3, 0]);
  await page.waitForFunction(() => !!window.blokusCube?.ghost()?.reason);
  const bad = await page.evaluate(() => window.blokusCube?.ghost());
  assert(!!bad && !bad.legal && (bad.reason || '').includes('off the site'), `reason shown: ${bad?.reason}`);
  assert((await page.locator('#aim-hint.illegal').textContent() || '').includes('off the site'), 'the reason on screen');
  await page.keyboard.press('Escape');

  let placed = 0;
  let heard = -1;
  for (let guard = 0; guard < 40; guard++) {
    await page.waitForFunction(() => !!window.blokusCube?.myTurn() || !!window.blokusCube?.state().over, null, { timeout: 60000 });
    if (await page.evaluate(() => !!window.blokusCube?.state().over)) break;
    const before = await page.evaluate(() => window.blokusCube?.state().ply ?? -1);
    const move = await clickSomeCubeMove(page);
    await page.waitForFunction((n) => (window.blokusCube?.state().ply ?? -1) > n, before, { timeout: 60000 });
    const s = await page.evaluate(() => window.blokusCube?.state());
    assert(s?.moves[before].cubes.join(',') === move, `${move} placed as clicked`);
    placed++;
    if (placed === 2) {
      await shot(page, 'cube-midgame');
      // The flat game's sounds and mute switch (the same stored setting).
      assert((await page.evaluate(() => window.blokusCube?.sounds() ?? 0)) > 0, 'placed stones and my turn make sounds');
      await page.click('#mute');
      assert((await page.getAttribute('#mute', 'aria-pressed')) === 'true', 'muted');
      heard = await page.evaluate(() => window.blokusCube?.sounds() ?? 0);
    }
  }
  const end = await page.evaluate(() => window.blokusCube?.state());
  assert(!!end?.over && placed >= 3, `the game ended after ${placed} of my moves`);
  assert((await page.evaluate(() => window.blokusCube?.sounds() ?? 0)) === heard, 'muted: no more sounds');
  await page.waitForSelector('#gameover:not([hidden])');
  assert((await page.locator('#gameover').textContent() || '').includes('Game over'), 'game over panel');
  assert((await page.locator('#scores').textContent() || '').includes('on top'), 'top-view scores');
  await shot(page, 'cube-end');
  // Replay goes back to the start and forward again.
  await page.click('#r-first');
  assert((await page.locator('#status').textContent() || '').includes('move 0 of'), 'replay at the start');
  await page.click('#r-next');
  assert((await page.locator('#r-label').textContent() || '').startsWith('move 1 of'), 'one move on');
  await page.click('#r-last');
  // The record downloads and names the game and its site.
  const href = await page.locator('#download').getAttribute('href');
  const sgf = await (await page.request.get(`${server.url}${href}`)).text();
  assert(sgf.includes('GM[Blokus 3D Duo]') && sgf.includes('XSITE[yard]'), 'the .blksgf record');
  // The lobby's link to the game opens the 3D page, still muted.
  await page.goto(`${server.url}/game/${end?.id}`);
  await page.waitForURL(/\/cube\/[0-9a-f]{16}$/);
  await page.waitForFunction(() => !!window.blokusCube?.state());
  assert((await page.getAttribute('#mute', 'aria-pressed')) === 'true', 'the mute switch is remembered');
  await page.close();
});

test('Blokus 3D: a tower hides the labels behind it', async ({ browser, server }) => {
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  await page.goto(`${server.url}/`);
  const url = await page.evaluate(async () => {
    const r = await fetch('/api/games', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ variant: 'rumis_2', site: 'plaza', seats: [{ kind: 'hotseat' }, { kind: 'hotseat' }] }),
    });
    /** @type {{id: string, url: string, tokens: Array<{seat: number, token: string}>}} */
    const g = await r.json();
    localStorage.setItem('blokus.tokens', JSON.stringify({ [g.id]: g.tokens }));
    return g.url;
  });
  await page.goto(`${server.url}${url}`);
  await page.waitForFunction(() => !!window.blokusCube?.myTurn());
  // A straight stone stood upright on a1: a tower four levels high beside row 1's name.
  await page.evaluate(() => {
    const id = location.pathname.split('/').pop() || '';
    const tokens = JSON.parse(localStorage.getItem('blokus.tokens') || '{}')[id].map((/** @type {{token: string}} */ t) => t.token);
    const ws = new WebSocket(`ws://${location.host}/api/games/${id}/ws`);
    ws.onopen = () => {
      ws.send(JSON.stringify({ type: 'join', tokens }));
      ws.send(JSON.stringify({ type: 'move', cells: 'a1.1,a1.2,a1.3,a1.4', ply: 0 }));
    };
  });
  await page.waitForFunction(() => window.blokusCube?.state().ply === 1);
  // Seen from the east, the tower stands between the camera and the name of row 1.
  await page.keyboard.press('e');
  await page.keyboard.press('e');
  await sleep(300);
  const whitish = await page.evaluate(() => {
    const at = window.blokusCube?.rowLabelPoint(0) ?? { x: 0, y: 0 };
    const gl = /** @type {HTMLCanvasElement} */ (document.querySelector('#view canvas'));
    const r = gl.getBoundingClientRect();
    const k = gl.width / r.width;
    const c = document.createElement('canvas');
    c.width = gl.width;
    c.height = gl.height;
    const g = /** @type {CanvasRenderingContext2D} */ (c.getContext('2d'));
    g.drawImage(gl, 0, 0);
    const px = g.getImageData(Math.round((at.x - r.left) * k) - 4, Math.round((at.y - r.top) * k) - 4, 9, 9).data;
    let n = 0;
    // The label's white outline (the cubes, lit, are never that light in every channel).
    for (let i = 0; i < px.length; i += 4) if (Math.min(px[i], px[i + 1], px[i + 2]) > 180) n++;
    return n;
  });
  assert(whitish === 0, `the row name does not show through the tower (${whitish} light pixels where it is written)`);
  await shot(page, 'cube-labels-hidden');
  await page.close();
});

// ----- the people around a game: names, chat, spectators, waiting, rematch -----

/**
 * Plays the rest of a game from inside a page over its own WebSocket, holding every
 * seat's token (the first legal move each time), to reach the end quickly.
 * @param {Page} page
 * @param {string[]} tokens
 */
async function playOutOverSocket(page, tokens) {
  await page.evaluate(
    (tokens) =>
      new Promise((resolve, reject) => {
        const ws = new WebSocket(`ws://${location.host}/api/games/${location.pathname.split('/').pop()}/ws`);
        let sentAt = -1;
        ws.onopen = () => ws.send(JSON.stringify({ type: 'join', tokens }));
        ws.onerror = () => reject(new Error('socket failed'));
        ws.onmessage = (ev) => {
          const m = JSON.parse(String(ev.data));
          // Refused (the server's message rate): ask again for the state in a moment.
          if (m.type === 'error') {
            sentAt = -1;
            setTimeout(() => ws.send(JSON.stringify({ type: 'ping' })), 1000);
          }
          if (m.type !== 'state' || !m.you || m.you.length === 0) return;
          if (m.over) {
            ws.close();
            resolve(null);
          } else if (m.legal && m.legal.length && m.ply !== sentAt) {
            sentAt = m.ply;
            // Within the server's rate of five messages a second.
            setTimeout(() => ws.send(JSON.stringify({ type: 'move', cells: m.legal[0], ply: m.ply })), 220);
          }
        };
      }),
    tokens,
  );
}

/** @param {Page} page @param {string} id @returns {Promise<string[]>} */
const storedTokens = (page, id) =>
  page.evaluate((id) => (JSON.parse(localStorage.getItem('blokus.tokens') || '{}')[id] || []).map((/** @type {{token: string}} */ t) => t.token), id);

/** @param {Page} page @returns {Promise<string[]>} the chat lines shown */
const chatLines = (page) => page.locator('#chat-log li .chat-text').allInnerTexts();

test('people around a game: names, two chats with HTML escaped, spectators counted, the host waits, rematch accepted', async ({ browser, server }) => {
  const ca = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const cb = await browser.newContext({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true });
  const cc = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  try {
    const a = await ca.newPage();
    const b = await cb.newPage();
    const c = await cc.newPage();
    await createFromLobby(a, server.url, 'duo', ['me', 'human']);
    const id = a.url().split('/').pop() || '';
    await a.fill('#name-input', 'Ada');
    await a.press('#name-input', 'Enter');
    await a.waitForFunction(() => window.blokusGame?.state()?.seats[0].name === 'Ada');
    // The host cannot move before the opponent has taken the seat.
    assert((await a.locator('#status').innerText()).includes('Waiting for the opponent to join — share this link'), 'the host is told to wait');
    await a.click('#tray .tray-colour.active button[data-piece="X"]');
    await a.locator('#board polygon[data-name="e10"]').click();
    await sleep(300);
    assert((await ply(a)) === 0, 'no move before the seat is taken');
    await a.keyboard.press('Escape');

    // The invited player (on a phone) takes the seat and picks a name; a bad one is refused.
    await b.goto(`${server.url}/game/${id}`);
    await b.click('text=Take this seat');
    await b.waitForFunction(() => (window.blokusGame?.state()?.you || []).length === 1);
    await b.fill('#name-input', '<i>Bo</i>');
    await b.press('#name-input', 'Enter');
    await b.waitForSelector('.toast-error');
    assert((await b.locator('.toast-error').innerText()).includes('letters, digits'), 'the refusal says why');
    await b.fill('#name-input', 'Bo');
    await b.press('#name-input', 'Enter');
    await a.waitForFunction(() => window.blokusGame?.state()?.seats[1].name === 'Bo');
    assert((await a.locator('#seats').innerText()).includes('Bo'), "the opponent's name beside their colour");
    assert((await b.locator('#seats').innerText()).includes('Ada'), 'and the other way');

    // A spectator is counted, live, on every page.
    await c.goto(`${server.url}/game/${id}`);
    await c.waitForFunction(() => !!window.blokusGame?.state());
    await a.waitForFunction(() => document.querySelector('#spectators')?.textContent === '1 spectator watching');
    await b.waitForFunction(() => document.querySelector('#spectators')?.textContent === '1 spectator watching');
    assert((await c.locator('#seats').innerText()).includes('Ada'), 'the spectator sees the names');

    // The players' chat, both ways; markup stays text.
    const payload = '<img src=x onerror="document.title=\'pwned\'"> hi';
    await a.fill('#chat-input', payload);
    await a.press('#chat-input', 'Enter');
    await b.waitForFunction((p) => [...document.querySelectorAll('#chat-log .chat-text')].some((e) => e.textContent === p), payload);
    assert((await b.locator('#chat-log img').count()) === 0, 'no image made from a chat line');
    assert(!(await b.title()).includes('pwned') && !(await a.title()).includes('pwned'), 'no script ran');
    assert((await b.locator('#chat-log li').first().innerText()).includes('Ada'), 'the line names who said it');
    await b.fill('#chat-input', 'gg, well played');
    await b.press('#chat-input', 'Enter');
    await a.waitForFunction(() => [...document.querySelectorAll('#chat-log .chat-text')].some((e) => e.textContent === 'gg, well played'));
    // Too long a line is refused with the reason (the page's limit is lifted to try).
    await a.evaluate(() => document.querySelector('#chat-input')?.removeAttribute('maxlength'));
    await a.fill('#chat-input', 'x'.repeat(301));
    await a.press('#chat-input', 'Enter');
    await a.waitForFunction(() => (document.querySelector('#chat-note')?.textContent || '').includes('at most 300 characters'));
    // The spectators have their own chat; the players do not see it.
    assert((await c.locator('#chat-title').innerText()) === "Spectators' chat", 'the spectator reads the spectators\' chat');
    assert((await chatLines(c)).length === 0, "the spectator does not read the players' chat");
    await c.fill('#chat-input', 'hello from the rail');
    await c.press('#chat-input', 'Enter');
    await c.waitForFunction(() => [...document.querySelectorAll('#chat-log .chat-text')].some((e) => e.textContent === 'hello from the rail'));
    await sleep(300);
    assert(!(await chatLines(a)).includes('hello from the rail'), "players don't see the spectators' chat");
    // Hiding the chat folds it away and is remembered.
    await b.click('#chat-hide');
    assert(await b.locator('#chat-log').isHidden(), 'the chat can be hidden');
    await shot(a, 'chat-desktop');
    await shot(b, 'chat-phone-hidden');
    await b.reload();
    await b.waitForFunction(() => (window.blokusGame?.state()?.you || []).length === 1);
    assert(await b.locator('#chat-log').isHidden(), 'hidden after a reload too');
    await b.click('#chat-hide');
    await b.waitForFunction(() => document.querySelectorAll('#chat-log li').length >= 2);
    await shot(b, 'chat-phone');

    // The spectator leaves: the count follows.
    await c.close();
    await a.waitForFunction(() => document.querySelector('#spectators')?.textContent === 'no spectators');

    // To the end of the game, then Ada asks for a rematch and Bo accepts it.
    await playOutOverSocket(a, [...(await storedTokens(a, id)), ...(await storedTokens(b, id))]);
    await a.waitForSelector('#gameover:not([hidden]) #rematch');
    await b.waitForSelector('#gameover:not([hidden]) #rematch');
    await Promise.all([a.waitForURL((u) => !u.href.endsWith(id)), a.click('#rematch')]);
    const next = a.url().split('/').pop() || '';
    await b.waitForSelector('#rematch-offer');
    assert((await b.locator('#rematch-offer').innerText()).includes('Ada asks for a rematch'), 'Bo is asked');
    assert((await b.locator('#rematch').innerText()) === 'Accept the rematch', 'and can accept');
    await Promise.all([b.waitForURL((u) => u.href.endsWith(next)), b.click('#rematch')]);
    await b.waitForFunction(() => (window.blokusGame?.state()?.you || []).join() === '0');
    const seats = await b.evaluate(() => window.blokusGame?.state()?.seats.map((st) => `${st.kind}:${st.name}:${st.claimed}`) ?? []);
    assert(seats.join() === 'human:Bo:true,me:Ada:true', `colours rotated, names kept (${seats})`);
    await waitMyTurn(b);
    await a.waitForFunction(() => (window.blokusGame?.state()?.you || []).join() === '1' && !!window.blokusGame?.state()?.seats[0].connected);
    await shot(a, 'rematch-accepted');
  } finally {
    for (const ctx of [ca, cb, cc]) await ctx.close().catch(() => undefined);
  }
});

test('Blokus 3D around the table: names, chats, spectators, a hint, scores of the position replayed, rematch, the lobby', async ({ browser, server }) => {
  const ca = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const cc = await browser.newContext({ viewport: { width: 390, height: 844 } });
  try {
    const a = await ca.newPage();
    await a.goto(`${server.url}/cube`);
    await a.waitForSelector('#c-variant option[value="rumis_2"]', { state: 'attached' });
    // Named for people, and the missing clock said before the game starts.
    assert((await a.locator('#c-variant option[value="rumis_2"]').innerText()).startsWith('Blokus 3D Duo'), 'variant named');
    assert((await a.locator('#c-clock-note').innerText()).includes('without clocks'), 'no clocks, said');
    await a.selectOption('#c-variant', 'rumis_2');
    await a.selectOption('#c-site', 'plaza');
    await a.locator('.seat-level').nth(1).selectOption('1');
    await Promise.all([a.waitForURL(/\/cube\/[0-9a-f]{16}$/), a.click('#c-create')]);
    const id = a.url().split('/').pop() || '';
    await a.waitForFunction(() => !!window.blokusCube?.myTurn());
    await a.fill('#name-input', 'Ada');
    await a.click('#name-form button');
    await a.waitForFunction(() => window.blokusCube?.state().seats[0].name === 'Ada');
    assert((await a.locator('#seats').innerText()).includes('Ada (you)'), 'my name on my seat');

    // The AI's hint: drawn in the view and said; nothing is played.
    await a.click('#ai-hint');
    await a.waitForFunction(() => (window.blokusCube?.hintCubes() ?? 0) > 0);
    assert((await a.locator('#hint-text').innerText()).startsWith('Hint: the AI would place'), 'the hint said');
    assert((await a.evaluate(() => window.blokusCube?.state().ply)) === 0, 'nothing played');

    // A spectator on a phone: counted, with a chat of their own, HTML shown as text; no tray,
    // and the page fits the phone's width.
    const c = await cc.newPage();
    // The creation form fits a phone too (long names once widened it to 1075 px).
    await c.goto(`${server.url}/cube`);
    await c.waitForSelector('#c-variant option[value="rumis_2x4"]', { state: 'attached' });
    assert((await c.locator('#c-variant-desc').innerText()).includes('two players'), 'the variant described');
    assert((await c.evaluate(() => document.documentElement.scrollWidth)) <= 390, 'the 3D creation form fits a phone');
    await c.goto(`${server.url}/cube/${id}`);
    await c.waitForFunction(() => !!window.blokusCube?.state());
    await a.waitForFunction(() => document.querySelector('#spectators')?.textContent === '1 spectator watching');
    assert(await c.locator('#tray-col').isHidden(), 'a spectator has no stones to place');
    assert((await c.evaluate(() => document.documentElement.scrollWidth)) <= 390, 'no sideways scrolling on a phone');
    await c.waitForFunction(() => document.querySelector('#chat-title')?.textContent === "Spectators' chat");
    await c.fill('#chat-input', '<b>wow</b>');
    await c.press('#chat-input', 'Enter');
    await c.waitForFunction(() => [...document.querySelectorAll('#chat-log .chat-text')].some((e) => e.textContent === '<b>wow</b>'));
    assert((await c.locator('#chat-log .chat-text b').count()) === 0, 'no markup from a chat line');
    await a.fill('#chat-input', 'good luck');
    await a.press('#chat-input', 'Enter');
    await a.waitForFunction(() => [...document.querySelectorAll('#chat-log .chat-text')].some((e) => e.textContent === 'good luck'));
    assert(!(await chatLines(a)).includes('<b>wow</b>'), "the players do not read the spectators' chat");

    // To the end; then the end screen, and the scores of each position replayed.
    await playOutOverSocket(a, await storedTokens(a, id));
    await a.waitForSelector('#gameover:not([hidden]) #rematch');
    assert(await a.locator('#tray-col').isHidden(), 'no stones to place after the game');
    const end = /** @type {import('../web/js/cube.js').CubeState} */ (await a.evaluate(() => window.blokusCube?.state()));
    const live = await a.locator('#scores').innerText();
    await a.click('#r-first');
    assert((await a.locator('#scores-title').innerText()) === 'Score at move 0', 'the scores say which position');
    const start = await a.locator('#scores').innerText();
    assert(start.includes('Blue: -11 — 0 on top, 11 stones left') && start !== live, `the empty site's scores (${start})`);
    await a.click('#r-next');
    const first = end.moves[0];
    const tops = new Set(first.cubes.map((t) => t.replace(/\.\d+$/, ''))).size;
    const after1 = await a.locator('#scores').innerText();
    assert(after1.includes(`Blue: ${tops - 10} — ${tops} on top, 10 stones left`), `after the first stone (${after1})`);
    assert((await a.locator('#moves li.current').innerText()).includes(first.cubes.join(',')), 'the move list follows');
    await a.click('#r-last');
    assert((await a.locator('#scores').innerText()) === live, 'live again');

    // A rematch: the 3D page of the new game, colours rotated, my name kept.
    await Promise.all([a.waitForURL((u) => /\/cube\/[0-9a-f]{16}$/.test(u.href) && !u.href.endsWith(id)), a.click('#rematch')]);
    await a.waitForFunction(() => (window.blokusCube?.state()?.you || []).join() === '1');
    const seats = await a.evaluate(() => window.blokusCube?.state()?.seats.map((st) => `${st.kind}:${st.name ?? ''}`) ?? []);
    assert(seats.join() === 'ai:,me:Ada', `colours rotated, name kept (${seats})`);
    await shot(a, 'cube-rematch');

    // The lobby names 3D games and opens them on the 3D page.
    await a.goto(`${server.url}/`);
    const link = a.locator(`#mine a[href="/cube/${id}"]`);
    await link.waitFor();
    assert((await link.innerText()).startsWith('Blokus 3D Duo'), `named in the lobby (${await link.innerText()})`);

    // A player on a phone: the status above the view, the stones in a drawer at the bottom
    // that folds away when a stone is picked, so the view is free to aim at.
    const p = await cc.newPage();
    await p.goto(`${server.url}/`);
    const url = await p.evaluate(async () => {
      const r = await fetch('/api/games', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ variant: 'rumis_2', seats: [{ kind: 'me' }, { kind: 'ai', level: 1 }] }),
      });
      /** @type {{id: string, url: string, tokens: Array<{seat: number, token: string}>}} */
      const g = await r.json();
      localStorage.setItem('blokus.tokens', JSON.stringify({ [g.id]: g.tokens }));
      return g.url;
    });
    await p.goto(`${server.url}${url}`);
    await p.waitForFunction(() => !!window.blokusCube?.myTurn());
    const status = await box(p, '#status');
    const view = await box(p, '#view');
    assert(status.y < view.y, 'the status above the view');
    assert(await p.locator('#tray button[data-stone="I2"]').isVisible(), 'the stones at hand');
    await p.click('#tray button[data-stone="I2"]');
    assert(await p.locator('#tray').isHidden(), 'picking a stone folds the drawer');
    const drawer = await box(p, '#tray-col');
    assert(drawer.y >= view.y + view.height * 0.85, `the folded drawer leaves the view free (${drawer.y} vs ${view.y}+${view.height})`);
    await p.click('#tray-toggle');
    assert(await p.locator('#tray').isVisible(), 'the drawer unfolds');
    assert((await p.evaluate(() => document.documentElement.scrollWidth)) <= 390, 'no sideways scrolling');
    await shot(p, 'cube-phone');
  } finally {
    for (const ctx of [ca, cc]) await ctx.close().catch(() => undefined);
  }
});

async function main() {
  const data = mkdtempSync(path.join(os.tmpdir(), 'blokus-e2e-'));
  const server = new Server(data, await freePort());
  await server.start();
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--no-first-run',
      '--disable-sync',
    ],
  });
  // Playwright's waitForFunction evaluates strings in the page, which the pages' CSP
  // (no 'unsafe-eval') forbids: test pages bypass it, except where a test asks for it
  // (the CSP test, which sees the policy as a person's browser does).
  const newContext = browser.newContext.bind(browser);
  const newPage = browser.newPage.bind(browser);
  browser.newContext = (options = {}) => newContext({ bypassCSP: true, ...options });
  browser.newPage = (options = {}) => newPage({ bypassCSP: true, ...options });
  let passed = 0;
  let failed = 0;
  const only = process.env.E2E_ONLY;
  for (const [name, fn] of tests) {
    if (only && !name.includes(only)) continue;
    const t0 = Date.now();
    try {
      if (!server.proc) await server.start();
      await fn({ browser, server });
      passed++;
      console.log(`ok   ${name} (${((Date.now() - t0) / 1000).toFixed(1)} s)`);
    } catch (e) {
      failed++;
      console.log(`FAIL ${name}: ${/** @type {Error} */ (e).stack || e}`);
    }
  }
  await browser.close();
  await server.kill9();
  rmSync(data, { recursive: true, force: true });
  console.log(`${passed} passed, ${failed} failed`);
  process.exit(failed ? 1 : 0);
}

main().catch((e) => {
  console.error(e);
  console.log('0 passed, 1 failed');
  process.exit(1);
});
