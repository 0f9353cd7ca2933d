// The table drawn from a view (the library's JSON), laid out as the library's pictures lay it out:
// the deal and the scores, whose turn, the hands (hidden cards face down), the melds with who laid
// down and laid off what, the discard pile with its top, the stock; the person's hand at the bottom.
// Only what the view holds is drawn, so the page can show no card that the view hides.

import { SEAT_LETTERS, TEAMS, doubled, face, inOrder, label, layoffSeats, meldKind, short, shortList, stoodFor, variants } from "./cards.js";

export function el(tag, attributes = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attributes)) {
    if (value === null || value === undefined || value === false) {
      continue;
    }
    if (key === "class") {
      node.className = value;
    } else if (key === "text") {
      node.textContent = value;
    } else if (key.startsWith("on")) {
      node.addEventListener(key.slice(2), value);
    } else {
      node.setAttribute(key, value === true ? "" : value);
    }
  }
  for (const child of children.flat()) {
    if (child !== null && child !== undefined) {
      node.append(child);
    }
  }
  return node;
}

// What each rank scores at this table (R23), from the view's rules: shown when a card is hovered.
let cardValues = null;

export function setCardValues(values) {
  cardValues = values ?? null;
}

function worth(card) {
  const value = cardValues?.[card[0]];
  return typeof value === "number" ? ` · ${value} point${value === 1 ? "" : "s"}` : "";
}

// A card face up. As a button when `onclick` is given (a card that can be chosen), else an image.
export function cardNode(card, { onclick = null, pressed = null, marks = [], title = null, name = null, disabled = false } = {}) {
  const { corner, suit, colour } = face(card);
  const classes = ["card", colour, ...marks].join(" ");
  const inner = [
    el("span", { class: "corner", "aria-hidden": "true", text: corner }),
    suit === "JOKER" ? null : el("span", { class: "corner-suit", "aria-hidden": "true", text: suit }),
    el("span", { class: "pip", "aria-hidden": "true", text: suit === "JOKER" ? "★" : suit }),
    suit === "JOKER" ? el("span", { class: "joker-word", "aria-hidden": "true", text: "JOKER" }) : null,
  ];
  const common = { class: classes, "data-card": card, "aria-label": name ?? label(card), title: title ?? `${name ?? label(card)}${worth(card)}` };
  if (onclick) {
    return el("button", { ...common, type: "button", "aria-pressed": pressed === null ? null : String(pressed), "aria-disabled": disabled ? "true" : null, onclick }, inner);
  }
  return el("span", { ...common, role: "img" }, inner);
}

export function backNode() {
  return el("span", { class: "card back", "aria-hidden": "true" });
}

function plural(count, noun) {
  return `${count} ${noun}${count === 1 ? "" : "s"}`;
}

// A bot as the pages name it, its kind and that it is a bot: "greedy bot".
export function botName(bot) {
  return `${bot} bot`;
}

// A seat's name as the page shows it: "E", "S (you)", with the person's name or the bot's ("E · greedy bot").
export function seatName(seat, viewer, seats) {
  const letter = SEAT_LETTERS[seat];
  const entry = seats?.[seat];
  const who = entry?.kind === "bot" && entry.bot ? botName(entry.bot) : entry?.name;
  const base = who ? `${letter} · ${who}` : letter;
  return seat === viewer ? `${base} (you)` : base;
}

export function teamTotals(results) {
  const totals = [0, 0];
  for (const result of results) {
    result.teams.forEach((team, index) => {
      totals[index] += teamTotal(team);
    });
  }
  return totals;
}

export function teamTotal(team) {
  if ("total" in team) {
    return team.total;
  }
  return team.melded + team.doubling + team.bonus - team.in_hand;
}

export function heading(view, viewer, seats) {
  const named = variants(view.rules);
  const played = named.length ? ` · with ${named.join(" and ")}` : "";
  if (view.deal === 0) {
    return `Before the first deal${played}`;
  }
  const total = view.rules.num_deals;
  const which = view.deal <= total ? `Deal ${view.deal} of ${total}` : `Deal ${view.deal}, an extra deal (A22)`;
  return `${which}, dealt by ${seatName(view.dealer, viewer, seats)}${played}`;
}

