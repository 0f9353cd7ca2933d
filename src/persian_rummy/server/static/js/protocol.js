// The table's WebSocket, protocol version 1: hello, then welcome and events; reconnection with
// the last event number seen, with backoff; a ping now and then, so that the server does not close
// a quiet connection; the replaced connection, and one whose table is gone, left closed.

export const PROTOCOL = 1;
const BACKOFF_MS = [250, 500, 1000, 2000, 4000, 8000];
const PING_MS = 30000;
// Replaced by a newer connection; unauthorized; no such table; the table has left the server.
const FINAL_CODES = new Set([4001, 4401, 4404, 4410]);

export class TableConnection {
  // handlers: {welcome, event, error, presence, replaced, pause, gameOver, rematch, status}; each optional.
  constructor(tableId, token, handlers) {
    this.tableId = tableId;
    this.token = token;
    this.handlers = handlers;
    // From the start: the server tells the moves made before the page connected (the bots' first moves,
    // say) one by one, each with its view, or, when there are more than it replays, sends the view now.
    this.seq = 0;
    this.socket = null;
    this.attempt = 0;
    this.closed = false;
    this.nextId = 1;
    this.pinger = null;
  }

  url() {
    const scheme = location.protocol === "https:" ? "wss:" : "ws:";
    return `${scheme}//${location.host}/ws/tables/${encodeURIComponent(this.tableId)}`;
  }

  open() {
    this.emit("status", this.attempt === 0 ? "connecting" : "reconnecting");
    const socket = new WebSocket(this.url());
    this.socket = socket;
    socket.addEventListener("open", () => {
      socket.send(JSON.stringify({ type: "hello", token: this.token, since: this.seq }));
      clearInterval(this.pinger);
      this.pinger = setInterval(() => {
        if (socket.readyState === WebSocket.OPEN) {
          socket.send(JSON.stringify({ type: "ping" }));
        }
      }, PING_MS);
    });
    socket.addEventListener("message", (message) => this.receive(message.data));
    socket.addEventListener("close", (close) => this.lost(socket, close.code));
  }

  receive(data) {
    let message;
    try {
      message = JSON.parse(data);
    } catch {
      this.emit("error", { code: "bad-json", message: "the server sent a message that is not JSON", rule: [] });
      return;
    }
    this.dispatch(message);
  }

  dispatch(message) {
    switch (message.type) {
      case "welcome":
        this.attempt = 0;
        if (message.view || this.seq === null) {
          this.seq = message.seq; // a fresh start: the view is current; else the missed events follow
        }
        this.emit("status", "connected");
        this.emit("welcome", message);
        break;
      case "event":
        if (this.seq !== null && message.seq <= this.seq) {
          return; // already seen (a resume that overlaps)
        }
        this.seq = message.seq;
        this.emit("event", message);
        break;
      case "error":
        this.failed(message);
        break;
      case "replaced":
        this.closed = true;
        this.emit("replaced", message);
        break;
      case "game-over":
        this.emit("gameOver", message);
        break;
      case "pause":
        this.emit("pause", message);
        break;
      case "rematch-made":
        this.emit("rematch", message);
        break;
      case "presence":
        this.emit("presence", message);
        break;
      default:
        break; // pong, and types of later versions
    }
  }

  failed(message) {
    if (message.code === "bad-since") {
      this.seq = null; // start afresh: the next hello asks for the whole view
    }
    if (message.code === "unauthorized" || message.code === "gone" || message.code === "no-table") {
      this.closed = true;
    }
    this.emit("error", message);
  }

  lost(socket, code) {
    if (socket !== this.socket) {
      return;
    }
    clearInterval(this.pinger);
    if (FINAL_CODES.has(code) || this.closed) {
      this.closed = true;
      this.emit("status", "closed");
      return;
    }
    const delay = BACKOFF_MS[Math.min(this.attempt, BACKOFF_MS.length - 1)];
    this.attempt += 1;
    this.emit("status", "reconnecting");
    setTimeout(() => this.open(), delay);
  }

  // Sends an action, in notation; returns the id the server echoes in an error.
  act(notation) {
    const id = this.nextId++;
    if (this.socket && this.socket.readyState === WebSocket.OPEN) {
      this.socket.send(JSON.stringify({ type: "act", action: notation, id }));
      return id;
    }
    return null;
  }

  // Sends a message without an action ("next-deal", "rematch"); returns whether it went out.
  send(type) {
    if (this.socket && this.socket.readyState === WebSocket.OPEN) {
      this.socket.send(JSON.stringify({ type, id: this.nextId++ }));
      return true;
    }
    return false;
  }

  close() {
    this.closed = true;
    clearInterval(this.pinger);
    this.socket?.close(1000);
  }

  emit(name, value) {
    this.handlers[name]?.(value);
  }
}
