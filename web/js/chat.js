// @ts-check
/**
 * The chat panel of the game page: the players' chat for the seated players, the
 * spectators' chat for everybody else (docs/api.md). Lines are shown as text only (text
 * nodes, never markup), so whatever somebody types stays what it is.
 * @module
 */

import { $, h } from './api.js';

/** @typedef {import('./api.js').ChatLine} ChatLine */

const HIDDEN_KEY = 'blokus.chatHidden';
/** Lines kept on screen. */
const KEEP = 200;

export class ChatPanel {
  /**
   * @param {(text: string) => boolean} send sends a line; false when not connected
   */
  constructor(send) {
    this.send = send;
    /** @type {'players'|'spectators'|null} */
    this.channel = null;
    /** Lines received while the chat was hidden. */
    this.unread = 0;
    /** The last line sent, given back to the input if the server refuses it. */
    this.lastSent = '';
    this.log = $('#chat-log');
    this.input = /** @type {HTMLInputElement} */ ($('#chat-input'));
    this.toggle = $('#chat-hide');
    $('#chat-form').addEventListener('submit', (ev) => {
      ev.preventDefault();
      const text = this.input.value.trim();
      if (!text) return;
      if (this.send(text)) {
        this.lastSent = text;
        this.input.value = '';
      }
      else this.note('Not connected; the message was not sent.', true);
    });
    this.input.addEventListener('input', () => this.note('', false));
    this.toggle.addEventListener('click', () => this.setHidden(!this.hidden()));
    this.setHidden(localStorage.getItem(HIDDEN_KEY) === '1');
  }

  /** @returns {boolean} whether the chat is folded away */
  hidden() {
    return $('#chat-body').hidden;
  }

  /** @param {boolean} hide */
  setHidden(hide) {
    $('#chat-body').hidden = hide;
    localStorage.setItem(HIDDEN_KEY, hide ? '1' : '0');
    if (!hide) this.unread = 0;
    this.renderToggle();
  }

  renderToggle() {
    const hide = this.hidden();
    this.toggle.setAttribute('aria-expanded', String(!hide));
    this.toggle.textContent = hide ? `Show${this.unread ? ` (${this.unread} new)` : ''}` : 'Hide';
  }

  /**
   * The lines of the channel this page reads now (on connecting and after taking a seat).
   * @param {'players'|'spectators'} channel
   * @param {ChatLine[]} lines
   */
  history(channel, lines) {
    this.channel = channel;
    $('#chat-title').textContent = channel === 'players' ? "Players' chat" : "Spectators' chat";
    this.input.placeholder = channel === 'players' ? 'Say something to the other players…' : 'Say something to the other spectators…';
    $('#chat-who').textContent =
      channel === 'players' ? 'Only the players read this; spectators have their own chat.' : 'Spectators talk here; the players do not see it.';
    this.log.replaceChildren(...lines.map((l) => this.item(l)));
    this.scroll();
  }

  /** @param {ChatLine} line */
  add(line) {
    if (line.channel !== this.channel) return;
    this.lastSent = '';
    this.log.append(this.item(line));
    while (this.log.children.length > KEEP) this.log.firstElementChild?.remove();
    if (this.hidden()) {
      this.unread++;
      this.renderToggle();
    }
    this.scroll();
  }

  /**
   * One line: time, name, text, each a text node.
   * @param {ChatLine} l
   * @returns {HTMLElement}
   */
  item(l) {
    const t = new Date(l.at * 1000);
    const time = `${String(t.getHours()).padStart(2, '0')}:${String(t.getMinutes()).padStart(2, '0')}`;
    return h('li', { 'data-n': String(l.n) }, [
      h('span', { class: 'chat-time muted' }, [time]),
      ' ',
      h('b', { class: 'chat-name' }, [l.name]),
      ' ',
      h('span', { class: 'chat-text' }, [l.text]),
    ]);
  }

  scroll() {
    this.log.scrollTop = this.log.scrollHeight;
  }

  /**
   * A remark under the input (a refused message).
   * @param {string} text
   * @param {boolean} bad
   */
  note(text, bad) {
    if (bad && this.lastSent && !this.input.value) this.input.value = this.lastSent;
    const el = $('#chat-note');
    el.textContent = text;
    el.classList.toggle('error', bad);
  }
}