const ENDINGS = { passes: "the players passed with the stock empty", stock_empty: "the stock ran out" };

function how(result, viewer, seats) {
  return result.went_out !== null ? `${seatName(result.went_out, viewer, seats)} went out` : ENDINGS[result.end] ?? result.end;
}

// Whose turn it is and what to do, or how the deal or the game ended (the pictures' status line).
export function status(view, viewer, seats) {
  const who = view.to_act === null ? "" : seatName(view.to_act, viewer, seats);
  const last = view.results[view.results.length - 1];
  switch (view.phase) {
    case "deal":
      return `${seatName(view.dealer, viewer, seats)} to deal`;
    case "draw":
      return view.stock_size === 0
        ? `${who} to take from the discard pile or pass (R21)`
        : `${who} to draw from the stock or take from the discard pile (R14)`;
    case "play":
      return `${who} to lay down, lay off, then discard`;
    case "calls":
      return `${who} is asked whether to call Rummy! on ${calledOn(view, viewer, seats, view.discard_pile[view.discard_pile.length - 1])}`;
    case "called":
      return `${who} called Rummy! on ${calledOn(view, viewer, seats, view.obligation)} and lays it off now`;
    case "deal_over": {
      const [a, b] = last.teams.map(teamTotal);
      return `Deal ${last.deal} is over: ${how(last, viewer, seats)} (this deal: ${TEAMS[0]} ${a}, ${TEAMS[1]} ${b})`;
    }
    case "game_over": {
      const [a, b] = teamTotals(view.results);
      if (a === b) {
        return `The game is over: a draw, ${a} all`;
      }
      return `The game is over: ${TEAMS[Number(b > a)]} win, ${Math.max(a, b)} to ${Math.min(a, b)}`;
    }
    default:
      return view.phase;
  }
}

// The discard answered in a call of "Rummy!": "N's 9♠", "W · Bob's 9♠".
function calledOn(view, viewer, seats, card) {
  const whose = view.discarder === null || view.discarder === undefined ? "the" : `${seatName(view.discarder, viewer, seats)}'s`;
  return `${whose} ${card ? short(card) : "discard"}`;
}

// The cards taken from the discard pile this turn, and the one that must be played now (R15),
// or the card called on, to be laid off (A24).
export function taken(view, viewer, seats) {
  if (view.picked.length === 0 || view.to_act === null) {
    return "";
  }
  const who = seatName(view.to_act, viewer, seats);
  if (view.phase === "called" && view.obligation !== null) {
    return `${who} must lay off ${shortList([view.obligation])} now, taken by the call of Rummy! (A24)`;
  }
  if (view.obligation === null) {
    return `${who} took ${shortList(view.picked)} from the discard pile this turn`;
  }
  const others = view.picked.filter((card) => card !== view.obligation);
  const rest = others.length ? ` with ${shortList(others)}` : "";
  return `${who} must play ${shortList([view.obligation])} now, taken from the discard pile${rest} (R15)`;
}

function marksOf(view, seat, card) {
  const marks = [];
  if (seat === view.to_act && view.obligation === card) {
    marks.push("obligation");
  } else if (seat === view.to_act && view.picked.includes(card)) {
    marks.push("picked");
  }
  // When a deal is over every hand is shown: a dot on each card would say nothing.
  if (view.known[seat].includes(card) && !["deal_over", "game_over"].includes(view.phase)) {
    marks.push("known");
  }
  return marks;
}

const TURN_WORDS = { draw: "to draw", play: "to play", calls: "asked: Rummy?", called: "to lay off" };

function seatLabel(view, seat, viewer, seats, clockText) {
  const notes = [TEAMS[seat & 1]];
  if (seat === view.dealer && view.deal) {
    notes.push("dealer");
  }
  if (seats?.[seat]?.kind === "person" && seats[seat].connected === false) {
    notes.push("away");
  }
  const turn = seat === view.to_act ? TURN_WORDS[view.phase] ?? "" : "";
  return el(
    "div",
    { class: "seat-label" },
    el("span", { class: `seat-name team${seat & 1}`, text: seatName(seat, viewer, seats) }),
    el("span", { class: "seat-notes", text: notes.join(", ") }),
    turn ? el("span", { class: "seat-turn", text: turn }) : null,
    clockText ? el("span", { class: "seat-clock", role: "timer", text: clockText }) : null,
  );
}

