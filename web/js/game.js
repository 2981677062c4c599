// @ts-check
/**
 * The board page: live play over the WebSocket, piece tray, ghost preview, move list,
 * scores, seats, replay.
 * @module
 */

import { $, colourHex, getJson, h, postJson, sideTitle, title } from './api.js';
import { BoardView, pieceSvg } from './board.js';
import { notify } from './notices.js';
import { PiecePicker, pickerElements } from './picker.js';
import { ReconnectingSocket } from './socket.js';
import { addTokens, tokensFor } from './tokens.js';

/** @typedef {import('./api.js').GameState} GameState */
/** @typedef {import('./api.js').VariantDetail} VariantDetail */

const id = decodeURIComponent(location.pathname.split('/').filter(Boolean).pop() || '');

class GamePage {
  /** @param {VariantDetail} v */
  constructor(v) {
    this.v = v;
    /** @type {GameState|null} */
    this.state = null;
    /** @type {Map<string, number>} */
    this.cellIndex = new Map(v.names.map((n, i) => [n, i]));
    /** @type {Set<string>} */
    this.legal = new Set();
    /** @type {number|null} replayed ply, null = live */
    this.viewPly = null;
    /** Whether a move was sent and its answer is awaited. */
    this.sending = false;
    this.picker = new PiecePicker(
      {
        canPlace: () => this.myTurn() && this.viewPly === null && !this.sending,
        colour: () => (this.state && this.state.to_move !== null ? this.v.colours[this.state.to_move] : null),
        available: (piece) => {
          const s = this.state;
          return !!s && s.to_move !== null && (s.remaining[s.to_move][piece] || 0) > 0;
        },
        check: (cells) => ({ legal: this.legal.has(this.moveKey(cells)) }),
        place: (cells) => this.place(cells),
        // The rules engine on the server names the broken rule and the cell.
        refused: (cells) => this.sendMove(cells),
        changed: () => {
          this.renderTray();
          this.renderStatus();
        },
        key: (ev) => this.pageKey(ev),
      },
      pickerElements(),
    );
    this.board = new BoardView($('#board'), v, this.picker.boardHandlers());
    this.picker.attach(this.board);
    $('#variant-name').textContent = v.name;
    /** @type {HTMLAnchorElement} */ ($('#download')).href = `/api/games/${id}/record.blksgf`;
    this.bindControls();
    const proto = location.protocol === 'https:' ? 'wss' : 'ws';
    this.sock = new ReconnectingSocket(`${proto}://${location.host}/api/games/${id}/ws`, {
      onMessage: (m) => this.onMessage(m),
      onOpen: () => this.join(),
      onStatus: (s, ms) => this.onConn(s, ms),
    });
    document.addEventListener('visibilitychange', () => {
      if (!document.hidden) this.sock.kick();
    });
  }

  join() {
    const tokens = tokensFor(id).map((t) => t.token);
    if (tokens.length) this.sock.send({ type: 'join', tokens });
  }

  /**
   * @param {'connecting'|'open'|'waiting'} s
   * @param {number} [ms]
   */
  onConn(s, ms) {
    const el = $('#conn');
    el.className = `conn conn-${s}`;
    el.textContent =
      s === 'open' ? 'live' : s === 'connecting' ? 'connecting…' : `offline, retrying in ${Math.ceil((ms || 0) / 1000)} s`;
  }

  /**
   * The page's own keys: with no piece in hand the left and right arrows replay.
   * @param {KeyboardEvent} ev
   * @returns {boolean} whether the key was used
   */
  pageKey(ev) {
    if (this.picker.piece !== null) return false;
    if (ev.key === 'ArrowLeft') this.step(-1);
    else if (ev.key === 'ArrowRight') this.step(1);
    else return false;
    return true;
  }

  bindControls() {
    $('#undo').addEventListener('click', () => this.sock.send({ type: 'undo' }));
    $('#r-first').addEventListener('click', () => this.viewAt(0));
    $('#r-prev').addEventListener('click', () => this.step(-1));
    $('#r-next').addEventListener('click', () => this.step(1));
    $('#r-last').addEventListener('click', () => this.viewAt(null));
    $('#r-range').addEventListener('input', (ev) => {
      this.viewAt(Number(/** @type {HTMLInputElement} */ (ev.target).value));
    });
  }

