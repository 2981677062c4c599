// @ts-check
/**
 * The board page: live play over the WebSocket, piece tray, ghost preview, move list,
 * scores, seats with names, chat, replay, rematch.
 * @module
 */

import { AnalysisPanel, CLASS_MARK } from './analysis.js';
import { $, account, colourHex, getJson, h, postJson, sideTitle, title } from './api.js';
import { BoardView, pieceSvg } from './board.js';
import { ChatPanel } from './chat.js';
import { notePasses, notify } from './notices.js';
import { PiecePicker, pickerElements } from './picker.js';
import { scoreUnit, scoringRule } from './rules-text.js';
import { ReconnectingSocket } from './socket.js';
import { ClockBar } from './clocks.js';
import { bindMute, moveSound, soundsPlayed, turnSound } from './sounds.js';
import { bindNameForm, bindReplay, joinGame, rematchControls, renderReplay, renderSpectators, tableMessage } from './table-side.js';
import { addTokens, tokensFor } from './tokens.js';

/** @typedef {import('./api.js').GameState} GameState */
/** @typedef {import('./api.js').VariantDetail} VariantDetail */

const id = decodeURIComponent(location.pathname.split('/').filter(Boolean).pop() || '');

class GamePage {
  /**
   * @param {VariantDetail} v
   * @param {string} accountName the logged-in account's user name ('' for a guest)
   */
  constructor(v, accountName) {
    this.v = v;
    this.accountName = accountName;
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
    /** @type {{ply: number, piece: string, cells: string[]}|null} the AI's suggestion shown */
    this.aiHint = null;
    this.picker = new PiecePicker(
      {
        canPlace: () => this.myTurn() && this.viewPly === null && !this.sending && !this.waitingForOpponent(),
        colour: () => (this.state && this.state.to_move !== null ? this.v.colours[this.state.to_move] : null),
        available: (piece) => {
          const s = this.state;
          return !!s && s.to_move !== null && (s.remaining[s.to_move][piece] || 0) > 0;
        },
        check: (cells) => ({ legal: this.legal.has(this.moveKey(cells)) }),
        place: (cells) => this.place(cells),
        // The rules engine on the server names the broken rule and the cell: asked while
        // the preview rests, and again if the player insists.
        refused: (cells) => this.sendMove(cells),
        ask: (cells) => this.sock.send({ type: 'check', cells: this.moveKey(cells).split(',') }),
        changed: () => {
          this.renderTray();
          this.renderStatus();
        },
        key: (ev) => this.pageKey(ev),
      },
      pickerElements(),
    );
    this.analysis = new AnalysisPanel(id, $('#analysis'), {
      sideColour: (side) => this.sideColourHex(side),
      viewAt: (ply) => this.viewAt(ply),
      changed: () => {
        this.renderMoves();
        this.renderBoard();
      },
    });
    this.board = new BoardView($('#board'), v, this.picker.boardHandlers());
    this.clocks = new ClockBar($('#clocks'));
    this.picker.attach(this.board);
    $('#variant-name').textContent = v.name;
    /** @type {HTMLAnchorElement} */ ($('#howto')).href = `/howto.html?variant=${encodeURIComponent(v.id)}`;
    /** @type {HTMLAnchorElement} */ ($('#download')).href = `/api/games/${id}/record.blksgf`;
    this.bindControls();
    bindMute($('#mute'));
    this.chat = new ChatPanel((text) => this.sock.send({ type: 'chat', text }));
    this.board.root.setAttribute('aria-describedby', 'aim-hint');
    const proto = location.protocol === 'https:' ? 'wss' : 'ws';
    this.sock = new ReconnectingSocket(`${proto}://${location.host}/api/games/${id}/ws`, {
      onMessage: (m) => this.onMessage(m),
      onOpen: () => this.join(),
      onStatus: (s, ms) => this.onConn(s, ms),
    });
    document.addEventListener('visibilitychange', () => {
      if (!document.hidden) this.sock.kick();
      this.renderTitle();
    });
  }

