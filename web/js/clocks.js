// @ts-check
/**
 * The clocks of a timed game. The server keeps time; this only shows what its last
 * `state` said, counting the running clock down from the moment that message arrived
 * (the next `state` corrects any drift).
 * @module
 */

import { colourHex, h, title } from './api.js';

/** @typedef {import('./api.js').GameState} GameState */
/** @typedef {import('./api.js').ClockState} ClockState */

const DAY = 86_400_000;
const HOUR = 3_600_000;

/**
 * A time for people: `1:02:03`, `4:05`, under 20 s with tenths (`9.4`); by
 * correspondence days and hours (`2d 5h`), then hours and minutes.
 * @param {number} ms
 * @returns {string}
 */
export function formatClock(ms) {
  const t = Math.max(0, ms);
  if (t >= DAY) return `${Math.floor(t / DAY)}d ${Math.floor((t % DAY) / HOUR)}h`;
  if (t >= 10 * HOUR) return `${Math.floor(t / HOUR)}h ${Math.floor((t % HOUR) / 60_000)}m`;
  if (t < 20_000) return (Math.floor(t / 100) / 10).toFixed(1);
  const s = Math.floor(t / 1000);
  const pad = (/** @type {number} */ n) => String(n).padStart(2, '0');
  const hours = Math.floor(s / 3600);
  const minutes = Math.floor((s % 3600) / 60);
  return hours > 0 ? `${hours}:${pad(minutes)}:${pad(s % 60)}` : `${minutes}:${pad(s % 60)}`;
}

/**
 * Whether a clock is low: under 20 seconds, or under a tenth of the full time when that
 * is more (long games warn earlier).
 * @param {number} ms
 * @param {ClockState} clock
 */
export function isLow(ms, clock) {
  const c = clock.control;
  const full = c.type === 'fischer' ? c.base * 1000 : c.days * DAY;
  return ms < Math.max(20_000, full / 10);
}

export class ClockBar {
  /** @param {HTMLElement} host */
  constructor(host) {
    this.host = host;
    /** @type {ClockState|null} */
    this.clock = null;
    /** When the last clock arrived (performance.now()). */
    this.at = 0;
    /** @type {Array<{el: HTMLElement, time: HTMLElement}>} */
    this.cells = [];
    /** @type {ReturnType<typeof setInterval>|null} */
    this.timer = null;
  }

  /**
   * Shows the clocks of a new state (nothing for untimed games).
   * @param {GameState} s
   * @param {(seat: number) => string} label who sits there ("you", "AI level 3", ...)
   */
  update(s, label) {
    this.clock = s.clock || null;
    this.at = performance.now();
    this.host.hidden = !this.clock;
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    if (!this.clock) return;
    this.cells = s.seats.map((st) => {
      const time = h('span', { class: 'clock-time' });
      const el = h('div', { class: 'clock', 'data-seat': String(st.seat), role: 'timer', 'aria-live': 'off' }, [
        ...st.colours.map((c) => h('span', { class: 'chip', style: `background:${colourHex(c)}` })),
        h('span', { class: 'clock-name' }, [st.colours.map(title).join(' + ') || `Seat ${st.seat + 1}`]),
        h('span', { class: 'muted clock-who' }, [label(st.seat)]),
        time,
      ]);
      return { el, time };
    });
    this.host.replaceChildren(h('span', { class: 'muted clock-label' }, [this.clock.label]), ...this.cells.map((c) => c.el));
    this.tick();
    if (this.clock.running !== null) this.timer = setInterval(() => this.tick(), 100);
  }

  /** The time left of a seat now, as far as this page knows. */
  left(/** @type {number} */ seat) {
    const c = /** @type {ClockState} */ (this.clock);
    const ms = c.remaining_ms[seat] ?? 0;
    return c.running === seat ? ms - (performance.now() - this.at) : ms;
  }

  tick() {
    const c = this.clock;
    if (!c) return;
    this.cells.forEach(({ el, time }, seat) => {
      const ms = this.left(seat);
      const running = c.running === seat;
      time.textContent = formatClock(ms);
      el.classList.toggle('running', running);
      el.classList.toggle('low', isLow(ms, c) && (running || ms <= 0));
      el.classList.toggle('flagged', ms <= 0);
      el.setAttribute('aria-label', `${el.querySelector('.clock-name')?.textContent}: ${formatClock(ms)} left${running ? ', running' : ''}`);
    });
  }
}