// Another seat's hand, or a spectator's picture of any hand: the cards everyone knows, then backs.
export function otherHand(view, seat, context) {
  const size = view.hand_sizes[seat];
  const known = view.known[seat];
  const faces = known.map((card) => cardNode(card, { marks: marksOf(view, seat, card) }));
  const backs = Array.from({ length: size - known.length }, backNode);
  const count = size ? plural(size, "card") : "no cards";
  const classes = ["hand-row", seat === view.to_act ? "to-act" : "", context.fresh.has(seat) ? "just-acted" : ""];
  return el(
    "section",
    { class: classes.join(" "), "data-seat": seat, "aria-label": `${seatName(seat, context.viewer, context.seats)}: ${count}` },
    seatLabel(view, seat, context.viewer, context.seats, context.clockFor(seat)),
    el("div", { class: "cards fan" }, faces, el("span", { class: "backs" }, backs)),
    el("span", { class: "count", text: count }),
  );
}

export function meldsNode(view, context) {
  if (view.melds.length === 0) {
    return el("section", { class: "melds", "aria-label": "Table" }, el("h2", { text: "Table: no melds yet" }));
  }
  const items = view.melds.map((meld, index) => meldNode(view, meld, index, context));
  return el("section", { class: "melds", "aria-label": "Table" }, el("h2", { text: `Table: ${plural(view.melds.length, "meld")}` }), el("div", { class: "meld-list" }, items));
}

function meldNode(view, meld, index, context) {
  const who = layoffSeats(meld);
  const cards = inOrder(meld, view.rules).map((card) => {
    const seat = who.get(card);
    const mark = seat === undefined ? null : el("span", { class: `layoff-mark team${seat & 1}`, text: `+${SEAT_LETTERS[seat]}` });
    const fresh = context.freshCards.has(card) ? ["fresh"] : [];
    const stood = stoodFor(meld, card);
    if (stood !== card) {  // a wild joker, with the card it stands for (A7)
      const name = `${label(card)} as ${label(stood)}`;
      const standsFor = el("span", { class: "stands-for", "aria-hidden": "true", text: `=${short(stood)}` });
      return el("span", { class: "meld-card" }, cardNode(card, { marks: fresh, name }), standsFor, mark);
    }
    return el("span", { class: "meld-card" }, cardNode(card, { marks: fresh }), mark);
  });
  const kind = meldKind(meld);
  const double = doubled(meld, view.rules) ? ", doubled" : "";
  const caption = `${index + 1}. ${kind} by ${seatName(meld.owner, context.viewer, context.seats)}${double}`;
  const target = context.layoffTargets.get(index);
  const attributes = { class: `meld${target ? " target" : ""}`, "data-meld": index };
  const body = [el("div", { class: "cards fan" }, cards), el("div", { class: "caption", text: caption })];
  if (target) {
    const words = `Lay off onto meld ${index + 1} (${kind} by ${SEAT_LETTERS[meld.owner]})`;
    return el("button", { ...attributes, type: "button", "aria-label": words, onclick: () => context.play(target) }, body);
  }
  return el("div", attributes, body);
}

