// @ts-check
/**
 * A WebSocket that reconnects on its own with exponential backoff.
 * @module
 */

/**
 * @typedef {Object} SocketHandlers
 * @property {(msg: import('./api.js').ServerMsg) => void} onMessage
 * @property {() => void} onOpen called after every (re)connection
 * @property {(status: 'connecting'|'open'|'waiting', retryInMs?: number) => void} onStatus
 */

export class ReconnectingSocket {
  /**
   * @param {string} url
   * @param {SocketHandlers} handlers
   */
  constructor(url, handlers) {
    this.url = url;
    this.handlers = handlers;
    /** @type {WebSocket|null} */
    this.ws = null;
    this.attempt = 0;
    this.closed = false;
    /** @type {number|undefined} */
    this.timer = undefined;
    this.connect();
  }

  connect() {
    this.handlers.onStatus('connecting');
    const ws = new WebSocket(this.url);
    this.ws = ws;
    ws.onopen = () => {
      this.attempt = 0;
      this.handlers.onStatus('open');
      this.handlers.onOpen();
    };
    ws.onmessage = (ev) => {
      try {
        this.handlers.onMessage(JSON.parse(String(ev.data)));
      } catch (e) {
        console.error('bad server message', e);
      }
    };
    ws.onclose = () => {
      if (this.ws !== ws || this.closed) return;
      this.ws = null;
      // 0.5 s, 1 s, 2 s, ... up to 15 s, with jitter so clients don't return in a herd.
      const base = Math.min(15000, 500 * 2 ** this.attempt);
      const delay = Math.round(base * (0.75 + Math.random() * 0.5));
      this.attempt += 1;
      this.handlers.onStatus('waiting', delay);
      this.timer = window.setTimeout(() => this.connect(), delay);
    };
  }

  /** Reconnects now (e.g. after the tab becomes visible again). */
  kick() {
    if (this.ws || this.closed) return;
    window.clearTimeout(this.timer);
    this.connect();
  }

  /**
   * Sends a message if connected.
   * @param {object} msg
   * @returns {boolean} whether it was sent
   */
  send(msg) {
    if (!this.ws || this.ws.readyState !== WebSocket.OPEN) return false;
    this.ws.send(JSON.stringify(msg));
    return true;
  }

  close() {
    this.closed = true;
    window.clearTimeout(this.timer);
    this.ws?.close();
  }
}
