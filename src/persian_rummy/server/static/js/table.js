// The table page: who this page is (a seat with its token, or a spectator), the connection, and
// what is drawn and offered after each message. What may be played comes from `legal` alone.

import { SEAT_LETTERS, TEAMS, short, shortList } from "./cards.js";
import { callMoves, cardPlays, discardMove, drawMove, layoffMoves, meldMove, passMove, playableCards, playWords, takeMoves } from "./moves.js";
import { TableConnection } from "./protocol.js";
import {
  cardNode, el, heading, legendNode, meldsNode, otherHand, pileNode, resultsNode, seatName, stockNode, status, taken, teamTotals,
} from "./render.js";

const LOG_LENGTH = 60;

const page = {
  tableId: decodeURIComponent(location.pathname.split("/").filter(Boolean).pop() ?? ""),
  token: null,
  seat: null,
  table: null,
  view: null,
  legal: [],
  clock: null,
  clockOffset: 0,
  selected: [],
  // The play chosen from the list of plays, among those that lay the selected cards (wild jokers, A7).
  chosen: null,
  log: [],
  freshSeats: new Set(),
  freshCards: new Set(),
  connection: null,
  notice: null,
  error: null,
  over: null,
  gone: false,
  playsOpen: true,
};

const storageKey = () => `persian-rummy:${page.tableId}`;

function hashValue(name) {
  const params = new URLSearchParams(location.hash.slice(1));
  return params.get(name);
}

// -- who this page is --------------------------------------------------------------------------------------

async function claim(invite, name) {
  const response = await fetch(`/api/tables/${encodeURIComponent(page.tableId)}/claim`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ invite, name }),
  });
  const body = await response.json().catch(() => ({}));
  if (!response.ok) {
    throw new Error(body.error?.message ?? `the seat could not be claimed (${response.status})`);
  }
  return body.token;
}

function keepToken(token) {
  page.token = token;
  localStorage.setItem(storageKey(), token);
  history.replaceState(null, "", `${location.pathname}#token=${encodeURIComponent(token)}`);
}

function askName(invite) {
  const main = document.getElementById("table");
  const problem = el("p", { class: "error", role: "alert" });
  const input = el("input", { id: "claim-name", name: "name", autocomplete: "nickname", maxlength: "40", required: true });
  const form = el(
    "form",
    { class: "claim", id: "claim-form" },
    el("h2", { text: "You are invited to this table" }),
    el("label", { for: "claim-name", text: "Your name" }),
    input,
    el("button", { type: "submit", text: "Take the seat" }),
    problem,
  );
  form.addEventListener("submit", async (submit) => {
    submit.preventDefault();
    try {
      keepToken(await claim(invite, input.value.trim() || "Player"));
      start();
    } catch (failure) {
      problem.textContent = failure.message;
    }
  });
  main.replaceChildren(form);
  input.focus();
}

function boot() {
  const invite = hashValue("invite");
  const token = hashValue("token");
  if (invite) {
    askName(invite);
    return;
  }
  if (token) {
    keepToken(token);
  } else {
    page.token = localStorage.getItem(storageKey());
  }
  start();
}

function start() {
  page.connection = new TableConnection(page.tableId, page.token, {
    welcome: onWelcome,
    event: onEvent,
    error: onError,
    presence: onPresence,
    replaced: onReplaced,
    gameOver: onGameOver,
    status: onStatus,
  });
  page.connection.open();
  setInterval(tick, 250);
}

// -- messages ----------------------------------------------------------------------------------------------

function keepClock(clock) {
  page.clock = clock ?? null;
  // The deadline is the server's: count down by the server's clock, whatever the browser's says.
  page.skew = clock && typeof clock.now === "number" ? Date.now() - clock.now : 0;
}

function onWelcome(message) {
  page.table = message.table;
  page.seat = message.seat;
  if (message.view) {
    page.view = message.view;
    page.log.push({ seq: message.seq, words: `You joined after move ${message.seq}`, seat: null, mine: false });
  }
  page.legal = message.legal ?? [];
  keepClock(message.clock);
  page.notice = null;
  draw();
}

