// After a deal: the search bot weighs each of the player's decisions (the server's
// {"type": "review", "deal", "verdicts"}) and the costly ones are marked. The words are the
// catalog's ui.review.*; a verdict's values are the seat's mean return per deal. Every
// finished deal of the match can be reviewed (its row in Results has the button), and a
// review stays on screen through the next deals until it is closed.
import { tableStore } from "./model.js";

const $ = (id) => document.getElementById(id);
const signed = (v) => `${v > 0 ? "+" : ""}${Number(v).toFixed(2)}`;
// The deal whose review is on its way or shown: the store's ``review``.
const asked = () => tableStore.state.review;
const ask = (deal) => tableStore.dispatch({ type: "review", deal });

/** Whether the review of ``deal`` was asked for (so the button is not offered again). */
export const reviewAsked = (deal) => asked() === deal;

/** Asks for the review of ``deal``; ``send`` sends a WebSocket message. */
export function askReview(deal, R, send) {
  if (asked() === deal || !send({ type: "review", deal })) return;
  ask(deal);
  const box = $("review"); box.hidden = false;
  box.replaceChildren(Object.assign(document.createElement("p"), { textContent: R.ui("review.thinking") }));
}

/** Closes the review shown (it stays through later deals until closed or another is asked). */
export function closeReview() {
  ask(null); $("review").hidden = true; $("review").replaceChildren();
}

/** Shows a review; ``label(notation, data)`` names an action as the table's buttons do; ``onClose`` runs
 * when the player closes it (the table offers its button again). */
export function showReview(msg, R, label, onClose = () => {}) {
  if (msg.deal !== asked()) return;
  const box = $("review");
  const title = Object.assign(document.createElement("h3"), { textContent: R.ui("review.title", { deal: msg.deal }) });
  const costly = msg.verdicts.filter((v) => v.costly).length;
  const summary = Object.assign(document.createElement("p"), { textContent: R.ui("review.summary", { count: costly, total: msg.verdicts.length }) });
  const list = document.createElement("ol"); list.className = "review-list";
  for (const v of msg.verdicts) {
    const li = document.createElement("li"); li.dataset.index = v.index;
    if (v.costly) li.className = "costly";
    const params = { step: v.index + 1, chosen: label(v.chosen, v.chosen_data), best: label(v.best, v.best_data) };
    li.textContent = v.by !== "search" ? R.ui("review.bot", params)
      : v.chosen === v.best ? R.ui("review.same", { ...params, value: signed(v.best_value) })
        : v.chosen_value == null ? R.ui("review.unweighed", { ...params, value: signed(v.best_value) })
          : R.ui(v.chosen_value >= v.best_value ? "review.as_good" : "review.other",
            { ...params, cost: signed(v.cost), value: signed(v.chosen_value), best_value: signed(v.best_value) });
    if (v.costly) li.prepend(Object.assign(document.createElement("strong"), { textContent: `${R.ui("review.costly")} ` }));
    list.append(li);
  }
  const close = Object.assign(document.createElement("button"), { type: "button", className: "link close", textContent: R.ui("review.close") });
  close.onclick = () => { closeReview(); onClose(); };
  box.replaceChildren(close, title, summary, list);
  box.hidden = false;
}
