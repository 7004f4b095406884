// WebSockets that come back: LiveSocket reconnects with exponential back-off (and
// jitter); GameSocket adds the game protocol's ordering rules from docs/realtime.md:
// changes in version order (`v`) and events in ply order, without gaps; a frame at or
// below the version held is old news (dropped), and on a gap or a reconnect it sends
// {"type": "sync", "after": lastPly, "v": v}, dropping live frames until the answer
// fills in.

import { wsUrl } from "./api.js";

const FINAL_CLOSE = new Set([4401, 4404]); // bad credentials, no such game: don't retry

export class LiveSocket {
  constructor(path, { onMessage, onStatus, onOpen } = {}) {
    this.path = path;
    this.onMessage = onMessage || (() => {});
    this.onStatus = onStatus || (() => {});
    this.onOpen = onOpen || (() => {});
    this.attempt = 0;
    this.closed = false;
    this.online = null;
    this.queue = [];
    this.connect();
  }

  connect() {
    if (this.closed) return;
    const ws = new WebSocket(wsUrl(this.path));
    this.ws = ws;
    ws.onopen = () => {
      this.attempt = 0;
      this.setOnline(true);
      this.onOpen();
    };
    ws.onmessage = (msg) => {
      let frame;
      try { frame = JSON.parse(msg.data); } catch { return; }
      if (frame.type === "ping") { this.send({ type: "pong" }); return; }
      this.onMessage(frame);
    };
    ws.onclose = (evt) => {
      if (this.ws !== ws) return;
      this.setOnline(false);
      if (this.closed || FINAL_CLOSE.has(evt.code)) return;
      const delay = Math.min(10000, 500 * 2 ** this.attempt) * (0.75 + Math.random() / 2);
      this.attempt += 1;
      this.timer = setTimeout(() => this.connect(), delay);
    };
  }

  setOnline(online) {
    if (online === this.online) return;
    this.online = online;
    this.onStatus(online);
  }

  send(frame) {
    if (this.ws && this.ws.readyState === WebSocket.OPEN) {
      this.ws.send(JSON.stringify(frame));
      return true;
    }
    return false;
  }

  // For tests and for pages that go away: drop the connection and reconnect (or not).
  drop() { if (this.ws) this.ws.close(); }
  close() { this.closed = true; clearTimeout(this.timer); if (this.ws) this.ws.close(); }
}

export class GameSocket {
  // handlers: hello(you, game), events(newEvents, game), ack(frame), error(frame),
  // presence(p), away(frame), change(frame), status(online); for chat: chat(message),
  // chatHistory(messages), chatDeleted(id), and chatAfter() -> the last chat id held
  // (then every sync asks for the chat missed too, and a reconnect syncs).
  // `v`: the version of the game the page holds, with every event up to its ply (the
  // game's `v`; 0 if unknown: then only plies order the frames).
  constructor(gameId, lastPly, handlers, v = 0) {
    this.lastPly = lastPly;
    this.v = v;
    this.h = handlers;
    this.syncing = false;
    this.hellos = 0;
    this.live = new LiveSocket(`/ws/games/${gameId}/`, {
      onMessage: (f) => this.receive(f),
      onStatus: (online) => { if (!online) this.syncing = false; this.h.status?.(online); },
    });
  }

  // The answer brings every event after `lastPly` and the game with its `v`; saying the
  // version held lets the server answer at once when the game is still there.
  sync() {
    if (this.syncing) return;
    const frame = { type: "sync", after: this.lastPly };
    if (this.v) frame.v = this.v;
    if (this.h.chatAfter) frame.chat_after = this.h.chatAfter();
    this.syncing = this.live.send(frame);
  }

  send(frame) { return this.live.send(frame); }

  // A frame of a change more than one version ahead: one in between never came.
  gap(f) { return Boolean(this.v) && typeof f.v === "number" && f.v > this.v + 1; }

  receive(f) {
    switch (f.type) {
      case "hello":
        this.hellos += 1;
        this.h.hello?.(f.you, f.game);
        // Events missed (the game moved on since the page was read, or while away): the
        // version follows once the sync answer brought them. After a reconnect, also
        // sync when only chat may have been missed (hello brings the last 50 messages;
        // the sync answer, everything after the last one held).
        if (f.game.ply > this.lastPly) this.sync();
        else {
          if (typeof f.v === "number") this.v = f.v;
          if (this.hellos > 1 && this.h.chatAfter) this.sync();
        }
        break;
      case "event":
        // The `event` frames of one change share its `v` (a move and the passes it
        // forced): within it, plies say what is new.
        if (f.v < this.v || f.event.ply <= this.lastPly) return; // old news
        if (this.syncing || this.gap(f) || f.event.ply !== this.lastPly + 1) { this.sync(); return; }
        if (typeof f.v === "number") this.v = f.v;
        this.lastPly = f.event.ply;
        this.h.events?.([f.event], f.game);
        break;
      case "events": {
        this.syncing = false;
        if (f.v < this.v) return; // older than the game held
        const fresh = [];
        for (const e of f.events) {
          if (e.ply === this.lastPly + 1) { fresh.push(e); this.lastPly = e.ply; }
        }
        if (f.v === this.v && !fresh.length) return; // the game held: nothing new
        if (typeof f.v === "number") this.v = f.v;
        this.h.events?.(fresh, f.game);
        break;
      }
      case "ack": this.h.ack?.(f); break;
      case "error": this.h.error?.(f); break;
      case "presence": this.h.presence?.(f.presence); break;
      case "away": this.h.away?.(f); break;
      case "game":
        if (f.v <= this.v) return; // old news
        if (this.gap(f)) { this.sync(); return; } // the answer brings this game, or a newer one
        if (typeof f.v === "number") this.v = f.v;
        this.h.change?.(f);
        break;
      case "chat": this.h.chat?.(f.message); break;
      case "chat_history": this.h.chatHistory?.(f.messages); break;
      case "chat_deleted": this.h.chatDeleted?.(f.id); break;
      default: break;
    }
  }
}