function newCards(before, after) {
  if (!before) {
    return new Set();
  }
  const seen = new Set([...before.discard_pile, ...before.melds.flatMap((meld) => [...meld.laid_down, ...meld.layoffs.flat()])]);
  const now = [...after.discard_pile, ...after.melds.flatMap((meld) => [...meld.laid_down, ...meld.layoffs.flat()])];
  return new Set(now.filter((card) => !seen.has(card)));
}

function logWords(message) {
  const event = message.event;
  if (!event.action && event.dealer !== null && event.dealer !== undefined) {
    const upcard = event.upcard ? `, upcard ${short(event.upcard)}` : "";
    return `${SEAT_LETTERS[event.dealer]} deals${upcard}`;
  }
  const by = message.by === "clock" ? " (clock ran out)" : "";
  if (event.action?.type === "call_rummy") {
    const card = event.cards?.length ? ` on ${shortList(event.cards)}` : "";
    return `${message.notation}: Rummy!${card}${by}`;
  }
  if (event.action?.type === "decline_call") {
    return `${message.notation}: no call${by}`;
  }
  return `${message.notation}${by}`;
}

function onEvent(message) {
  const before = page.view;
  const askedBefore = callMoves(page.legal) !== null;
  const actor = message.event.action?.seat;
  page.freshSeats = actor !== undefined && actor !== page.seat ? new Set([actor]) : new Set();
  page.freshCards = actor !== page.seat ? newCards(before, message.view) : new Set();
  page.view = message.view;
  page.legal = message.legal ?? [];
  keepClock(message.clock);
  if (page.table) {
    page.table.status = message.view.phase === "game_over" ? "over" : "playing";
  }
  page.log.push({ seq: message.seq, words: logWords(message), seat: actor ?? null, mine: actor !== undefined && actor === page.seat });
  page.log = page.log.slice(-LOG_LENGTH);
  const hand = new Set(message.view.hand ?? []);
  page.selected = page.selected.filter((card) => hand.has(card));
  if (actor === page.seat) {
    page.error = null;
  }
  // Asked whether to call: the answer "Rummy!" has the focus, so that Enter or Space gives it.
  const asked = !askedBefore && callMoves(page.legal) !== null;
  draw(asked ? { focus: "id:call-button" } : {});
}

function onError(message) {
  if (message.code === "gone") {
    page.notice = "This table has ended and left the server; its game record can still be downloaded.";
    page.gone = true;
  }
  if (message.code === "unauthorized" && page.token !== null) {
    localStorage.removeItem(storageKey());
    page.notice = "This page's seat token was refused. Open the table's address without a token to watch it.";
  }
  const rules = message.rule?.length ? ` (${message.rule.join(", ")})` : "";
  page.error = `${message.message}${rules}`;
  draw();
}

function onPresence(message) {
  for (const { seat, connected } of message.seats) {
    if (page.table?.seats?.[seat]) {
      page.table.seats[seat].connected = connected;
    }
  }
  draw();
}

function onReplaced() {
  page.notice = "This seat was opened in another window or tab, which now plays it; this page no longer follows the table.";
  page.legal = [];
  draw();
}

function onGameOver(message) {
  page.over = message;
  draw();
}

function onStatus(state) {
  const node = document.getElementById("connection");
  const words = { connecting: "connecting…", reconnecting: "reconnecting…", connected: "connected", closed: "disconnected" };
  node.textContent = words[state] ?? state;
  node.dataset.state = state;
}

// -- playing ----------------------------------------------------------------------------------------------

function play(entry) {
  page.error = null;
  page.selected = [];
  page.chosen = null;
  page.connection.act(entry.notation);
  draw();
}

function toggle(card) {
  page.chosen = null;
  page.selected = page.selected.includes(card) ? page.selected.filter((other) => other !== card) : [...page.selected, card];
  draw({ focus: `hand:${card}` });
}

function choose(cards, entry = null) {
  page.chosen = entry;
  page.selected = [...cards];
  draw({ focus: "id:actions" });
}