  /** @param {number} d */
  step(d) {
    const s = this.state;
    if (!s) return;
    const cur = this.viewPly === null ? s.moves.length : this.viewPly;
    this.viewAt(Math.max(0, Math.min(s.moves.length, cur + d)));
  }

  /** @param {number|null} ply */
  viewAt(ply) {
    const s = this.state;
    if (!s) return;
    this.viewPly = ply === null || ply >= s.moves.length ? null : ply;
    if (this.viewPly !== null) this.picker.select(null);
    this.render();
  }

  /** @param {import('./api.js').ServerMsg} m */
  onMessage(m) {
    switch (m.type) {
      case 'state': {
        const prevPly = this.state ? this.state.ply : -1;
        this.state = m;
        this.sending = false;
        this.legal = new Set(m.legal || []);
        this.render();
        // A hot-seat player keeps the piece in hand if it is still theirs to place.
        if (m.ply !== prevPly || !this.myTurn()) this.picker.select(this.myTurn() ? this.picker.piece : null);
        break;
      }
      case 'pass':
        notify(`${m.names.map(title).join(', ')} cannot move and pass${m.names.length > 1 ? '' : 'es'}.`, 'info');
        break;
      case 'undo':
        notify('Moves taken back.', 'info');
        break;
      case 'game_over':
        notify('Game over.', 'info');
        break;
      case 'error':
        this.sending = false;
        // A refused placement: the reason goes under the board where the player looks.
        if (m.code === 'illegal' && this.picker.piece !== null) this.picker.explain(m.message);
        else notify(m.message, 'error');
        break;
      case 'move':
        break;
    }
  }

  /** Whether this browser plays the side to move (a placement, not the pie choice). */
  myTurn() {
    const s = this.state;
    return !!s && !s.over && !s.awaiting_pie && s.player_to_move !== null && (s.you || []).includes(s.player_to_move);
  }

  /**
   * The canonical move text of cells: names in cell index order.
   * @param {number[]} cells
   * @returns {string}
   */
  moveKey(cells) {
    return [...cells].sort((a, b) => a - b).map((i) => this.v.names[i]).join(',');
  }

  /**
   * Sends a legal placement; the piece leaves the hand.
   * @param {number[]} cells
   */
  place(cells) {
    if (this.sendMove(cells)) {
      this.sending = true;
      this.picker.select(null);
    }
  }

  /**
   * Sends a placement to the server (which checks it with the rules engine).
   * @param {number[]} cells
   * @returns {boolean} whether it was sent
   */
  sendMove(cells) {
    const s = this.state;
    if (!s) return false;
    if (this.sock.send({ type: 'move', cells: this.moveKey(cells).split(','), ply: s.ply })) return true;
    notify('Not connected; the move was not sent.', 'error');
    return false;
  }

  // ----- rendering -----

  render() {
    const s = this.state;
    if (!s) return;
    this.renderBoard();
    this.renderStatus();
    this.renderPie();
    this.renderTray();
    this.renderMoves();
    this.renderScores();
    this.renderSeats();
    this.renderGameOver();
    this.renderReplay();
    $('#undo').hidden = !s.can_undo || this.viewPly !== null;
    // Spectators have nothing to place.
    $('#controls').hidden = (s.you || []).length === 0;
    this.picker.refresh();
  }

  renderBoard() {
    const s = /** @type {GameState} */ (this.state);
    const n = this.viewPly === null ? s.moves.length : this.viewPly;
    /** @type {number[]} */
    let owners;
    if (this.viewPly === null) owners = s.owners;
    else {
      owners = new Array(this.v.cells.length).fill(-1);
      for (const m of s.moves.slice(0, n)) {
        for (const c of m.cells || []) owners[this.cellIndex.get(c) ?? 0] = m.colour ?? -1;
      }
    }
    /** @type {Set<number>} */
    const last = new Set();
    for (let i = n - 1; i >= 0; i--) {
      const m = s.moves[i];
      if (m.cells) {
        for (const c of m.cells) last.add(this.cellIndex.get(c) ?? 0);
        break;
      }
    }
    const mine = this.viewPly === null && this.myTurn();
    const attach = new Set(mine ? s.attach.map((c) => this.cellIndex.get(c) ?? 0) : []);
    const starts = this.v.starts.map((name, i) => ({
      cell: this.cellIndex.get(name) ?? 0,
      colour: this.v.starts_per_colour ? this.v.colours[i] : null,
    }));
    this.board.render({
      owners,
      colours: this.v.colours,
      last,
      attach,
      attachColour: mine && s.to_move !== null ? this.v.colours[s.to_move] : null,
      starts,
    });
  }

