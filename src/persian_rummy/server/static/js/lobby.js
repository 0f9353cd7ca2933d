// The lobby: the public tables listed a page at a time, newest first, and a form that makes one with
// this person at seat N (seat 0), claims that seat and shows the invitation links of the other person
// seats.  The tables made in this browser keep their admin token here, to end or delete them.

import { SEAT_LETTERS, variants } from "./cards.js";
import { botName, el } from "./render.js";

const CHOICES = [
  ["bot:greedy", "a bot (greedy)"],
  ["bot:random", "a bot (random)"],
  ["bot:pimc:50", "a stronger bot (pimc:50)"],
  ["person", "a friend (invitation link)"],
];

async function json(response) {
  const body = await response.json().catch(() => ({}));
  if (!response.ok) {
    throw new Error(body.error?.message ?? `the server answered ${response.status}`);
  }
  return body;
}

// The rules id the form asks for: the variants ticked, then the other switches as written; "" for the defaults.
function rulesId(form) {
  const ticked = [form.elements.jokers_wild, form.elements.rummy_calls].filter((box) => box.checked).map((box) => box.value);
  const more = form.elements.more_rules.value.split(",").map((part) => part.trim()).filter((part) => part && part !== "-");
  return [...ticked, ...more].join(",");
}

const adminKey = (tableId) => `persian-rummy-admin:${tableId}`;
let shownPage = 1;

// Ends (abort) or deletes a table this browser made, with the admin token kept when it was made.
async function manage(tableId, how) {
  const token = localStorage.getItem(adminKey(tableId));
  const path = how === "delete" ? `/api/tables/${encodeURIComponent(tableId)}` : `/api/tables/${encodeURIComponent(tableId)}/abort`;
  const problem = document.getElementById("list-error");
  problem.textContent = "";
  try {
    const response = await fetch(path, { method: how === "delete" ? "DELETE" : "POST", headers: { authorization: `Bearer ${token}` } });
    if (!response.ok) {
      await json(response);
    }
    if (how === "delete") {
      localStorage.removeItem(adminKey(tableId));
    }
  } catch (failure) {
    problem.textContent = failure.message;
  }
  listTables();
}

function adminButtons(table) {
  if (!localStorage.getItem(adminKey(table.id))) {
    return [];
  }
  const going = table.status === "waiting" || table.status === "playing";
  const end = el("button", { type: "button", class: "end-table", text: "End", onclick: () => manage(table.id, "abort") });
  const remove = el("button", { type: "button", class: "delete-table", text: "Delete", onclick: () => manage(table.id, "delete") });
  return [el("span", { class: "lobby-admin" }, ...(going ? [end] : []), remove)];
}

function tableLine(table) {
  const seats = table.seats
    .map((seat) => `${SEAT_LETTERS[seat.seat]} ${seat.kind === "bot" ? botName(seat.bot) : seat.claimed ? seat.name ?? "taken" : "free"}`)
    .join(", ");
  const named = [...variants(table.rules), ...(table.seeded ? ["seeded"] : [])];
  // A game nobody is at ends by itself after a while (the server's --abandoned-ttl): say so meanwhile.
  const away = table.status === "playing" && !table.seats.some((seat) => seat.kind === "person" && seat.connected);
  const state = away ? "playing, nobody there (it ends by itself if nobody comes back)" : table.status;
  const words = `${table.name} · ${state}${named.length ? ` · ${named.join(", ")}` : ""} · ${seats}`;
  return el("li", {}, el("a", { href: `/tables/${encodeURIComponent(table.id)}`, "data-table": table.id, text: words }), ...adminButtons(table));
}

function pager(page, pages) {
  const pagerNode = document.getElementById("table-pages");
  if (pages <= 1) {
    pagerNode.replaceChildren();
    return;
  }
  const turn = (to) => () => {
    shownPage = to;
    listTables();
  };
  pagerNode.replaceChildren(
    el("button", { type: "button", id: "previous-page", text: "Newer", disabled: page <= 1, onclick: turn(page - 1) }),
    el("span", { text: `page ${page} of ${pages}` }),
    el("button", { type: "button", id: "next-page", text: "Older", disabled: page >= pages, onclick: turn(page + 1) }),
  );
}

