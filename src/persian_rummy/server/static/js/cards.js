// Cards as the library writes them in JSON ("Qh", "Td", "X1") and as the pictures show them.

export const SEAT_LETTERS = ["N", "E", "S", "W"];
export const TEAMS = ["N-S", "E-W"];

const RANK_WORDS = {
  2: "2", 3: "3", 4: "4", 5: "5", 6: "6", 7: "7", 8: "8", 9: "9",
  T: "10", J: "jack", Q: "queen", K: "king", A: "ace",
};
const RANK_CORNERS = { T: "10" };
const RANK_ORDER = "23456789TJQKA";
const SUITS = {
  c: { symbol: "♣", word: "clubs", red: false },
  d: { symbol: "♦", word: "diamonds", red: true },
  h: { symbol: "♥", word: "hearts", red: true },
  s: { symbol: "♠", word: "spades", red: false },
};

export function isJoker(card) {
  return card[0] === "X";
}

// What a card shows: its corner (rank), its suit symbol ("JOKER" for a joker) and its colour class.
export function face(card) {
  if (isJoker(card)) {
    return { corner: card, suit: "JOKER", colour: "joker" };
  }
  const suit = SUITS[card[1]];
  return { corner: RANK_CORNERS[card[0]] ?? card[0], suit: suit.symbol, colour: suit.red ? "red" : "black" };
}

// The card in words, for screen readers: "9 of hearts", "queen of spades", "joker 2".
export function label(card) {
  if (isJoker(card)) {
    return `joker ${card.slice(1)}`;
  }
  return `${RANK_WORDS[card[0]]} of ${SUITS[card[1]].word}`;
}

// The card as the text pictures write it: "10♦", "Q♠", "X1".
export function short(card) {
  const { corner, suit } = face(card);
  return isJoker(card) ? corner : `${corner}${suit}`;
}

export function shortList(cards) {
  return cards.map(short).join(" ");
}

function rankIndex(card) {
  return RANK_ORDER.indexOf(card[0]);
}

export function meldCards(meld) {
  return [...meld.laid_down, ...meld.layoffs.flat()];
}

// The card a card of a meld stands for: the natural card a wild joker stands for (A7), else itself.
export function stoodFor(meld, card) {
  return meld.stand_ins?.[card] ?? card;
}

// Whether a meld is a set (one rank, or jokers) or a run, from the cards it represents; the JSON
// lists the cards and, for wild jokers (A7), the card each stands for.
export function meldKind(meld) {
  const cards = meldCards(meld).map((card) => stoodFor(meld, card));
  const first = cards[0][0];
  return cards.every((card) => card[0] === first) ? "set" : "run";
}

// A meld's cards in the order they lie (as the pictures lay them): a run from its lowest card,
// the ace first when it is low (A8); a set by suit, as the JSON lists them; a joker that stands
// for a card where that card would lie (A7).
export function inOrder(meld, rules) {
  const cards = meldCards(meld);
  const suitOf = (card) => "cdhsX".indexOf(stoodFor(meld, card)[1] ?? "X");
  if (meldKind(meld) === "set") {
    return [...cards].sort((a, b) => suitOf(a) - suitOf(b) || a.localeCompare(b));
  }
  const sorted = [...cards].sort((a, b) => rankIndex(stoodFor(meld, a)) - rankIndex(stoodFor(meld, b)));
  const [first, last] = [stoodFor(meld, sorted[0]), stoodFor(meld, sorted[sorted.length - 1])];
  const low = rules?.ace_low_allowed && first[0] === "2" && last[0] === "A";
  return low ? [sorted[sorted.length - 1], ...sorted.slice(0, -1)] : sorted;
}

// Who laid off each card of a meld: card -> seat.
export function layoffSeats(meld) {
  const seats = new Map();
  meld.layoffs.forEach((part, seat) => part.forEach((card) => seats.set(card, seat)));
  return seats;
}

// Whether a set of four was laid down at once and scores double (R25, A20).
export function doubled(meld, rules) {
  if (meld.laid_down.length !== 4) {
    return false;
  }
  return meldKind(meld) === "set" ? Boolean(rules?.double_four_of_a_kind) : Boolean(rules?.double_four_card_runs);
}

export function sameCards(a, b) {
  if (a.length !== b.length) {
    return false;
  }
  const set = new Set(a);
  return b.every((card) => set.has(card));
}

// The variants of RULES.md section 5 that a table's rules turn on, in words (the rules page's A7 and A24).
const VARIANTS = [
  ["jokers_wild", "wild jokers"],
  ["rummy_calls", "Rummy! calls"],
];

export function variants(rules) {
  return VARIANTS.filter(([name]) => rules?.[name]).map(([, words]) => words);
}