export function pileNode(view, context) {
  const pile = view.discard_pile;
  const heading = el("h2", { text: "Discard pile, bottom to top" });
  if (pile.length === 0) {
    return el("section", { class: "pile", "aria-label": "Discard pile" }, heading, el("p", { class: "muted", text: "empty" }));
  }
  const cards = pile.map((card, index) => {
    const take = context.takes.get(card);
    const depth = pile.length - index;
    const marks = [index === pile.length - 1 ? "top" : "", context.freshCards.has(card) ? "fresh" : ""].filter(Boolean);
    if (take) {
      const words = depth === 1 ? `take ${label(card)}` : `take ${label(card)} and the ${depth - 1} above it`;
      return cardNode(card, { marks: [...marks, "takeable"], title: `${words}${worth(card)}`, onclick: () => context.play(take) });
    }
    if (context.mayTake) {
      // This seat draws now, but not this card: a click says why instead of doing nothing.
      const why = `${short(card)} cannot be taken now: a card taken from the pile must be played at once, in a new meld or laid off (R15)`;
      return cardNode(card, { marks: [...marks, "untakeable"], title: why, disabled: true, onclick: () => context.explain(why) });
    }
    return cardNode(card, { marks });
  });
  return el(
    "section",
    { class: "pile", "aria-label": "Discard pile" },
    heading,
    el("div", { class: "pile-cards" }, el("div", { class: "cards fan narrow" }, cards), el("div", { class: "top-note", text: "▲ top" })),
  );
}

// The passes in a row with the stock empty, once there is one (R21).
function passesNode(view) {
  if (!view.passes) {
    return null;
  }
  return el("p", { class: "muted passes", text: `${view.passes} pass${view.passes === 1 ? "" : "es"} in a row (R21)` });
}

export function stockNode(view, context) {
  const heading = el("h2", { text: "Stock" });
  if (view.stock_size === 0) {
    return el("section", { class: "stock", "aria-label": "Stock" }, heading, el("p", { class: "muted", text: "empty" }), passesNode(view));
  }
  const words = plural(view.stock_size, "card");
  const pile = el("span", { class: "stock-pile" }, backNode(), el("span", { class: "count", text: words }));
  const known = view.stock?.length
    ? el("div", { class: "cards fan narrow known-stock" }, view.stock.map((card) => cardNode(card)), el("span", { class: "muted", text: "known to all, next first" }))
    : null;
  const body = context.draw
    ? el("button", { type: "button", class: "stock-button", "aria-label": `Draw from the stock (${words})`, onclick: () => context.play(context.draw) }, pile)
    : pile;
  return el("section", { class: "stock", "aria-label": "Stock" }, heading, body, known, passesNode(view));
}

// The scores of each finished deal, item by item, and the totals.
export function resultsNode(view) {
  if (view.results.length === 0) {
    return null;
  }
  const head = el("tr", {}, ["Deal", "Team", "Melded", "Doubling", "Bonus", "In hand", "Total"].map((words) => el("th", { scope: "col", text: words })));
  const rows = [];
  for (const result of view.results) {
    result.teams.forEach((team, index) => {
      const parts = "total" in team ? ["", "", "", ""] : [team.melded, team.doubling, team.bonus, -team.in_hand];
      rows.push(el("tr", {}, el("td", { text: String(result.deal) }), el("td", { class: `team${index}`, text: TEAMS[index] }), parts.map((part) => el("td", { text: String(part) })), el("td", { class: "total", text: String(teamTotal(team)) })));
    });
  }
  const [a, b] = teamTotals(view.results);
  const foot = el("tr", { class: "grand" }, el("td", { colspan: "6", text: "Game" }), el("td", { text: `${TEAMS[0]} ${a}, ${TEAMS[1]} ${b}` }));
  return el("section", { class: "results", "aria-label": "Scores" }, el("h2", { text: "Scores" }), el("table", {}, el("thead", {}, head), el("tbody", {}, rows, foot)));
}

// The marks' legend, for the marks drawn.
export function legendNode(view) {
  const items = [];
  if (view.known.some((cards) => cards.length) && !["deal_over", "game_over"].includes(view.phase)) {
    items.push(["known", "known to all"]);
  }
  if (view.obligation !== null) {
    items.push(["obligation", view.phase === "called" ? "called on, to lay off now (A24)" : "to play now (R15)"]);
  }
  if (view.picked.some((card) => card !== view.obligation)) {
    items.push(["picked", "taken from the discard pile this turn"]);
  }
  if (items.length === 0) {
    return null;
  }
  return el("p", { class: "legend" }, items.map(([mark, words]) => el("span", { class: `legend-item ${mark}` }, el("span", { class: "swatch", "aria-hidden": "true" }), words)));
}