  /** Takes this device's seats (with its player's name); a spectator gives the name for the chat. */
  join() {
    joinGame(this.sock, id, this.accountName);
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
    bindNameForm((m) => this.sock.send(m), this.accountName);
    $('#undo').addEventListener('click', () => this.sock.send({ type: 'undo' }));
    $('#ai-hint').addEventListener('click', () => this.askHint());
    bindReplay(
      (ply) => this.viewAt(ply),
      () => this.viewPly ?? (this.state ? this.state.moves.length : 0),
    );
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

  /**
   * Links a tournament game to its event.
   * @param {{id: string, round: number, table: number}} [t]
   */
  showTournament(t) {
    const link = /** @type {HTMLAnchorElement} */ ($('#event-link'));
    link.hidden = !t;
    if (!t) return;
    link.href = `/event/${t.id}`;
    link.textContent = `Tournament: round ${t.round}, table ${t.table}`;
  }

  /** @param {import('./api.js').ServerMsg} m */
  onMessage(m) {
    switch (m.type) {
      case 'state': {
        const prevPly = this.state ? this.state.ply : -1;
        const wasMyTurn = this.myTurn();
        this.state = m;
        this.sending = false;
        this.showTournament(m.tournament);
        this.legal = new Set(m.legal || []);
        if (prevPly >= 0 && m.ply > prevPly) moveSound();
        if (this.myTurn() && !wasMyTurn && prevPly >= 0) turnSound();
        this.render();
        // A hot-seat player keeps the piece in hand if it is still theirs to place.
        if (m.ply !== prevPly || !this.myTurn()) this.picker.select(this.myTurn() ? this.picker.piece : null);
        // A new turn opens the pieces' drawer on a phone.
        if (this.myTurn() && (!wasMyTurn || m.ply !== prevPly)) this.picker.fold(false);
        break;
      }
      case 'pass':
        notePasses(m.names, (names) => `${names.map(title).join(', ')} cannot move any more and ${names.length > 1 ? 'pass' : 'passes'}.`);
        break;
      case 'undo':
        notify('Moves taken back.', 'info');
        break;
      case 'time_out':
        notify(`${this.seatName(m.seat)} ran out of time${this.v.players > 2 ? ' and passes for the rest of the game' : ''}.`, 'info');
        break;
      case 'error':
        this.sending = false;
        // A refused placement: the reason goes under the board where the player looks.
        if (m.code === 'illegal' && this.picker.piece !== null) this.picker.explain(m.message);
        else tableMessage(m, this.chat, () => undefined);
        break;
      case 'check': {
        // The reason for the preview still shown (an answer for an earlier aim is dropped).
        const cells = this.picker.cells;
        if (!m.legal && m.reason && cells && this.moveKey(cells) === m.cells) this.picker.explain(m.reason);
        break;
      }
      case 'move':
        break;
      default:
        tableMessage(m, this.chat, (n) => {
          if (this.state) {
            this.state.spectators = n;
            this.renderSpectators();
          }
        });
    }
  }

  /** Hints are for practice against the computer: an AI seat and no other person. */
  hintsAllowed() {
    const s = this.state;
    return !!s && !s.rated && s.seats.some((st) => st.kind === 'ai') && !s.seats.some((st) => st.kind === 'human');
  }

  /** Asks the server for the AI's move for this player and shows it on the board. */
  async askHint() {
    const s = this.state;
    if (!s || !this.myTurn()) return;
    const held = tokensFor(id).find((t) => t.seat === s.player_to_move);
    if (!held) return;
    const button = /** @type {HTMLButtonElement} */ ($('#ai-hint'));
    button.disabled = true;
    try {
      /** @type {{ply: number, piece: string, cells: string[]}} */
      const hint = await postJson(`/api/games/${id}/hint`, { token: held.token });
      this.aiHint = hint;
      this.renderBoard();
      $('#aim-hint').textContent = `Hint: ${hint.piece} at ${hint.cells.join(',')}, shown on the board.`;
    } catch (e) {
      notify(`No hint: ${e instanceof Error ? e.message : e}`, 'error');
    } finally {
      button.disabled = false;
    }
  }

  /** Whether the game waits for an invited person to take their seat (the server refuses moves till then). */
  waitingForOpponent() {
    const s = this.state;
    return !!s && !s.over && s.seats.some((st) => st.kind === 'human' && !st.claimed);
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
    this.clocks.update(s, (seat) => this.seatLabel(seat));
    this.renderSpectators();
    this.renderGameOver();
    this.renderReplay();
    this.renderTitle();
    // The analysis is for finished games only: the server refuses it before.
    $('#analysis').hidden = !s.over;
    if (s.over) {
      if (!this.analysis.data) this.analysis.load();
      this.analysis.show(this.viewPly === null ? s.moves.length : this.viewPly);
    }
    $('#undo').hidden = !s.can_undo || this.viewPly !== null;
    $('#ai-hint').hidden = !this.hintsAllowed() || !this.myTurn() || this.viewPly !== null;
    // Spectators have nothing to place; after the game nobody has.
    $('#controls').hidden = (s.you || []).length === 0;
    $('#tray-col').hidden = s.over;
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
    for (const i of this.recentMoves()) for (const c of s.moves[i].cells || []) last.add(this.cellIndex.get(c) ?? 0);
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
      hint:
        mine && this.aiHint && this.aiHint.ply === s.ply && s.to_move !== null
          ? { cells: this.aiHint.cells.map((c) => this.cellIndex.get(c) ?? 0), colour: this.v.colours[s.to_move] }
          : this.analysisGhost(),
    });
  }

  /**
   * While replaying a finished game, the analysis's preferred move of the position shown,
   * in the colour that moved next.
   * @returns {{cells: number[], colour: string}|null}
   */
  analysisGhost() {
    const s = /** @type {GameState} */ (this.state);
    if (!s.over || this.viewPly === null) return null;
    const cells = this.analysis.bestCells(this.viewPly);
    const next = s.moves[this.viewPly];
    if (!cells || !next || next.colour === undefined) return null;
    return { cells: cells.map((c) => this.cellIndex.get(c) ?? 0), colour: this.v.colours[next.colour] };
  }

  /**
   * The colour (hex) drawn for a side: its first colour.
   * @param {number} side
   * @returns {string}
   */
  sideColourHex(side) {
    const s = /** @type {GameState} */ (this.state);
    const r = s.results.find((x) => x.side === side);
    return colourHex(r ? this.sideColours(r)[0] : this.v.colours[side]);
  }

  /**
   * The moves to mark on the board: live, every placement since this player's last own
   * one (in three- and four-colour games several colours move between two turns);
   * otherwise, or when replaying, the last placement shown.
   * @returns {number[]} indices into the moves
   */
  recentMoves() {
    const s = /** @type {GameState} */ (this.state);
    const n = this.viewPly === null ? s.moves.length : this.viewPly;
    const placed = [];
    for (let i = 0; i < n; i++) if (s.moves[i].cells) placed.push(i);
    if (placed.length === 0) return [];
    const mine = new Set(s.seats.filter((st) => (s.you || []).includes(st.seat)).flatMap((st) => st.colours));
    const hotseat = s.seats.filter((st) => (s.you || []).includes(st.seat)).length > 1;
    if (this.viewPly !== null || mine.size === 0 || hotseat) return [placed[placed.length - 1]];
    const since = [];
    for (let k = placed.length - 1; k >= 0; k--) {
      const m = s.moves[placed[k]];
      if (mine.has(this.v.colours[m.colour ?? 0])) break;
      since.unshift(placed[k]);
    }
    return since.length ? since : [placed[placed.length - 1]];
  }

  /** @param {number} seat @returns {string} */
  seatLabel(seat) {
    const s = /** @type {GameState} */ (this.state);
    const st = s.seats[seat];
    const you = (s.you || []).includes(seat);
    // A tournament's bot is shown by its entrant name.
    if (st.kind === 'ai') return st.name || `AI level ${st.level}`;
    if (you) return st.name ? `${st.name} (you)` : st.kind === 'hotseat' ? 'hot-seat (you)' : 'you';
    if (st.name) return st.claimed ? st.name : `${st.name} (invited)`;
    if (st.kind === 'human' && !st.claimed) return 'open seat';
    return `player ${seat + 1}`;
  }

  /** The tab's title: it tells a player in another tab that it is their turn. */
  renderTitle() {
    const s = this.state;
    const yours = !!s && (this.myTurn() || (s.awaiting_pie && (s.you || []).includes(s.player_to_move ?? -1)));
    document.title = `${yours ? '● Your turn — ' : ''}${this.v.name} — Blokus`;
  }

  renderStatus() {
    const s = /** @type {GameState} */ (this.state);
    const el = $('#status');
    el.className = 'status';
    if (this.viewPly !== null) {
      const m = s.moves[this.viewPly - 1];
      const what = !m
        ? 'the empty board'
        : m.pie
          ? `Player 2 chose to ${m.pie}`
          : m.timeout
            ? `${this.seatName(m.player)} ran out of time`
            : `${title(this.v.colours[m.colour ?? 0])} placed ${m.piece}`;
      el.textContent = `Replay: move ${this.viewPly} of ${s.moves.length} — ${what}. » returns to the game.`;
      el.classList.add('status-replay');
      return;
    }
    if (s.over) {
      el.textContent = `Game over — ${this.resultLine()}`;
      el.classList.add('status-over');
      return;
    }
    const p = /** @type {number} */ (s.player_to_move);
    const mine = (s.you || []).includes(p);
    if (s.awaiting_pie) {
      el.textContent = mine ? 'Pie rule: choose your colour below' : `Pie rule: ${this.seatLabel(p)} chooses a colour`;
      if (mine) el.classList.add('status-you');
      return;
    }
    if (this.waitingForOpponent()) {
      el.textContent =
        (s.you || []).length > 0
          ? 'Waiting for the opponent to join — share this link'
          : 'Waiting for an invited player to take their seat';
      el.classList.add('status-wait');
      return;
    }
    const colour = this.v.colours[/** @type {number} */ (s.to_move)];
    const chip = h('span', { class: 'chip', style: `background:${colourHex(colour)}` });
    const who = this.seatLabel(p);
    let text;
    if (this.myTurn()) {
      const opening = this.v.pie && s.ply < 2;
      text = opening
        ? `Your opening: place one ${title(colour)} piece. You place one piece of each colour, then your opponent picks which colour to play (pie rule), so make them equally good.`
        : `Your turn: ${title(colour)}${this.picker.piece === null ? ' — pick a piece' : ''}`;
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

  /** "Blue wins", "Blue wins on time" or "draw between Blue and Red". */
  resultLine() {
    const s = /** @type {GameState} */ (this.state);
    const winners = s.results.filter((r) => r.place === 1).map((r) => sideTitle(r.name));
    // With two players a time out ends the game: it is then the last event.
    const onTime = this.v.players === 2 && !!s.moves[s.moves.length - 1]?.timeout;
    return winners.length > 1 ? `draw between ${winners.join(' and ')}` : `${winners[0]} wins${onTime ? ' on time' : ''}`;
  }

  /**
   * A seat by its colours ("Blue + Red"), for notices.
   * @param {number} seat
   */
  seatName(seat) {
    const st = this.state?.seats[seat];
    return st && st.colours.length ? st.colours.map(title).join(' + ') : `Player ${seat + 1}`;
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
    const swap = h('button', { type: 'button' }, [`Swap: I play ${title(b)}, my opponent ${title(a)}`]);
    keep.addEventListener('click', () => this.sock.send({ type: 'pie', choice: 'keep' }));
    swap.addEventListener('click', () => this.sock.send({ type: 'pie', choice: 'swap' }));
    el.replaceChildren(
      h('p', {}, [
        `The opening is placed: one ${title(a)} and one ${title(b)} piece, both by your opponent. `,
        `Now you choose which colour you play (the pie rule: one player cuts, the other chooses, so the opener has every reason to make it fair). ${title(a)} moves next.`,
      ]),
      h('div', { class: 'row wrap' }, [keep, swap]),
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
          'aria-label': `${title(colour)} ${p.name}, ${p.size} cells${left > 1 ? `, ${left} left` : ''}${active && !legalPieces.has(i) ? ', no legal place' : ''}`,
          'aria-pressed': String(this.picker.piece === i && active),
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
    const recent = new Set(this.viewPly === null ? this.recentMoves() : []);
    const items = s.moves.map((m, i) => {
      const cls = [this.viewPly !== null && i === this.viewPly - 1 ? 'current' : '', recent.has(i) ? 'recent' : ''].join(' ').trim();
      const li = h('li', { class: cls });
      if (m.pie) li.append(`Player 2 chooses: ${m.pie}`);
      else if (m.timeout) li.append(`${this.seatName(m.player)} ran out of time`);
      else {
        const colour = this.v.colours[m.colour ?? 0];
        li.append(
          h('span', { class: 'chip', style: `background:${colourHex(colour)}` }),
          h('b', {}, [m.piece || '']),
          ' ',
          h('span', { class: 'cells' }, [(m.cells || []).join(',')]),
        );
        const review = this.analysis.review(i);
        if (review && review.class) {
          li.classList.add(`an-${review.class}`);
          li.append(
            h('span', { class: 'an-mark', title: `${review.class}: ${review.before.toFixed(2)} → ${review.after.toFixed(2)}` }, [
              ` ${CLASS_MARK[review.class]}`,
            ]),
          );
        }
        if (m.passes && m.passes.length) {
          li.append(h('div', { class: 'muted pass' }, [`${m.passes.map((c) => title(this.v.colours[c])).join(', ')} passed`]));
        }
      }
      li.addEventListener('click', () => this.viewAt(i + 1));
      return li;
    });
    ol.replaceChildren(...items);
    // The list follows the position shown.
    if (this.viewPly === null) ol.scrollTop = ol.scrollHeight;
    else if (this.viewPly > 0) items[this.viewPly - 1].scrollIntoView({ block: 'nearest' });
    else ol.scrollTop = 0;
  }

  /**
   * One score per side: the number that decides the game under the variant's rule. While
   * replaying, the position shown: pieces placed and cells left, counted from its moves.
   */
  renderScores() {
    const s = /** @type {GameState} */ (this.state);
    const replay = this.viewPly !== null;
    $('#scores-title').textContent = replay ? `Position at move ${this.viewPly}` : 'Score';
    const label = title(scoreUnit(this.v));
    const perColour = this.countsAt(replay ? /** @type {number} */ (this.viewPly) : s.moves.length);
    const rows = s.results.map((r) => {
      const colours = this.sideColours(r);
      const idx = colours.map((c) => this.v.colours.indexOf(c));
      const pieces = idx.reduce((n, c) => n + perColour[c].pieces, 0);
      const left = idx.reduce((n, c) => n + perColour[c].left, 0);
      const who = this.sideNames(r);
      return h('tr', { class: s.over && r.place === 1 ? 'winner' : '' }, [
        h('td', {}, [
          ...colours.map((c) => h('span', { class: 'chip', style: `background:${colourHex(c)}` })),
          sideTitle(r.name),
          ...(who ? [h('span', { class: 'muted side-player' }, [` ${who}`])] : []),
        ]),
        h('td', {}, [String(pieces)]),
        h('td', { class: 'pts' }, [replay ? String(left) : String(r.score)]),
      ]);
    });
    const table = h('table', { class: 'scores' }, [
      h('thead', {}, [h('tr', {}, ['Side', 'Placed', replay ? 'Cells left' : label].map((t) => h('th', {}, [t])))]),
      h('tbody', {}, rows),
    ]);
    $('#scores').replaceChildren(table, h('p', { class: 'muted small-text' }, [scoringRule(this.v)]));
  }

  /**
   * The display names of the players of a side ('' when none chose one).
   * @param {import('./api.js').SideResult} r
   * @returns {string}
   */
  sideNames(r) {
    const s = /** @type {GameState} */ (this.state);
    const colours = this.sideColours(r);
    return s.seats
      .filter((st) => st.name && st.colours.length > 0 && st.colours.every((c) => colours.includes(c)))
      .map((st) => st.name)
      .join(' & ');
  }

  /**
   * The colours of a side: named in its result, or (Polyomino: "player 1") its seat's.
   * @param {import('./api.js').SideResult} r
   * @returns {string[]}
   */
  sideColours(r) {
    const named = r.name.split('+');
    if (named.every((c) => this.v.colours.includes(c))) return named;
    return (/** @type {GameState} */ (this.state)).seats[r.side]?.colours || [];
  }

  /**
   * Pieces placed and cells left per colour after the first `n` events (counting only).
   * @param {number} n
   * @returns {Array<{pieces: number, left: number}>}
   */
  countsAt(n) {
    const s = /** @type {GameState} */ (this.state);
    const total = this.v.pieces.reduce((t, p) => t + p.size * p.count, 0);
    const out = this.v.colours.map(() => ({ pieces: 0, left: total }));
    for (const m of s.moves.slice(0, n)) {
      if (!m.cells || m.colour === undefined) continue;
      out[m.colour].pieces++;
      out[m.colour].left -= m.cells.length;
    }
    // One shared set (Hexa): every colour draws from the same pieces.
    if (this.v.shared_pool) {
      const left = total - out.reduce((t, c) => t + (total - c.left), 0);
      for (const c of out) c.left = left;
    }
    return out;
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
        h('span', { class: `muted${st.name ? ' player-name' : ''}` }, [this.seatLabel(st.seat)]),
      ]);
      if (st.kind === 'human' && !st.claimed && !st.reserved && mine.length === 0) {
        const b = h('button', { type: 'button', class: 'primary small' }, ['Take this seat']);
        b.addEventListener('click', () => this.claim(st.seat));
        row.append(b);
      }
      return row;
    });
    $('#seats').replaceChildren(...rows);
    const open = s.seats.some((st) => st.kind === 'human' && !st.claimed);
    $('#name-input').setAttribute('aria-label', mine.length ? 'your name, shown to the other players' : 'your name in the spectators\' chat');
    // At a tournament table a player's name is the one they registered with; logged
    // in, one's name is the account's user name.
    $('#name-form').hidden = (!!s.tournament && mine.length > 0) || Boolean(this.accountName);
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

  /** How many watch without a seat. */
  renderSpectators() {
    renderSpectators(this.state?.spectators || 0);
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

  /** The end screen: places and scores, the final board above, the record, what next. */
  renderGameOver() {
    const s = /** @type {GameState} */ (this.state);
    const el = $('#gameover');
    el.hidden = !s.over;
    if (!s.over) return;
    const ordered = [...s.results].sort((a, b) => a.place - b.place);
    const label = scoreUnit(this.v);
    const replay = h('button', { type: 'button' }, ['Replay from the start']);
    replay.addEventListener('click', () => this.viewAt(0));
    const { offer, button: rematch, watch } = rematchControls(s, this.sock, (seat) => this.seatLabel(seat), '/game/');
    // A tournament table has no rematch: the event pairs the next round.
    if (s.tournament) rematch.hidden = true;
    el.replaceChildren(
      h('h2', {}, [`Game over — ${this.resultLine()}`]),
      ...offer,
      h(
        'ul',
        { class: 'final' },
        // Equal scores share a place, so the places are written out, not counted.
        ordered.map((r) =>
          h('li', { class: r.place === 1 ? 'winner' : '' }, [
            h('span', { class: 'place' }, [`${r.place}.`]),
            ...this.sideColours(r).map((c) => h('span', { class: 'chip', style: `background:${colourHex(c)}` })),
            `${sideTitle(r.name)}: ${r.score} ${label}${r.place === 1 ? ' ★' : ''}`,
          ]),
        ),
      ),
      h('p', { class: 'muted small-text' }, [scoringRule(this.v)]),
      h('div', { class: 'row wrap' }, [
        h('a', { class: 'button', href: `/api/games/${id}/record.blksgf`, download: '' }, ['⬇ Download the record']),
        replay,
        rematch,
        ...watch,
        h('a', { class: 'button', href: `/?variant=${encodeURIComponent(this.v.id)}` }, ['New game']),
      ]),
    );
  }

  renderReplay() {
    renderReplay(this.viewPly, /** @type {GameState} */ (this.state).moves.length);
  }
}

async function main() {
  try {
    /** @type {GameState} */
    const s = await getJson(`/api/games/${id}`);
    // Blokus 3D games have their own page.
    if (/** @type {{family?: string}} */ (s).family === 'cube') {
      location.replace(`/cube/${id}`);
      return;
    }
    /** @type {VariantDetail} */
    const v = await getJson(`/api/variants/${s.variant}`);
    document.title = `${v.name} — Blokus`;
    const me = await account();
    const page = new GamePage(v, me ? me.name : '');
    page.state = s;
    page.render();
    window.blokusGame = {
      state: () => page.state,
      myTurn: () => page.myTurn(),
      sending: () => page.sending,
      legalCount: () => page.legal.size,
      findAim: (prefer) => page.picker.findAim({ prefer }),
      orientation: () => page.picker.orient.t,
      aim: () => page.picker.aim,
      sounds: () => soundsPlayed(),
    };
  } catch (e) {
    $('#status').textContent = `Cannot open this game: ${/** @type {Error} */ (e).message}`;
  }
}

main();