  /** @param {number} seat @returns {string} */
  seatLabel(seat) {
    const s = /** @type {GameState} */ (this.state);
    const st = s.seats[seat];
    const you = (s.you || []).includes(seat);
    if (st.kind === 'ai') return `AI level ${st.level}`;
    if (you) return st.kind === 'hotseat' ? 'hot-seat (you)' : 'you';
    if (st.kind === 'human' && !st.claimed) return 'open seat';
    return `player ${seat + 1}`;
  }

  renderStatus() {
    const s = /** @type {GameState} */ (this.state);
    // Tell a player in another tab that it is their turn.
    document.title = `${this.myTurn() || (s.awaiting_pie && (s.you || []).includes(s.player_to_move ?? -1)) ? '● ' : ''}${this.v.name} — Blokus`;
    const el = $('#status');
    el.className = 'status';
    if (s.over) {
      const winners = s.results.filter((r) => r.place === 1).map((r) => sideTitle(r.name));
      el.textContent = `Game over — ${winners.length > 1 ? `draw between ${winners.join(' and ')}` : `${winners[0]} wins`}`;
      el.classList.add('status-over');
      return;
    }
    const p = /** @type {number} */ (s.player_to_move);
    if (s.awaiting_pie) {
      el.textContent = `Pie rule: ${this.seatLabel(p)} chooses a colour`;
      if ((s.you || []).includes(p)) el.classList.add('status-you');
      return;
    }
    const colour = this.v.colours[/** @type {number} */ (s.to_move)];
    const chip = h('span', { class: 'chip', style: `background:${colourHex(colour)}` });
    const who = this.seatLabel(p);
    let text;
    if (this.myTurn()) {
      text = `Your turn: ${title(colour)}${this.picker.piece === null ? ' — pick a piece below' : ''}`;
      el.classList.add('status-you');
    } else if (s.seats[p].kind === 'ai') {
      text = `${title(colour)} (${who}) is thinking…`;
      el.classList.add('status-wait');
    } else {
      text = `Waiting for ${title(colour)} (${who})`;
      el.classList.add('status-wait');
    }
    el.replaceChildren(chip, text);
  }

  renderPie() {
    const s = /** @type {GameState} */ (this.state);
    const el = $('#pie');
    const p = s.player_to_move;
    const show = !s.over && s.awaiting_pie && p !== null && (s.you || []).includes(p);
    el.hidden = !show;
    if (!show) return;
    const [a, b] = this.v.colours;
    const keep = h('button', { type: 'button', class: 'primary' }, [`Keep: I play ${title(a)} and move next`]);
    const swap = h('button', { type: 'button' }, [`Swap: I play ${title(b)}`]);
    keep.addEventListener('click', () => this.sock.send({ type: 'pie', choice: 'keep' }));
    swap.addEventListener('click', () => this.sock.send({ type: 'pie', choice: 'swap' }));
    el.replaceChildren(
      h('p', {}, ['The opening is placed. Choose your colour (pie rule):']),
      h('div', { class: 'row' }, [keep, swap]),
    );
  }

