// The order the player sees their hand in: the game's order (by rank, as the server sends
// it), grouped by suit, or the player's own arrangement (cards dragged into place). Only the
// drawing changes: selections and actions always name the server's cards, by index.
import { splitCard } from "./cards.js";

const KEY = "folkdeck.hand_order";

let custom = null;  // the player's arrangement: card codes in the order shown (copies repeat)

export const handMode = () => (custom ? "custom" : localStorage.getItem(KEY) || "rank");

/** Switches between the game's order and by suit; a custom arrangement is dropped. */
export function nextMode() {
  const mode = handMode() === "rank" ? "suit" : "rank";
  custom = null; localStorage.setItem(KEY, mode);
  return mode;
}

/** A new deal: the player's arrangement of the last hand is forgotten. */
export function newDeal() { custom = null; }

/** The indices of ``hand`` in the order they are shown. */
export function displayOrder(hand) {
  const order = hand.map((_, i) => i);
  if (custom) {
    // Cards still held keep their place in the arrangement; new cards go at the end.
    const left = [...order], shown = [];
    for (const code of custom) {
      const k = left.findIndex((i) => hand[i] === code);
      if (k >= 0) shown.push(...left.splice(k, 1));
    }
    return [...shown, ...left];
  }
  if (handMode() === "suit") {
    const suitOf = (i) => splitCard(hand[i]).suit || "~";  // jokers and the like after the suits
    return order.sort((a, b) => (suitOf(a) < suitOf(b) ? -1 : suitOf(a) > suitOf(b) ? 1 : a - b));
  }
  return order;
}

/** Moves the card shown at position ``from`` to position ``to`` (a drag and drop). */
export function moveCard(hand, from, to) {
  const order = displayOrder(hand);
  const [moved] = order.splice(from, 1);
  order.splice(to, 0, moved);
  custom = order.map((i) => hand[i]);
}
