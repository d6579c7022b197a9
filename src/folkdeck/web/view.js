// The table drawn alike by the table page (table.js) and the replay viewer (replay.js): the
// seats, the cards of a hand, and the board (board.js) come from one renderer. Each page turns
// its model (model.js's, or a replay step) into plain descriptions, and the renderer patches
// the page to them: an element is kept, keyed (a seat by its number, a card by its code and
// copy), and only what changed in it is written, so a message redraws what it changed and a
// card the player is pointing at, dragging or has focused stays the same element.
import { cardSVG, backSVG, cardName, suitSignSVG } from "./cards.js";

/** Patches ``parent``'s children to one element per item, in order: the child whose
 * ``data-key`` is ``key(item, i)`` is kept (else ``make(item, i)`` makes it), then
 * ``update(el, item, i)`` writes what changed; children of no item (and any text) go. */
export function patchList(parent, items, { key, make, update }) {
  const old = new Map();
  for (const child of parent.children) if (child.dataset.key !== undefined) old.set(child.dataset.key, child);
  const wanted = items.map((item, i) => {
    const k = String(key(item, i));
    let el = old.get(k);
    if (el) old.delete(k);
    else { el = make(item, i); el.dataset.key = k; }
    update(el, item, i);
    return el;
  });
  for (const el of old.values()) el.remove();
  for (const node of [...parent.childNodes]) if (node.nodeType !== 1 || node.dataset.key === undefined) node.remove();
  wanted.forEach((el, i) => { if (parent.children[i] !== el) parent.insertBefore(el, parent.children[i] || null); });
}

/** Keys for a list that may repeat (Gou Ji's four packs): the value and its copy, "3S~0", "3S~1". */
export function copyKeys(values) {
  const seen = new Map();
  return values.map((v) => { const n = seen.get(v) || 0; seen.set(v, n + 1); return `${v}~${n}`; });
}

export function setText(el, text) { if (el.textContent !== text) el.textContent = text; }
export function setClass(el, cls) { if (el.className !== cls) el.className = cls; }

export const make = (tag, cls = "") => { const el = document.createElement(tag); if (cls) el.className = cls; return el; };

/** How cards are drawn: ``{notation, width, R}`` (the renderer names them: the Cucco pack's
 * OWL, a Spanish 12 of espadas). */
export function patchCard(el, code, look, cls = "card") {
  const name = look.R.hasTerm(code) ? look.R.term(code) : "";
  const label = cardName(look.R, code);  // in the reader's language, which may change
  const face = `${code}|${look.notation}|${look.width}|${name}|${label}`;
  if (el.dataset.face !== face) {  // the SVG is written once per face, not on every message
    el.innerHTML = cardSVG(code, look.notation, { width: look.width, name, label });
    el.dataset.face = face; el.dataset.card = code; el.title = label;
  }
  setClass(el, cls);
}

/** ``el`` says ``codes`` (a chip, a button): each card with its pack's suit sign when the
 * pack has its own (the sword of espadas before "12 espadas", the faces' sign), else the
 * renderer's text alone ("K♠"). */
export function cardsLabel(el, codes, look) {
  const signs = codes.map((c) => suitSignSVG(c, look.notation));
  if (!signs.some(Boolean)) { setText(el, look.R.cards(codes)); return; }
  el.replaceChildren();
  codes.forEach((c, k) => {
    if (k) el.append(look.R.ui("list_separator"));
    const part = make("span", "card-name");
    part.innerHTML = signs[k];
    part.append(look.R.cards([c]));
    el.append(part);
  });
}

/** A row of cards, each kept by code and copy; ``classOf(code, i)``, ``each(el, code, i)``. */
export function drawCards(box, codes, look, { classOf = () => "card", each = null } = {}) {
  const keys = copyKeys(codes);
  patchList(box, codes, {
    key: (_, i) => keys[i], make: () => make("span"),
    update: (el, code, i) => { patchCard(el, code, look, classOf(code, i)); if (each) each(el, code, i); },
  });
}

/** The seats, each described as ``{seat, name, tag, tagClass, online, classes, facts, hand,
 * back, out, play, pos}``: ``tag`` a badge after the name (a bot's kind), ``online`` the
 * connection dot (null: none), ``facts`` the lines under it, ``hand`` cards face up (the
 * replay) or ``back`` a count drawn as a small fan of card backs (another player's hand at the
 * table; "?" for a count the view hides), ``out`` a seat's place once it has
 * gone out (shown instead of its empty hand), ``play`` the cards of its last play on the table
 * (shown in front of it), ``pos`` its place around the table ({x, y}: per cent of the box).
 * ``seatClass``/``headClass``: the page's own class names for its layout. */
export function drawSeats(box, seats, look, { seatClass = "seat", headClass = "name" } = {}) {
  patchList(box, seats, {
    key: (s) => s.seat,
    make: (s) => {
      const div = make("div"); div.dataset.seat = s.seat;
      const head = make("div", headClass);
      head.append(make("span", "dot"), make("strong"));
      div.append(head, make("small", "tag"), make("div", "meta"), make("div", "seat-cards"), make("div", "last-play"));
      return div;
    },
    update: (div, s) => {
      setClass(div, [seatClass, ...s.classes].join(" "));
      if (s.pos) { div.style.setProperty("--x", `${s.pos.x}%`); div.style.top = `${s.pos.y}%`; }
      const [head, tag, meta, cards, play] = div.children;
      const [dot, who] = head.children;
      dot.hidden = s.online == null;
      setClass(dot, "dot" + (s.online ? " on" : ""));
      dot.title = s.online == null ? "" : s.online ? "" : look.R.ui("away");
      setText(who, s.name);
      setText(tag, s.tag || "");
      tag.hidden = !s.tag;
      setClass(tag, "tag" + (s.tagClass ? ` ${s.tagClass}` : ""));
      setText(meta, s.facts.join(" · "));
      drawSeatCards(cards, s, look);
      if (s.held) { cards.setAttribute("role", "img"); cards.setAttribute("aria-label", s.held); cards.title = s.held; }
      play.hidden = !(s.play && s.play.length);
      if (s.play && s.play.length) drawCards(play, s.play, { ...look, width: Math.round(look.width * 0.5) });
      else play.replaceChildren();
    },
  });
}

const FAN = 6;  // at most this many backs drawn for a hand; its count says the rest

// A seat's cards: its hand face up, a fan of backs with the count, or its place once out.
function drawSeatCards(box, s, look) {
  const kind = s.hand ? "cards" : s.out ? "out" : s.back != null ? "back" : "";
  if (box.dataset.kind !== kind) {
    box.replaceChildren(); box.dataset.kind = kind; delete box.dataset.count;
    box.className = "seat-cards" + (kind ? ` ${kind}` : "");  // .cards: a hand face up (the replay's layout)
  }
  if (kind === "cards") { drawCards(box, s.hand, look); return; }
  const shown = kind === "out" ? `out:${s.out}` : kind === "back" ? String(s.back) : "";
  if (box.dataset.count === shown) return;
  box.dataset.count = shown;
  if (kind === "out") { box.innerHTML = `<span class="place-badge">${s.out}</span>`; return; }
  if (kind !== "back") { box.replaceChildren(); return; }
  const count = s.back;
  const backs = count === "?" ? 3 : Math.min(count, FAN);
  box.innerHTML = `<span class="fan" aria-hidden="true">${Array.from({ length: backs }, () => backSVG(20)).join("")}</span>` +
    `<span class="count">${count}</span>`;
}