// -- the clock ----------------------------------------------------------------------------------------------

function secondsLeft() {
  if (!page.clock) {
    return null;
  }
  return Math.max(0, Math.ceil((page.clock.deadline - (Date.now() - (page.skew ?? 0))) / 1000));
}

function clockFor(seat) {
  if (!page.clock || page.clock.seat !== seat) {
    return "";
  }
  return `${secondsLeft()} s left`;
}

function tick() {
  if (!page.clock) {
    return;
  }
  for (const node of document.querySelectorAll(".seat-clock")) {
    node.textContent = clockFor(page.clock.seat);
  }
}

// -- drawing ----------------------------------------------------------------------------------------------

function context() {
  const selected = page.selected;
  return {
    viewer: page.seat,
    seats: page.table?.seats ?? null,
    fresh: page.freshSeats,
    freshCards: page.freshCards,
    clockFor,
    takes: takeMoves(page.legal),
    draw: drawMove(page.legal),
    layoffTargets: layoffMoves(page.legal, selected, page.chosen),
    play,
  };
}

function ownHand(view) {
  const seat = page.seat;
  const playable = playableCards(page.legal);
  const cards = (view.hand ?? []).map((card) => {
    const marks = [];
    if (view.to_act === seat && view.obligation === card) {
      marks.push("obligation");
    } else if (view.to_act === seat && view.picked.includes(card)) {
      marks.push("picked");
    }
    if (view.known[seat].includes(card)) {
      marks.push("known");
    }
    if (page.selected.includes(card)) {
      marks.push("selected");
    }
    if (playable.has(card)) {
      marks.push("playable");
    }
    return cardNode(card, { marks, pressed: page.selected.includes(card), onclick: () => toggle(card) });
  });
  const count = view.hand.length === 1 ? "1 card" : `${view.hand.length} cards`;
  const classes = ["own-hand", "hand-row", view.to_act === seat ? "to-act" : ""].join(" ");
  return el(
    "section",
    { class: classes, id: "hand", "data-seat": seat, "aria-label": `Your hand: ${count}` },
    el(
      "div",
      { class: "seat-label" },
      el("span", { class: `seat-name team${seat & 1}`, text: seatName(seat, seat, page.table?.seats) }),
      el("span", { class: "seat-notes", text: [TEAMS[seat & 1], seat === view.dealer && view.deal ? "dealer" : ""].filter(Boolean).join(", ") }),
      page.clock?.seat === seat ? el("span", { class: "seat-clock", role: "timer", text: clockFor(seat) }) : null,
    ),
    el("div", { class: "cards hand-cards" }, cards),
    el("span", { class: "count", text: count }),
  );
}

function actionBar() {
  const legal = page.legal;
  const meld = meldMove(legal, page.selected, page.chosen);
  const discard = discardMove(legal, page.selected);
  const pass = passMove(legal);
  const button = (id, words, entry, hint) =>
    el("button", { type: "button", id, disabled: !entry, title: hint, onclick: entry ? () => play(entry) : null, text: words });
  const picked = page.selected.length ? `Selected: ${shortList(page.selected)}` : "Select cards in your hand";
  return el(
    "div",
    { class: "action-bar", id: "actions", tabindex: "-1" },
    el("span", { class: "selection", "aria-live": "polite", text: picked }),
    button("meld-button", meld?.action.stand_ins ? `Meld ${playWords(meld.action)}` : "Meld", meld, "Lay the selected cards down as a new meld"),
    button("discard-button", "Discard", discard, "Discard the selected card; this ends the turn"),
    button("pass-button", "Pass", pass, "Pass (the stock is empty, R21)"),
    el("button", { type: "button", id: "clear-button", disabled: page.selected.length === 0, onclick: () => choose([]), text: "Clear" }),
  );
}

