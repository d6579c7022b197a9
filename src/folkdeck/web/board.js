// The board in the middle of the table, drawn alike by the table page and the replay viewer
// from a view's typed fields (table, top, history, phase, stock, status, result).
import { lang } from "./i18n.js";

const upper = (s) => (lang === "en" && s ? s[0].toUpperCase() + s.slice(1) : s);

function playFigure(play, R, isTop, card) {
  const fig = document.createElement("figure"); fig.className = "play" + (isTop ? " top" : "");
  const row = document.createElement("div"); row.className = "cards";
  for (const c of play.cards) row.append(card(c));
  const cap = document.createElement("figcaption"); cap.className = "label";
  cap.textContent = upper(R.seat(play.seat)) + (play.label ? ` · ${R.term(play.label)}` : "") + (isTop ? ` · ${R.ui("to_beat")}` : "");
  fig.append(row, cap);
  return fig;
}

// The trick just won, from the typed history: the cards put on the table since the trick
// before (an act or fact "played", or a game's own "<game>.played" / "..._played", e.g. a card
// drawn and played at once) and the "trick_won" fact. Shown faded until the next play.
const isPlay = (f) => f && (f.type === "played" || /[._]played$/.test(f.type));
function lastTrick(history) {
  let plays = [], won = null;
  for (const ev of history || []) {
    for (const f of [ev.act, ...(ev.facts || [])]) {
      const cards = isPlay(f) ? (f.cards || (f.card ? [f.card] : [])) : [];
      if (cards.length) plays.push({ seat: f.seat, cards });
      if (f && f.type === "trick_won") { won = { plays, winner: f.seat }; plays = []; }
    }
  }
  return plays.length || !won || !won.plays.length ? null : won;  // a play since: that trick is on the table
}

/** Draws ``view``'s board into ``center``: the trick on the table (each play with its seat,
 * the play to beat outlined), else the trick just won (faded, until the next play), then the
 * stock and, while the deal is on, the position's notes. ``card(code)`` makes a card's element;
 * ``fresh``: the newest play has just been made (it slides in); ``empty``: what to say when
 * nothing is on the table. */
export function drawBoard(center, view, R, card, { fresh = false, empty = "" } = {}) {
  center.replaceChildren();
  const plays = view.table || [];
  const same = (a, b) => a && b && a.seat === b.seat && a.cards.join(" ") === b.cards.join(" ");
  const won = plays.length || view.top || view.result ? null : lastTrick(view.history);
  if (plays.length || view.top) {
    const row = document.createElement("div"); row.className = "trick"; row.id = "trick";
    const shown = plays.length ? plays : [view.top];
    for (const play of shown) row.append(playFigure(play, R, !!view.top && shown.length > 1 && same(play, view.top), card));
    if (fresh && row.lastElementChild) row.lastElementChild.classList.add("fresh");
    center.append(row);
  } else if (won) {
    const row = document.createElement("div"); row.className = "trick last"; row.id = "last-trick";
    for (const play of won.plays) row.append(playFigure(play, R, false, card));
    const cap = document.createElement("p"); cap.className = "last-caption";
    cap.textContent = upper(R.ui("last_trick", { seat: won.winner }));
    center.append(row, cap);
  } else if (empty) {
    center.append(Object.assign(document.createElement("p"), { className: "muted", textContent: empty }));
  }
  const kv = document.createElement("div"); kv.className = "kv";
  const items = [];
  if (view.phase) items.push(R.ui("phase", { phase: view.phase }));
  const stock = view.stock || [];
  if (stock.length === 1) items.push(R.ui("stock", { count: stock[0] }));
  else if (stock.length === 2) items.push(R.ui("piles", { left: stock[0], right: stock[1] }));
  else if (stock.length > 2) items.push(R.ui("stock_piles", { counts: stock.join(" / ") }));
  for (const it of items) kv.append(Object.assign(document.createElement("span"), { textContent: it }));
  center.append(kv);
  const facts = document.createElement("ul"); facts.className = "facts"; facts.id = "facts";
  // What a player needs to know of the position while the deal is on (a 3-game start, chips at
  // stake): at deal over the result says what counts, and a note of the position would be stale.
  for (const fact of view.result ? [] : view.status || []) facts.append(Object.assign(document.createElement("li"), { textContent: R.fact(fact) }));
  center.append(facts);
}
