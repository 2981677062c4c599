// @ts-check
/**
 * Short notices over the page ("toasts"). A notice with a key replaces the one shown
 * under the same key, so a stream of similar events (passes) is one notice, not a pile.
 * @module
 */

import { $, h } from './api.js';

/** @type {Map<string, {el: HTMLElement, timer: number}>} */
const shown = new Map();

/**
 * Shows a notice for a few seconds.
 * @param {string} text
 * @param {'info'|'error'} kind
 * @param {string} [key] notices with the same key replace each other
 */
export function notify(text, kind, key = text) {
  const old = shown.get(key);
  if (old) {
    clearTimeout(old.timer);
    old.el.remove();
  }
  const el = h('div', { class: `toast toast-${kind}`, role: kind === 'error' ? 'alert' : 'status' }, [text]);
  $('#toasts').append(el);
  const timer = window.setTimeout(
    () => {
      el.remove();
      if (shown.get(key)?.el === el) shown.delete(key);
    },
    kind === 'error' ? 6000 : 3500,
  );
  shown.set(key, { el, timer });
}

/** Removes every notice (e.g. when the game-over screen takes over). */
export function clearNotices() {
  for (const { el, timer } of shown.values()) {
    clearTimeout(timer);
    el.remove();
  }
  shown.clear();
}

/** Colours that passed within the last few seconds, gathered into one notice. */
const passes = { names: /** @type {string[]} */ ([]), since: 0 };

/**
 * Shows one notice for the passes of the last few seconds, however many there are (at the
 * end of a game colours pass one after another).
 * @param {string[]} names colours that just passed
 * @param {(names: string[]) => string} say the notice for all the colours gathered
 */
export function notePasses(names, say) {
  const now = Date.now();
  if (now - passes.since > 4000) passes.names = [];
  passes.since = now;
  for (const n of names) if (!passes.names.includes(n)) passes.names.push(n);
  notify(say(passes.names), 'info', 'pass');
}
