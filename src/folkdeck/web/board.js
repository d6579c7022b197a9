// The board in the middle of the table, drawn alike by the table page and the replay viewer
// from a view's typed fields (table, top, history, phase, stock, status, result).
import { lang } from "./i18n.js";
import { copyKeys, drawCards, make, patchList, setClass, setText } from "./view.js";

const upper = (s) => (lang === "en" && s ? s[0].toUpperCase() + s.slice(1) : s);

// A play on the board: its cards and a caption (its seat, its label, "to beat").
function drawPlay(fig, play, R, isTop, look) {
  setClass(fig, "play" + (isTop ? " top" : "") + (fig.classList.contains("fresh") ? " fresh" : ""));
  fig.dataset.seat = play.seat;  // where it came from: the table moves it in from that seat
  if (!fig.firstElementChild) fig.append(make("div", "cards"), make("figcaption", "label"));
  drawCards(fig.firstElementChild, play.cards, look);
  setText(fig.lastElementChild, upper(R.seat(play.seat)) + (play.label ? ` · ${R.term(play.label)}` : "") + (isTop ? ` · ${R.ui("to_beat")}` : ""));
}

// The plays of a trick, each kept while it is on the table (keyed by seat and cards).
function drawPlays(row, plays, R, look, topOf) {
  const keys = copyKeys(plays.map((p) => `${p.seat}:${p.cards.join(" ")}`));
  patchList(row, plays, { key: (_, i) => keys[i], make: () => make("figure"), update: (fig, play) => drawPlay(fig, play, R, topOf(play), look) });
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
 * the play to beat outlined; with ``ring``, that play alone), else the trick just won (faded, until the next play), then the
 * stock and, while the deal is on, the position's notes. ``look``: how cards are drawn
 * (view.js); ``fresh``: the newest play has just been made (it slides in); ``empty``: what to
 * say when nothing is on the table. What is already drawn is patched (view.js), not rebuilt. */
const same = (a, b) => !!a && !!b && a.seat === b.seat && a.cards.join(" ") === b.cards.join(" ");

/** The play a table of seats around it shows in the middle: the play to beat, else the
 * trick's newest; the trick's other plays lie in front of their seats (seats.js). */
export function centrePlay(view) {
  const plays = view.table || [];
  if (view.top && (!plays.length || plays.some((p) => same(p, view.top)))) return view.top;
  return plays.length ? plays[plays.length - 1] : null;
}

/** Whether ``play`` is the one ``centrePlay`` shows. */
export const isCentrePlay = (view, play) => same(centrePlay(view), play);

export function drawBoard(center, view, R, look, { fresh = false, empty = "", ring = false } = {}) {
  const plays = view.table || [];
  const won = plays.length || view.top || view.result ? null : lastTrick(view.history);
  const parts = [];
  if (plays.length || view.top) {
    // ``ring``: the seats sit around the table, each with its play in front of it; the middle
    // holds the play to beat alone.
    const shown = ring ? [centrePlay(view)] : plays.length ? plays : [view.top];
    parts.push({ key: "trick", draw: (row) => {
      setClass(row, "trick"); row.id = "trick";
      drawPlays(row, shown, R, look, (play) => !!view.top && (shown.length > 1 || ring) && same(play, view.top));
      for (const fig of row.children) fig.classList.toggle("fresh", fresh && fig === row.lastElementChild);
    } });
  } else if (won) {
    parts.push({ key: "last", draw: (box) => {
      if (!box.firstElementChild) box.append(make("div", "trick last"), make("p", "last-caption"));
      box.firstElementChild.id = "last-trick";
      drawPlays(box.firstElementChild, won.plays, R, look, () => false);
      setText(box.lastElementChild, upper(R.ui("last_trick", { seat: won.winner })));
    } });
  } else if (empty) {
    parts.push({ key: "empty", draw: (p) => { setClass(p, "muted"); setText(p, empty); } });
  }
  const items = [];
  if (view.phase) items.push(R.ui("phase", { phase: view.phase }));
  const stock = view.stock || [];
  if (stock.length === 1) items.push(R.ui("stock", { count: stock[0] }));
  else if (stock.length === 2) items.push(R.ui("piles", { left: stock[0], right: stock[1] }));
  else if (stock.length > 2) items.push(R.ui("stock_piles", { counts: stock.join(" / ") }));
  parts.push({ key: "kv", draw: (kv) => { setClass(kv, "kv"); lines(kv, "span", items); } });
  // What a player needs to know of the position while the deal is on (a 3-game start, chips at
  // stake): at deal over the result says what counts, and a note of the position would be stale.
  const notes = (view.result ? [] : view.status || []).map((fact) => R.fact(fact));
  parts.push({ key: "facts", draw: (ul) => { setClass(ul, "facts"); ul.id = "facts"; lines(ul, "li", notes); } });
  const tags = { trick: "div", last: "div", empty: "p", kv: "div", facts: "ul" };
  patchList(center, parts, { key: (p) => p.key, make: (p) => make(tags[p.key]), update: (el, p) => p.draw(el) });
}

// Lines of text, one element each, kept by their place.
function lines(box, tag, texts) {
  patchList(box, texts, { key: (_, i) => i, make: () => make(tag), update: (el, text) => setText(el, text) });
}
