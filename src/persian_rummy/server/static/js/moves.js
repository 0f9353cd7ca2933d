// What the page offers, read from the `legal` list the server sends: nothing here knows the rules.
// Each entry is {notation, action}; the action objects are the library's JSON forms.

import { isJoker, sameCards, short } from "./cards.js";

function ofType(legal, type) {
  return legal.filter((entry) => entry.action.type === type);
}

export function drawMove(legal) {
  return ofType(legal, "draw_stock")[0] ?? null;
}

export function passMove(legal) {
  return ofType(legal, "pass")[0] ?? null;
}

// The take of each card of the discard pile that may be taken: card -> entry.
export function takeMoves(legal) {
  return new Map(ofType(legal, "take_discard").map((entry) => [entry.action.card, entry]));
}

// The discard of the selected card, if there is one card selected and its discard is legal.
export function discardMove(legal, selected) {
  if (selected.length !== 1) {
    return null;
  }
  return ofType(legal, "discard").find((entry) => entry.action.card === selected[0]) ?? null;
}

// The lay-down of exactly the selected cards: *chosen* when it is one (a play with wild jokers
// chosen from the list, A7, where several lay the same cards down), else the first.
export function meldMove(legal, selected, chosen = null) {
  if (selected.length === 0) {
    return null;
  }
  const matching = ofType(legal, "lay_down").filter((entry) => sameCards(entry.action.cards, selected));
  return matching.find((entry) => entry === chosen) ?? matching[0] ?? null;
}

// The lay-off of exactly the selected cards onto each meld that takes them: meld index -> entry
// (*chosen* for its meld when it is one of them, else the first).
export function layoffMoves(legal, selected, chosen = null) {
  const moves = new Map();
  if (selected.length === 0) {
    return moves;
  }
  for (const entry of ofType(legal, "lay_off")) {
    if (sameCards(entry.action.cards, selected) && (!moves.has(entry.action.meld) || entry === chosen)) {
      moves.set(entry.action.meld, entry);
    }
  }
  return moves;
}

// The cards of a play with the cards its wild jokers stand for (A7): "5♥ X1=6♥ 7♥".
export function playWords(action) {
  const standIns = action.stand_ins ?? {};
  const stood = (card) => standIns[card] ?? card;
  const order = "23456789TJQKA";
  const key = (card) => (isJoker(stood(card)) ? 99 : order.indexOf(stood(card)[0])) * 8 + "cdhsX".indexOf(stood(card)[1] ?? "X");
  return [...action.cards]
    .sort((a, b) => key(a) - key(b))
    .map((card) => (standIns[card] ? `${short(card)}=${short(standIns[card])}` : short(card)))
    .join(" ");
}

// The melds and lay-offs on offer, as choices that select their cards: [{entry, cards, words}].
export function cardPlays(legal) {
  return legal
    .filter((entry) => entry.action.type === "lay_down" || entry.action.type === "lay_off")
    .map((entry) => ({ entry, cards: entry.action.cards }));
}

// The hand's cards that some legal action plays (a meld, a lay-off or a discard).
export function playableCards(legal) {
  const cards = new Set();
  for (const { action } of legal) {
    if (action.cards) {
      action.cards.forEach((card) => cards.add(card));
    } else if (action.type === "discard") {
      cards.add(action.card);
    }
  }
  return cards;
}

// The answers to a discard that some meld takes (a call of "Rummy!" or not), when the seat is asked:
// {call, decline}, each an entry or null; null when neither is offered.
export function callMoves(legal) {
  const call = ofType(legal, "call_rummy")[0] ?? null;
  const decline = ofType(legal, "decline_call")[0] ?? null;
  return call || decline ? { call, decline } : null;
}