  renderTray() {
    const s = this.state;
    if (!s) return;
    const tray = $('#tray');
    const live = this.viewPly === null;
    const mineToMove = live && this.myTurn() ? s.to_move : null;
    const legalPieces = new Set(s.legal_pieces || []);
    const scale = this.v.grid === 'square' ? 0.5 : 0.55;
    const blocks = this.v.colours.map((colour, c) => {
      if (this.v.shared_pool && c > 0 && mineToMove !== c) return null;
      const active = mineToMove === c;
      const items = this.v.pieces.map((p, i) => {
        const left = s.remaining[c][i] || 0;
        if (left === 0) return null;
        const btn = h('button', {
          type: 'button',
          class: `piece${this.picker.piece === i && active ? ' selected' : ''}${active && !legalPieces.has(i) ? ' blocked' : ''}`,
          title: `${p.name} (${p.size} cells)${left > 1 ? ` ×${left}` : ''}`,
          'data-piece': p.name,
        });
        // Other colours' pieces are shown smaller: there to read, not to pick.
        btn.append(pieceSvg(this.v.grid, p.symmetries[0], colourHex(colour), active ? scale : scale * 0.7));
        if (left > 1) btn.append(h('span', { class: 'count' }, [`×${left}`]));
        if (active) btn.addEventListener('click', () => this.picker.select(this.picker.piece === i ? null : i));
        else btn.setAttribute('disabled', '');
        return btn;
      });
      const head = h('div', { class: 'tray-head' }, [
        h('span', { class: 'chip', style: `background:${colourHex(colour)}` }),
        `${this.v.shared_pool ? 'Shared set' : title(colour)}`,
        h('span', { class: 'muted' }, [` — ${s.scores[c].cells_remaining} cells left`]),
      ]);
      return h('div', { class: `tray-colour${active ? ' active' : ''}` }, [
        head,
        h('div', { class: 'pieces' }, /** @type {HTMLElement[]} */ (items.filter(Boolean))),
      ]);
    });
    const list = /** @type {HTMLElement[]} */ (blocks.filter(Boolean));
    // The colour to move first, so on a phone the playable pieces are at hand.
    list.sort((a, b) => Number(b.classList.contains('active')) - Number(a.classList.contains('active')));
    tray.replaceChildren(...list);
  }

  renderMoves() {
    const s = /** @type {GameState} */ (this.state);
    const ol = $('#moves');
    const items = s.moves.map((m, i) => {
      const li = h('li', { class: this.viewPly !== null && i === this.viewPly - 1 ? 'current' : '' });
      if (m.pie) li.append(`Player 2 chooses: ${m.pie}`);
      else {
        const colour = this.v.colours[m.colour ?? 0];
        li.append(
          h('span', { class: 'chip', style: `background:${colourHex(colour)}` }),
          h('b', {}, [m.piece || '']),
          ' ',
          h('span', { class: 'cells' }, [(m.cells || []).join(',')]),
        );
        if (m.passes && m.passes.length) {
          li.append(h('div', { class: 'muted pass' }, [`${m.passes.map((c) => title(this.v.colours[c])).join(', ')} passed`]));
        }
      }
      li.addEventListener('click', () => this.viewAt(i + 1));
      return li;
    });
    ol.replaceChildren(...items);
    if (this.viewPly === null) ol.scrollTop = ol.scrollHeight;
  }

  renderScores() {
    const s = /** @type {GameState} */ (this.state);
    const rows = s.scores.map((sc) => {
      const colour = this.v.colours[sc.colour];
      return h('tr', { class: sc.counted ? '' : 'muted' }, [
        h('td', {}, [h('span', { class: 'chip', style: `background:${colourHex(colour)}` }), title(colour)]),
        h('td', {}, [String(sc.pieces_placed)]),
        h('td', {}, [String(sc.cells_remaining)]),
        h('td', {}, [sc.all_placed_bonus || sc.monomino_bonus ? `+${sc.all_placed_bonus + sc.monomino_bonus}` : '']),
        h('td', { class: 'pts' }, [sc.counted ? String(sc.points) : '—']),
      ]);
    });
    const table = h('table', { class: 'scores' }, [
      h('thead', {}, [h('tr', {}, ['Colour', 'Pieces', 'Left', 'Bonus', 'Points'].map((t) => h('th', {}, [t])))]),
      h('tbody', {}, rows),
    ]);
    const sides = h(
      'div',
      { class: 'sides' },
      s.results.map((r) =>
        h('div', { class: `side${s.over && r.place === 1 ? ' place-1' : ''}` }, [
          `${s.over ? `${r.place}. ` : ''}${sideTitle(r.name)}: ${r.score}`,
        ]),
      ),
    );
    $('#scores').replaceChildren(table, sides);
  }