async function listTables() {
  const list = document.getElementById("table-list");
  try {
    const { tables, page, pages } = await json(await fetch(`/api/tables?page=${shownPage}`));
    if (page > pages) {
      shownPage = pages;
      return listTables();
    }
    list.replaceChildren(...(tables.length ? tables.map(tableLine) : [el("li", { class: "muted", text: "No tables yet." })]));
    pager(page, pages);
  } catch (failure) {
    list.replaceChildren(el("li", { class: "error", text: failure.message }));
  }
  return undefined;
}

function newTable(form) {
  const seats = ["person", ...[1, 2, 3].map((seat) => form.elements[`seat-${seat}`].value)];
  const clock = form.elements.clock.value;
  const made = {
    name: form.elements.table.value.trim() || "Table",
    seats,
    clock: clock ? Number(clock) : null,
    bot_delay: Number(form.elements.bot_delay.value),
  };
  if (form.elements.private.checked) {
    made.private = true;
  }
  const rules = rulesId(form);
  return rules ? { ...made, rules } : made;
}

const SEAT_WORDS = ["N", "E", "S (your partner)", "W"];

function linkLine(words, url, label, seat = null) {
  const input = el("input", { readonly: true, value: url, "aria-label": label, class: "invite-link", "data-seat": seat });
  const copy = el("button", { type: "button", text: "Copy", onclick: () => navigator.clipboard?.writeText(url) });
  return el("li", {}, el("span", { text: `${words}: ` }), input, " ", copy);
}

function showInvitations(table, invitations, token) {
  const tableId = table.id;
  const own = `/tables/${encodeURIComponent(tableId)}#token=${encodeURIComponent(token)}`;
  localStorage.setItem(`persian-rummy:${tableId}`, token);
  const others = invitations.filter((invitation) => invitation.seat !== 0);
  if (others.length === 0) {
    location.assign(own);
    return;
  }
  const items = others.map((invitation) => {
    // The seat in the link is for the invitation's page to name it; the code alone takes the seat.
    const url = `${new URL(invitation.url, location.href).href}&seat=${invitation.seat}`;
    return linkLine(SEAT_WORDS[invitation.seat], url, `Invitation link for seat ${SEAT_LETTERS[invitation.seat]}`, invitation.seat);
  });
  const watch = new URL(`/tables/${encodeURIComponent(tableId)}`, location.href).href;
  items.push(linkLine("To watch", watch, "Link to watch the table"));
  document.getElementById("invitations-heading").textContent = `Invite your friends to ${table.name}`;
  document.getElementById("invitation-list").replaceChildren(...items);
  document.getElementById("go-to-table").href = own;
  const section = document.getElementById("invitations");
  section.hidden = false;
  section.scrollIntoView({ block: "start" });
  document.getElementById("invitations-heading").focus({ preventScroll: true });
}

async function create(submit) {
  submit.preventDefault();
  const form = submit.target;
  const button = document.getElementById("create-button");
  if (button.disabled) {
    return; // a table is being made, or was just made: a second click makes no second table
  }
  const problem = document.getElementById("new-error");
  problem.textContent = "";
  button.disabled = true;
  button.textContent = "Creating the table…";
  try {
    const made = await json(await fetch("/api/tables", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(newTable(form)) }));
    const tableId = made.table.id;
    localStorage.setItem(adminKey(tableId), made.admin);
    const mine = made.invitations.find((invitation) => invitation.seat === 0);
    const name = form.elements.name.value.trim() || "Player";
    const claimed = await json(await fetch(`/api/tables/${encodeURIComponent(tableId)}/claim`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ invite: mine.invite, name }) }));
    button.textContent = "Table made";
    document.getElementById("another-button").hidden = false;
    showInvitations(made.table, made.invitations, claimed.token);
    listTables();
  } catch (failure) {
    problem.textContent = failure.message;
    button.disabled = false;
    button.textContent = "Create the table";
  }
}

function another() {
  const button = document.getElementById("create-button");
  button.disabled = false;
  button.textContent = "Create the table";
  document.getElementById("another-button").hidden = true;
  document.getElementById("invitations").hidden = true;
  document.getElementById("new-heading").scrollIntoView({ block: "start" });
}

function fillSeats() {
  for (const seat of [1, 2, 3]) {
    const select = document.getElementById(`seat-${seat}`);
    select.replaceChildren(...CHOICES.map(([value, words]) => el("option", { value, text: words })));
  }
}

fillSeats();
document.getElementById("new-table").addEventListener("submit", create);
document.getElementById("another-button").addEventListener("click", another);
listTables();
setInterval(listTables, 5000);
