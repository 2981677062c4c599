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
  /** @param {string} data @param {number} port */
  constructor(data, port) {
    this.data = data;
    this.port = port;
    /** @type {import('node:child_process').ChildProcess|null} */
    this.proc = null;
  }

  get url() {
    return `http://127.0.0.1:${this.port}`;
  }

  async start() {
    this.proc = spawn(BIN, ['serve', '--port', String(this.port), '--data', this.data], {
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
  // Aimed away from the starting points: the rules engine's reason is shown.
  await page.click('#tray .tray-colour.active button[data-piece="O"]');
  await page.locator('#board polygon[data-name="b2"]').click();
  await page.waitForFunction(() => (document.querySelector('#aim-hint')?.textContent || '').includes('starting point'));
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
    await page.click('#hint');
    await waitPlaced(page, i + 1, 20000);
    if (i === 1) {
      await page.waitForFunction(() => (document.querySelector('#status')?.textContent || '').startsWith('Hint: '));
      const status = await page.locator('#status').innerText();
      assert(status.includes('(2 of 20 placed)'), `the hint is shown (${status})`);
      await shot(page, 'puzzle-hint');
    }
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
  const n = await placed(page);
  const status = await page.locator('#status').innerText();
  // Either a piece of a solution or an honest "not found within the limit".
  assert(n === 1 || status.includes('within the search limit'), `hint answered (${n} placed, "${status}")`);
  assert(secs < 15, `hint took ${secs.toFixed(1)} s`);
  console.log(`     penta_15x16 strict hint from the empty board: ${n === 1 ? 'a piece' : 'not found'} in ${secs.toFixed(1)} s`);
  await shot(page, 'puzzle-penta-hint');
  await page.close();
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