// The two answers when this seat is asked whether to call "Rummy!" on a discard (A24): what `legal` offers.
function callBar(moves) {
  const view = page.view;
  const top = view.discard_pile[view.discard_pile.length - 1];
  const whose = view.discarder === null || view.discarder === undefined ? "the discard" : `${SEAT_LETTERS[view.discarder]}'s ${short(top)}`;
  const button = (id, words, entry, hint) =>
    el("button", { type: "button", id, class: id, disabled: !entry, title: hint, onclick: entry ? () => play(entry) : null, "data-notation": entry?.notation ?? null, text: words });
  return el(
    "div",
    { class: "action-bar call-bar", id: "actions", tabindex: "-1", role: "group", "aria-label": `Call Rummy! on ${whose}?` },
    el("span", { class: "selection call-question", id: "call-question", text: `Call Rummy! on ${whose}? Calling takes the card to lay it off now.` }),
    button("call-button", "Rummy!", moves.call, `Call Rummy!: take ${whose} and lay it off`),
    button("decline-button", "No call", moves.decline, "Let the discard lie"),
  );
}

function playsList() {
  const plays = cardPlays(page.legal);
  if (plays.length === 0) {
    return null;
  }
  const melds = page.view.melds;
  const items = plays.map(({ entry, cards }) => {
    const action = entry.action;
    const shown = action.stand_ins ? playWords(action) : shortList(cards);
    const words = action.type === "lay_down"
      ? `Meld ${shown}`
      : `Lay off ${shown} on meld ${action.meld + 1} (${shortList(melds[action.meld].laid_down)})`;
    return el("li", {}, el("button", { type: "button", class: "play-choice", "data-notation": entry.notation, onclick: () => choose(cards, entry), text: words }));
  });
  return el(
    "details",
    { class: "plays", id: "plays", open: page.playsOpen, ontoggle: (toggled) => { page.playsOpen = toggled.target.open; } },
    el("summary", { text: `Possible melds and lay-offs (${plays.length})` }),
    el("p", { class: "muted", text: "Choosing one selects its cards; then press Meld, or the meld to lay off onto." }),
    el("ul", {}, items),
  );
}

function logNode() {
  const items = page.log.map((entry) =>
    el("li", { class: entry.mine ? "mine" : entry.seat === null ? "dealer" : `team${entry.seat & 1}`, "data-seq": entry.seq, text: entry.words }),
  );
  return el("ol", { id: "log-list", "aria-live": "polite" }, items.reverse());
}

function banners(view) {
  const parts = [];
  if (page.notice) {
    parts.push(el("p", { class: "notice", id: "notice", role: "status", text: page.notice }));
  }
  if (page.error) {
    parts.push(el("p", { class: "error", id: "error", role: "alert", text: page.error }));
  }
  const obligation = view ? taken(view, page.seat, page.table?.seats) : "";
  if (obligation) {
    parts.push(el("p", { class: "obligation-line", id: "obligation", text: obligation }));
  }
  if (page.table?.seeded) {
    parts.push(el("p", { class: "seeded", id: "seeded", role: "note", text: "Seeded table: its creator chose the seed of the deals, and whoever knows it knows every hand." }));
  }
  if (page.gone && !page.over) {
    const record = `/api/tables/${encodeURIComponent(page.tableId)}/record`;
    parts.push(el("p", { class: "game-over", id: "gone" }, el("a", { href: record, download: `${page.tableId}.json`, text: "Download the game record" })));
  }
  if (page.over || view?.phase === "game_over") {
    const [a, b] = view ? teamTotals(view.results) : page.over.points;
    const record = `/api/tables/${encodeURIComponent(page.tableId)}/record`;
    const ended = { aborted: "The table's creator ended the game. ", expired: "The table was left too long and ended. " }[page.over?.ended] ?? "";
    parts.push(
      el(
        "p",
        { class: "game-over", id: "game-over", role: "status" },
        `${ended}${ended ? "Score" : "Final score"}: ${TEAMS[0]} ${a}, ${TEAMS[1]} ${b}. `,
        el("a", { href: record, download: `${page.tableId}.json`, text: "Download the game record" }),
      ),
    );
  }
  return parts;
}

