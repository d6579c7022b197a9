// Where the table's things sit and how they move: the hand's overlap (as little as fits) and
// the motion that explains a play (from its seat) and a won trick (toward its winner).

// How much the hand's cards overlap (``w``: a card's width): none while they fit; else the
// fewest rows (four at most) in which each card still shows a strip wide enough to read, and
// on a phone to tap (44 CSS px: a hand with room keeps each card a finger's size; a 36-card
// Gou Ji hand takes four rows of narrower strips). A 36-card hand is one row at 1280 px,
// never three rows pushing the plays below the fold.
export function fitHand(box, n, w) {
  const gap = 4;
  const width = box.clientWidth - 16;  // its padding and a little room for rounding
  const phone = matchMedia("(max-width: 760px)").matches;
  const wanted = phone ? 44 : 22, least = phone ? 26 : 22;
  let step = w + gap;
  for (let rows = 1; n > 1 && rows <= 4; rows++) {
    step = Math.min(w + gap, (width - w) / Math.max(1, Math.ceil(n / rows) - 1));
    if (step >= wanted) break;
  }
  box.style.setProperty("--overlap", `${Math.max(0, Math.ceil(w + gap - Math.max(step, least)))}px`);
}

// Motion that explains (style.css, only without prefers-reduced-motion): a new play comes from
// its seat to the middle, and a trick just won moves a little way toward its winner. Each
// starts from the vector between the seat and the cards (--dx, --dy).
export function moveFromSeats(history) {
  const towards = (el, seat) => {
    const from = document.querySelector(`#seats .seat[data-seat="${seat}"]`);
    if (!from || !el) return;
    const a = from.getBoundingClientRect(), b = el.getBoundingClientRect();
    el.style.setProperty("--dx", `${Math.round(a.left + a.width / 2 - (b.left + b.width / 2))}px`);
    el.style.setProperty("--dy", `${Math.round(a.top + a.height / 2 - (b.top + b.height / 2))}px`);
  };
  const play = document.querySelector("#trick figure.fresh");
  if (play) towards(play, play.dataset.seat);
  const won = document.getElementById("last-trick");
  if (won) {
    const facts = (history || []).flatMap((ev) => ev.facts || []).filter((f) => f.type === "trick_won");
    if (facts.length) { towards(won, facts[facts.length - 1].seat); won.classList.add("going"); }
  }
}
