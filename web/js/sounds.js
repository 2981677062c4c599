// @ts-check
/**
 * Short sounds made with WebAudio (no files to download): a click for a placed piece and
 * a two-note chime when it becomes your turn. A mute switch, remembered on this device.
 * @module
 */

const KEY = 'blokus.muted';

/** @type {AudioContext|null} */
let ctx = null;
/** Sounds played so far (what the page's test hook reports). */
let played = 0;

/** Whether sounds are muted on this device. */
export function muted() {
  try {
    return localStorage.getItem(KEY) === '1';
  } catch {
    return false;
  }
}

/** @param {boolean} on */
function setMuted(on) {
  try {
    localStorage.setItem(KEY, on ? '1' : '0');
  } catch {
    /* private mode: the switch still works for this page */
  }
}

/** How many sounds were played (muted ones are not). */
export function soundsPlayed() {
  return played;
}

/**
 * Plays tones one after another.
 * @param {Array<[number, number]>} notes [frequency in Hz, duration in s]
 * @param {number} volume
 */
function tones(notes, volume) {
  if (muted()) return;
  played++;
  try {
    ctx = ctx || new AudioContext();
    // Browsers start audio suspended until the page has had a user gesture.
    if (ctx.state === 'suspended') ctx.resume().catch(() => undefined);
    let t = ctx.currentTime;
    for (const [freq, dur] of notes) {
      const osc = ctx.createOscillator();
      const gain = ctx.createGain();
      osc.type = 'triangle';
      osc.frequency.value = freq;
      gain.gain.setValueAtTime(volume, t);
      gain.gain.exponentialRampToValueAtTime(0.001, t + dur);
      osc.connect(gain).connect(ctx.destination);
      osc.start(t);
      osc.stop(t + dur);
      t += dur * 0.8;
    }
  } catch {
    /* no audio device: silence */
  }
}

/** A piece was placed. */
export function moveSound() {
  tones([[220, 0.07]], 0.25);
}

/** It became this player's turn. */
export function turnSound() {
  tones([[660, 0.12], [880, 0.18]], 0.15);
}

/**
 * Wires the mute button: its label and pressed state follow the setting.
 * @param {HTMLElement} button
 */
export function bindMute(button) {
  const show = () => {
    const m = muted();
    button.textContent = m ? '♪ off' : '♪ on';
    button.setAttribute('aria-pressed', String(m));
    button.title = m ? 'Sounds off (click to turn on)' : 'Sounds on (click to mute)';
  };
  button.addEventListener('click', () => {
    setMuted(!muted());
    show();
  });
  show();
}