// How the deals are drawn: from the server's secret, whose hash the table shows from the start and
// which it reveals at the end, or from a seed its creator chose, which everyone is told.
function dealsLine() {
  const table = page.table;
  if (!table) {
    return null;
  }
  if (table.seeded) {
    return null; // said at the top of the page (banners)
  }
  const key = page.over?.key ?? table.key;
  const words = key
    ? `The deals were drawn from the key ${key}, whose SHA-256 is the commitment ${table.commitment} shown from the start.`
    : `The deals are drawn from a secret key of the server's; its SHA-256 is ${table.commitment}, and the key is shown when the game ends.`;
  return el("details", { class: "deals", id: "deals" }, el("summary", { text: "Fair deals" }), el("p", { text: words }));
}

function waiting() {
  const seats = page.table?.seats ?? [];
  const items = seats.map((seat) =>
    el("li", { text: `${SEAT_LETTERS[seat.seat]}: ${seat.kind === "bot" ? `bot (${seat.bot})` : seat.claimed ? seat.name ?? "taken" : "waiting for a person"}` }),
  );
  return el("section", { class: "waiting", id: "waiting" }, el("h2", { text: "Waiting for every seat to be taken" }), el("ul", {}, items));
}

function header(view) {
  const [a, b] = view ? teamTotals(view.results) : [0, 0];
  const who = page.seat === null ? " · as a spectator sees it" : "";
  document.title = `${page.table?.name ?? "Table"} · Persian Rummy`;
  return el(
    "div",
    { class: "heading" },
    el("h1", { id: "deal-heading", text: view ? `${heading(view, page.seat, page.table?.seats)}${who}` : page.table?.name ?? "Table" }),
    el("p", { class: "scores", id: "scores" }, el("span", { class: "team0", text: `${TEAMS[0]} ${a}` }), " ", el("span", { class: "team1", text: `${TEAMS[1]} ${b}` })),
    el("p", { class: "status", id: "status", text: view ? status(view, page.seat, page.table?.seats) : "" }),
  );
}

function tableBody(view, ctx) {
  const others = page.seat === null ? [0, 1, 2, 3] : [1, 2, 3].map((step) => (page.seat + step) % 4);
  const parts = [
    el("div", { class: "hands" }, others.map((seat) => otherHand(view, seat, ctx))),
    meldsNode(view, ctx),
    el("div", { class: "piles" }, pileNode(view, ctx), stockNode(view, ctx)),
    legendNode(view),
  ];
  if (page.seat !== null && view.hand) {
    parts.push(ownHand(view));
    if (view.phase !== "game_over" && !page.notice) {
      const calls = callMoves(page.legal);
      parts.push(calls ? callBar(calls) : actionBar(), playsList());
    }
  }
  parts.push(resultsNode(view));
  return parts;
}

function focusKey() {
  const active = document.activeElement;
  if (!active || active === document.body) {
    return null;
  }
  if (active.closest("#hand") && active.dataset.card) {
    return `hand:${active.dataset.card}`;
  }
  return active.id ? `id:${active.id}` : null;
}

function restoreFocus(key) {
  if (!key) {
    return;
  }
  const split = key.indexOf(":");
  const [kind, value] = [key.slice(0, split), key.slice(split + 1)];
  const node = kind === "hand" ? document.querySelector(`#hand [data-card="${value}"]`) : document.getElementById(value);
  node?.focus({ preventScroll: true });
}

function draw({ focus = null } = {}) {
  const keep = focus ?? focusKey();
  const view = page.view;
  const ctx = context();
  document.getElementById("top").replaceChildren(header(view), ...banners(view));
  const main = document.getElementById("table");
  main.replaceChildren(...(view ? tableBody(view, ctx) : [waiting()]).filter(Boolean));
  document.getElementById("log").replaceChildren(el("h2", { text: "Moves" }), logNode(), ...[dealsLine()].filter(Boolean));
  const body = document.body.dataset;
  body.seq = String(page.connection?.seq ?? "");
  body.phase = view?.phase ?? "waiting";
  body.seat = page.seat === null ? "spectator" : String(page.seat);
  body.yourTurn = String(page.legal.length > 0);
  restoreFocus(keep);
}

boot();