  renderSeats() {
    const s = /** @type {GameState} */ (this.state);
    const mine = s.you || [];
    const rows = s.seats.map((st) => {
      const chips = st.colours.map((c) => h('span', { class: 'chip', style: `background:${colourHex(c)}` }));
      const row = h('div', { class: `seat${st.seat === s.player_to_move && !s.over ? ' to-move' : ''}` }, [
        h('span', { class: `dot ${st.connected ? 'on' : 'off'}`, title: st.connected ? 'connected' : 'not connected' }),
        ...chips,
        h('span', { class: 'seat-name' }, [st.colours.map(title).join(' + ') || `Seat ${st.seat + 1}`]),
        h('span', { class: 'muted' }, [this.seatLabel(st.seat)]),
      ]);
      if (st.kind === 'human' && !st.claimed && mine.length === 0) {
        const b = h('button', { type: 'button', class: 'primary small' }, ['Take this seat']);
        b.addEventListener('click', () => this.claim(st.seat));
        row.append(b);
      }
      return row;
    });
    $('#seats').replaceChildren(...rows);
    const open = s.seats.some((st) => st.kind === 'human' && !st.claimed);
    const share = $('#share');
    share.hidden = !open || mine.length === 0;
    if (!share.hidden) {
      const url = `${location.origin}/game/${id}`;
      const input = h('input', { type: 'text', readonly: '', value: url, 'aria-label': 'link to share' });
      const copy = h('button', { type: 'button', class: 'small' }, ['Copy']);
      copy.addEventListener('click', async () => {
        await navigator.clipboard?.writeText(url).catch(() => undefined);
        /** @type {HTMLInputElement} */ (input).select();
        notify('Link copied.', 'info');
      });
      share.replaceChildren(h('p', {}, ['Send this link to your opponent:']), h('div', { class: 'row' }, [input, copy]));
    }
  }

  /** @param {number} seat */
  async claim(seat) {
    try {
      /** @type {{seat: number, token: string}} */
      const r = await postJson(`/api/games/${id}/join`, { seat });
      addTokens(id, [r]);
      this.join();
    } catch (e) {
      notify(String(/** @type {Error} */ (e).message), 'error');
    }
  }

  renderGameOver() {
    const s = /** @type {GameState} */ (this.state);
    const el = $('#gameover');
    el.hidden = !s.over;
    if (!s.over) return;
    const ordered = [...s.results].sort((a, b) => a.place - b.place);
    const scoring =
      this.v.id === 'junior'
        ? 'Most pieces placed wins; ties go to fewer cells left.'
        : this.v.pie
          ? 'Most cells placed wins.'
          : '−1 per cell of unplaced pieces, +15 for placing all pieces, +5 more if the last was the monomino.';
    el.replaceChildren(
      h('h2', {}, ['Game over']),
      h(
        'ol',
        { class: 'final' },
        ordered.map((r) => h('li', { class: r.place === 1 ? 'winner' : '' }, [`${sideTitle(r.name)} — ${r.score}${r.place === 1 ? ' ★ winner' : ''}`])),
      ),
      h('p', { class: 'muted' }, [scoring]),
    );
  }

  renderReplay() {
    const s = /** @type {GameState} */ (this.state);
    const range = /** @type {HTMLInputElement} */ ($('#r-range'));
    range.max = String(s.moves.length);
    const cur = this.viewPly === null ? s.moves.length : this.viewPly;
    range.value = String(cur);
    $('#r-label').textContent = this.viewPly === null ? `move ${cur} (live)` : `move ${cur} of ${s.moves.length}`;
    $('#replay').classList.toggle('replaying', this.viewPly !== null);
  }
}

async function main() {
  try {
    /** @type {GameState} */
    const s = await getJson(`/api/games/${id}`);
    /** @type {VariantDetail} */
    const v = await getJson(`/api/variants/${s.variant}`);
    document.title = `${v.name} — Blokus`;
    const page = new GamePage(v);
    page.state = s;
    page.render();
    window.blokusGame = {
      state: () => page.state,
      myTurn: () => page.myTurn(),
      sending: () => page.sending,
      legalCount: () => page.legal.size,
      findAim: (prefer) => page.picker.findAim({ prefer }),
      orientation: () => page.picker.orient.t,
    };
  } catch (e) {
    $('#status').textContent = `Cannot open this game: ${/** @type {Error} */ (e).message}`;
  }
}

main();
