// The table page: who this page is (a seat with its token, or a spectator), the connection, and
// what is drawn and offered after each message. What may be played comes from `legal` alone.

import { SEAT_LETTERS, TEAMS, short, shortList } from "./cards.js";
import { callMoves, cardPlays, discardMove, drawMove, layoffMoves, meldMove, passMove, playableCards, playWords, takeMoves } from "./moves.js";
import { TableConnection } from "./protocol.js";
import {
  botName, cardNode, el, heading, legendNode, meldsNode, otherHand, pileNode, resultsNode, seatName, setCardValues, stockNode, status, taken, teamTotal, teamTotals,
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
  // An action sent and not yet answered (by its event or an error): nothing more is sent meanwhile.
  sending: false,
  // The end of a deal: who the table waits for before the next deal (the server's `pause`).
  pause: null,
  pauseSkew: 0, // the browser's clock less the server's, from the pause's message
  readySent: false,
  // The table of a rematch, once one is made; whether this page asked for it.
  rematch: null,
  rematchAsked: false,
  meldCount: null,
  drawShown: null, // the turn whose piles were scrolled into sight
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

// The seat's token is kept by the browser, for this tab (sessionStorage, so two tabs can hold two seats)
// and for the next visit (localStorage), and taken out of the address: the address bar then shows the
// table's plain address, which only lets others watch, and is safe to share.
function keepToken(token, tableId = page.tableId) {
  if (tableId === page.tableId) {
    page.token = token;
  }
  sessionStorage.setItem(`persian-rummy:${tableId}`, token);
  localStorage.setItem(`persian-rummy:${tableId}`, token);
  if (tableId === page.tableId && location.hash) {
    history.replaceState(null, "", location.pathname);
  }
}

function keptToken() {
  return sessionStorage.getItem(storageKey()) ?? localStorage.getItem(storageKey());
}

// The seat's own link, to play from another device: it holds the seat, so it is only copied on request.
function seatLink() {
  return new URL(`/tables/${encodeURIComponent(page.tableId)}#token=${encodeURIComponent(page.token)}`, location.href).href;
}

// Who sits where at the table an invitation leads to: the table's name, the seat (named in the
// link, checked against the free seats), the partner and the opponents. The code alone takes the seat.
async function invitationWords() {
  let table;
  try {
    const response = await fetch(`/api/tables/${encodeURIComponent(page.tableId)}`);
    table = response.ok ? await response.json() : null;
  } catch {
    table = null;
  }
  if (!table?.seats) {
    return { title: "You are invited to this table", lines: [] };
  }
  const who = (seat) => {
    const entry = table.seats[seat];
    if (entry.kind === "bot") {
      return `${SEAT_LETTERS[seat]} · ${botName(entry.bot)}`;
    }
    return entry.claimed ? `${SEAT_LETTERS[seat]} · ${entry.name}` : `${SEAT_LETTERS[seat]} (a person still to come)`;
  };
  const free = table.seats.filter((seat) => seat.kind === "person" && !seat.claimed).map((seat) => seat.seat);
  const named = Number(hashValue("seat"));
  const seat = free.includes(named) ? named : free.length === 1 ? free[0] : null;
  if (seat === null) {
    return { title: `You are invited to ${table.name}`, lines: [`Free seats: ${free.map((each) => SEAT_LETTERS[each]).join(", ") || "none"}.`] };
  }
  const opponents = [(seat + 1) % 4, (seat + 3) % 4].sort().map(who).join(" and ");
  return {
    title: `You are invited to ${table.name}, seat ${SEAT_LETTERS[seat]}`,
    lines: [`Your partner: ${who((seat + 2) % 4)}. Against ${opponents}.`],
  };
}

async function askName(invite) {
  const main = document.getElementById("table");
  const problem = el("p", { class: "error", role: "alert" });
  const input = el("input", { id: "claim-name", name: "name", autocomplete: "nickname", maxlength: "40", required: true });
  const about = await invitationWords();
  const form = el(
    "form",
    { class: "claim", id: "claim-form" },
    el("h2", { id: "claim-title", text: about.title }),
    about.lines.map((line) => el("p", { class: "claim-about", text: line })),
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
    page.token = keptToken();
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
    pause: onPause,
    gameOver: onGameOver,
    rematch: onRematch,
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
  page.sending = false;
  if (message.view) {
    page.view = message.view;
    if (message.seq > 1) {
      page.log.push({ seq: message.seq, words: `Moves 1 to ${message.seq} were made before this page followed the table`, seat: null, mine: false });
    }
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

// The notation of a move with its cards as the page shows them: "E meld 3♣ 4♣ 5♣", "W take J♥".
export function withSymbols(notation) {
  const words = String(notation).split(" ");
  return [words[0], ...words.slice(1).map((word) =>
    word.replace(/(?:10|[2-9TJQKA])[cdhs]|X\d+/g, (card) => ` ${short(card.replace(/^10/, "T"))} `).replace(/ +/g, " ").replace(/ = /g, "=").trim(),
  )].join(" ");
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
    return `${withSymbols(message.notation)}: Rummy!${card}${by}`;
  }
  if (event.action?.type === "decline_call") {
    return `${withSymbols(message.notation)}: no call${by}`;
  }
  return `${withSymbols(message.notation)}${by}`;
}

function onEvent(message) {
  const before = page.view;
  const askedBefore = callMoves(page.legal) !== null;
  const actor = message.event.action?.seat;
  page.freshSeats = actor !== undefined && actor !== page.seat ? new Set([actor]) : new Set();
  page.freshCards = actor !== page.seat ? newCards(before, message.view) : new Set();
  page.view = message.view;
  page.legal = message.legal ?? [];
  page.sending = false;
  if (message.view.phase !== "deal_over") {
    page.pause = null;
    page.readySent = false;
  }
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
    sessionStorage.removeItem(storageKey());
    page.notice = "The seat this browser kept for this table was refused. Reload the page to watch the table.";
  }
  page.sending = false;
  if (message.code === "rate-limit") {
    page.readySent = false; // a Next deal dropped: the button comes back
  }
  if (!page.rematch) {
    page.rematchAsked = false; // a rematch refused (the server full, or too many tables made): it may be asked again
  }
  page.error = readable(message);
  draw();
}

// A server's error as the page shows it: its words once, with the rules it names once, and never
// an action as the library writes it for programmers ("illegal action DrawStock(seat=0): ...").
export function readable(message) {
  let words = String(message.message ?? "");
  const prefix = /^illegal action [A-Za-z]+\(.*?\)(?=: )/.exec(words);
  if (prefix) {
    words = words.slice(prefix[0].length + 2);
  } else if (words.startsWith("illegal action ")) {
    words = words.slice("illegal action ".length);
  }
  const rules = Array.isArray(message.rule) ? message.rule.filter((rule) => typeof rule === "string") : [];
  if (rules.length) {
    let before;
    do {
      before = words;
      words = words.replace(/\s*\((?:[RA]\d+(?:, )?)+\)\s*$/, "");
    } while (words !== before);
  }
  words = words.trim();
  const text = words ? words[0].toUpperCase() + words.slice(1) : "The server refused this";
  // The server says each rule once with its summary ("(R13: a turn is ...)"): name only those it did not.
  const unnamed = rules.filter((rule) => !new RegExp(`\\b${rule}:`).test(words));
  return unnamed.length ? `${text} (${unnamed.join(", ")})` : text;
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

function onPause(message) {
  page.pause = message;
  // The deadline is the server's: count down by its clock, whatever the browser's says.
  page.pauseSkew = typeof message.now === "number" ? Date.now() - message.now : 0;
  draw();
}

// What is left of the pause, as "1:45" ("a moment" once it has run out); "" when there is none.
function pauseLeft() {
  const deadline = page.pause?.deadline;
  if (typeof deadline !== "number") {
    return "";
  }
  const seconds = Math.ceil((deadline - (Date.now() - (page.pauseSkew ?? 0))) / 1000);
  if (seconds <= 0) {
    return "a moment";
  }
  return `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, "0")}`;
}

// The rematch's table: a person keeps their seat's token there; the page that asked goes to it.
function onRematch(message) {
  page.rematch = message;
  if (page.token !== null) {
    keepToken(page.token, message.table);
  }
  if (page.rematchAsked) {
    location.assign(rematchAddress());
    return;
  }
  draw();
}

function rematchAddress() {
  return page.rematch ? `/tables/${encodeURIComponent(page.rematch.table)}` : "/";
}

function nextDeal() {
  if (page.readySent || !page.connection.send("next-deal")) {
    return;
  }
  page.readySent = true;
  draw();
}

function askRematch() {
  if (page.rematch) {
    location.assign(rematchAddress());
    return;
  }
  if (page.rematchAsked || !page.connection.send("rematch")) {
    return;
  }
  page.rematchAsked = true;
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
  if (page.sending) {
    return; // a second click while the first is on its way (a double click) sends nothing
  }
  page.error = null;
  if (page.connection.act(entry.notation) === null) {
    page.error = "Not connected: the move was not sent. It can be sent again once the page is connected.";
    draw();
    return;
  }
  page.sending = true;
  page.selected = [];
  page.chosen = null;
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
  const left = document.getElementById("pause-clock");
  if (left) {
    left.textContent = pauseLeft();
  }
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
    takes: page.sending ? new Map() : takeMoves(page.legal),
    draw: page.sending ? null : drawMove(page.legal),
    layoffTargets: page.sending ? new Map() : layoffMoves(page.legal, selected, page.chosen),
    mayTake: !page.sending && page.view?.phase === "draw" && page.legal.length > 0,
    explain,
    play,
  };
}

function explain(words) {
  page.error = words;
  draw();
}

const SORT_WORDS = { dealt: "as dealt", suit: "by suit", rank: "by rank" };
const SORTS = ["suit", "rank", "dealt"];
page.sort = localStorage.getItem("persian-rummy:sort") ?? "suit";
if (!(page.sort in SORT_WORDS)) {
  page.sort = "suit";
}

function cycleSort() {
  page.sort = SORTS[(SORTS.indexOf(page.sort) + 1) % SORTS.length];
  localStorage.setItem("persian-rummy:sort", page.sort);
  draw({ focus: "id:sort-button" });
}

const RANKS = "A23456789TJQK";
const SUIT_ORDER = "cdhsX";

function sortedHand(hand) {
  const rank = (card) => (card[0] === "X" ? 99 : RANKS.indexOf(card[0]) || 13); // the ace high
  const suit = (card) => SUIT_ORDER.indexOf(card[0] === "X" ? "X" : card[1]);
  const cards = [...hand];
  if (page.sort === "suit") {
    cards.sort((a, b) => suit(a) - suit(b) || rank(a) - rank(b) || a.localeCompare(b));
  } else if (page.sort === "rank") {
    cards.sort((a, b) => rank(a) - rank(b) || suit(a) - suit(b) || a.localeCompare(b));
  }
  return cards;
}

function ownHand(view) {
  const seat = page.seat;
  const playable = playableCards(page.legal);
  const cards = sortedHand(view.hand ?? []).map((card) => {
    const marks = [];
    if (view.to_act === seat && view.obligation === card) {
      marks.push("obligation");
    } else if (view.to_act === seat && view.picked.includes(card)) {
      marks.push("picked");
    }
    if (view.known[seat].includes(card) && !["deal_over", "game_over"].includes(view.phase)) {
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
  const why = whyNot(meld, discard);
  const sorter = el(
    "button",
    { type: "button", id: "sort-button", class: "quiet", title: "Order the hand by suit, by rank, or as dealt", onclick: cycleSort, text: `Sort: ${SORT_WORDS[page.sort]}` },
  );
  return el(
    "div",
    { class: "action-bar", id: "actions", tabindex: "-1" },
    el("span", { class: "selection", "aria-live": "polite", text: picked }),
    button("meld-button", meld?.action.stand_ins ? `Meld ${playWords(meld.action)}` : "Meld", meld && !page.sending ? meld : null, meld ? "Lay the selected cards down as a new meld" : why.meld),
    button("discard-button", "Discard", discard && !page.sending ? discard : null, discard ? "Discard the selected card; this ends the turn" : why.discard),
    button("pass-button", "Pass", pass && !page.sending ? pass : null, "Pass (the stock is empty, R21)"),
    el("button", { type: "button", id: "clear-button", disabled: page.selected.length === 0, onclick: () => choose([]), text: "Clear" }),
    sorter,
    el("p", { class: "why", id: "why", "aria-live": "polite", text: page.sending ? "Sent; waiting for the server…" : why.line }),
  );
}

// Why Meld and Discard are not offered now, from what the page knows: whose turn, the phase, the
// selection and the `legal` list (the page knows no rules: "not in the list" is the last word).
function whyNot(meld, discard) {
  const view = page.view;
  const legal = page.legal;
  const selected = page.selected;
  if (legal.length === 0) {
    const who = view?.to_act === null || view?.to_act === undefined ? "" : seatName(view.to_act, page.seat, page.table?.seats);
    const line = who ? `Not your turn: ${who} is to play.` : "Nobody is to play now.";
    return { meld: line, discard: line, line };
  }
  if (view.phase === "draw") {
    const line = view.stock_size === 0 ? "First take from the discard pile, or pass (R21)." : "First draw from the stock or take from the discard pile (R14).";
    return { meld: line, discard: line, line };
  }
  const obliged = view.obligation !== null && view.obligation !== undefined;
  let meldWhy = "";
  if (!meld) {
    if (selected.length === 0) {
      meldWhy = "Select the cards of a meld in your hand.";
    } else if (selected.length < 3) {
      meldWhy = "A meld takes at least three cards.";
    } else {
      meldWhy = `${shortList(selected)} do not make a meld that may be laid down now.`;
    }
  }
  let discardWhy = "";
  if (!discard) {
    if (obliged) {
      discardWhy = `Play ${short(view.obligation)}, taken from the discard pile, before discarding (R15).`;
    } else if (selected.length !== 1) {
      discardWhy = "Select one card to discard.";
    } else {
      discardWhy = `${short(selected[0])} may not be discarded now.`;
    }
  }
  const hint = "Meld and Discard act on the cards selected: three or more for a meld, one to discard.";
  const line = selected.length === 0 ? (obliged ? discardWhy : hint) : [meld ? "" : meldWhy, discard || selected.length > 1 ? "" : discardWhy].filter(Boolean).join(" ");
  return { meld: meldWhy, discard: discardWhy, line };
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
  if (page.seat !== null && page.table) {
    const watch = new URL(`/tables/${encodeURIComponent(page.tableId)}`, location.href).href;
    parts.push(
      el(
        "p",
        { class: "share-note", id: "share-note" },
        "To let others watch, share this page's address: ",
        el("a", { href: watch, id: "watch-link", text: watch }),
        " ",
        el("button", { type: "button", class: "quiet-button", onclick: () => navigator.clipboard?.writeText(watch), text: "Copy" }),
        ". Your seat stays in this browser. ",
        el("button", {
          type: "button",
          class: "quiet-button",
          id: "copy-seat-link",
          title: "Whoever opens this link plays for you: keep it to yourself.",
          onclick: () => navigator.clipboard?.writeText(seatLink()),
          text: "Copy your seat's private link",
        }),
        " to play from another device; whoever has it plays for you.",
      ),
    );
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
    el("li", { text: `${SEAT_LETTERS[seat.seat]}: ${seat.kind === "bot" ? botName(seat.bot) : seat.claimed ? seat.name ?? "taken" : "waiting for a person"}` }),
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

// The end of a deal: how it ended, its scores item by item, and Next deal (the table waits for
// every person's, or for the pause's time).
function dealEnd(view) {
  const last = view.results[view.results.length - 1];
  if (!last) {
    return null;
  }
  const pause = page.pause;
  const people = page.table?.seats?.filter((seat) => seat.kind === "person").map((seat) => seat.seat) ?? [];
  const waiting = pause ? pause.waiting : people;
  const mine = page.seat !== null && waiting.includes(page.seat) && !page.readySent;
  const others = waiting.filter((seat) => seat !== page.seat).map((seat) => seatName(seat, page.seat, page.table?.seats));
  let words;
  if (mine) {
    words = "The bots wait until you press Next deal.";
  } else if (others.length) {
    words = `Waiting for ${others.join(" and ")} to press Next deal.`;
  } else {
    words = "The next deal comes now.";
  }
  const counting = Boolean(pause?.deadline) && (mine || others.length > 0);
  if (counting) {
    words += " It is dealt anyway in";
  }
  const rows = last.teams.map((team, index) => {
    const parts = "total" in team ? ["", "", "", ""] : [team.melded, team.doubling, team.bonus, -team.in_hand];
    return el("tr", {}, el("td", { class: `team${index}`, text: TEAMS[index] }), parts.map((part) => el("td", { text: String(part) })), el("td", { class: "total", text: String(teamTotal(team)) }));
  });
  const head = el("tr", {}, ["Team", "Melded", "Doubling", "Bonus", "In hand", "This deal"].map((word) => el("th", { scope: "col", text: word })));
  const [a, b] = teamTotals(view.results);
  return el(
    "section",
    { class: "deal-end", id: "deal-end", "aria-label": `Deal ${last.deal} is over` },
    el("h2", { text: status(view, page.seat, page.table?.seats) }),
    el("table", { class: "deal-scores" }, el("thead", {}, head), el("tbody", {}, rows)),
    el("p", { text: `The game so far: ${TEAMS[0]} ${a}, ${TEAMS[1]} ${b}. Every hand is shown face up.` }),
    el(
      "p",
      { class: "deal-end-actions" },
      mine ? el("button", { type: "button", id: "next-deal-button", class: "primary", onclick: nextDeal, text: "Next deal" }) : null,
      el(
        "span",
        { class: "muted", id: "pause-note" },
        words,
        counting ? " " : null,
        counting ? el("span", { id: "pause-clock", class: "pause-clock", role: "timer", text: pauseLeft() }) : null,
        counting ? "." : null,
      ),
    ),
  );
}

// The end of the game: who won, from this seat's side, the final score, Rematch and the lobby.
function gameEnd(view) {
  const [a, b] = view ? teamTotals(view.results) : page.over?.points ?? [0, 0];
  const ended = page.over?.ended ?? "over";
  let title;
  if (ended !== "over") {
    title = ended === "aborted" ? "The table's creator ended the game" : "The table was left too long and ended";
  } else if (a === b) {
    title = `A draw, ${a} all`;
  } else if (page.seat === null) {
    title = `${TEAMS[Number(b > a)]} win`;
  } else {
    title = (b > a) === Boolean(page.seat & 1) ? "You win!" : "You lose";
  }
  const partner = page.seat === null ? "" : ` (you and ${seatName((page.seat + 2) % 4, page.seat, page.table?.seats)})`;
  const ours = page.seat === null ? "" : `Your team${partner}: ${TEAMS[page.seat & 1]}. `;
  const rematch = page.seat === null || page.gone
    ? null
    : el("button", { type: "button", id: "rematch-button", class: "primary", disabled: page.rematchAsked && !page.rematch, onclick: askRematch, text: page.rematch ? "Go to the rematch" : page.rematchAsked ? "Making the rematch…" : "Rematch" });
  const watch = page.seat === null && page.rematch ? el("a", { href: rematchAddress(), class: "button", text: "Watch the rematch" }) : null;
  return el(
    "section",
    { class: "game-end", id: "game-end", role: "status" },
    el("h2", { id: "game-end-title", text: title }),
    el("p", { text: `${ours}Final score: ${TEAMS[0]} ${a}, ${TEAMS[1]} ${b}.` }),
    page.rematch && page.seat !== null ? el("p", { id: "rematch-note", text: "A rematch is ready at a new table, same seats and bots, new deals." }) : null,
    el("p", { class: "deal-end-actions" }, rematch, watch, el("a", { href: "/", id: "lobby-link", class: "button", text: "Back to the lobby" })),
  );
}

function tableBody(view, ctx) {
  const others = page.seat === null ? [0, 1, 2, 3] : [1, 2, 3].map((step) => (page.seat + step) % 4);
  const over = view.phase === "game_over" || (page.over && page.over.ended !== "over");
  const parts = [
    over ? gameEnd(view) : null,
    view.phase === "deal_over" ? dealEnd(view) : null,
    el("div", { class: "hands" }, others.map((seat) => otherHand(view, seat, ctx))),
    meldsNode(view, ctx),
    el("div", { class: "piles" }, pileNode(view, ctx), stockNode(view, ctx)),
    legendNode(view),
    resultsNode(view),
  ];
  if (page.seat !== null && view.hand) {
    const dock = [ownHand(view)];
    if (view.phase !== "game_over" && view.phase !== "deal_over" && !page.notice) {
      const calls = callMoves(page.legal);
      dock.push(calls ? callBar(calls) : actionBar());
      parts.push(playsList());
    }
    // The hand and its buttons stay in sight at the bottom of the window, however many melds.
    const ended = view.phase === "game_over" || view.phase === "deal_over";
    parts.push(el("div", { class: ended ? "dock ended" : "dock", id: "dock" }, dock));
  }
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
  setCardValues(view?.rules?.card_values);
  const ctx = context();
  document.getElementById("top").replaceChildren(header(view), ...banners(view));
  const main = document.getElementById("table");
  main.replaceChildren(...(view ? tableBody(view, ctx) : [waiting()]).filter(Boolean));
  document.getElementById("log").replaceChildren(el("h2", { text: "Moves" }), logNode(), ...[dealsLine()].filter(Boolean));
  const body = document.body.dataset;
  body.seq = String(page.connection?.seq ?? "");
  body.phase = view?.phase ?? "waiting";
  body.seat = page.seat === null ? "spectator" : String(page.seat);
  body.yourTurn = String(page.legal.length > 0 && !page.sending);
  body.pause = String(view?.phase === "deal_over" && document.getElementById("next-deal-button") !== null);
  restoreFocus(keep);
  keepDockHeight();
  showNewestMeld(view);
  showPilesToDraw(view);
}

// The height of the hand's bar, where it sticks to the bottom of the window: what is scrolled into
// sight stops above it (the melds' and the piles' scroll-margin-bottom).
function keepDockHeight() {
  const dock = document.getElementById("dock");
  const sticks = dock !== null && getComputedStyle(dock).position === "sticky";
  document.documentElement.style.setProperty("--dock-h", `${sticks ? Math.ceil(dock.getBoundingClientRect().height) : 0}px`);
}

// When the seat's turn starts, the stock and the discard pile are scrolled into sight above the hand's
// bar (on a phone they are below the fold), once a turn, so that the page does not fight a person's scrolling.
function showPilesToDraw(view) {
  const drawing = view?.phase === "draw" && page.legal.length > 0 && !page.sending;
  const turn = drawing ? String(page.connection?.seq ?? "") : null;
  if (drawing && page.drawShown !== turn) {
    document.querySelector(".piles")?.scrollIntoView({ block: "nearest" });
  }
  page.drawShown = turn;
}

// A meld laid down since the last drawing is scrolled into sight, above the hand's bar.
function showNewestMeld(view) {
  const count = view?.melds?.length ?? 0;
  const before = page.meldCount;
  page.meldCount = count;
  if (before !== null && count > before) {
    document.querySelector(`[data-meld="${count - 1}"]`)?.scrollIntoView({ block: "nearest" });
  }
}

boot();
