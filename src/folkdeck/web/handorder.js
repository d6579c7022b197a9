// The order the player sees their hand in: by rank, grouped by suit, or the player's own
// arrangement (cards dragged into place). Only the drawing changes: selections and actions
// always name the server's cards, by index.
//
// By rank: the server's order when it already keeps each rank together (a game that sorts
// by rank, its own rank order); otherwise (a game that sends its hand suit by suit, each
// suit weakest to strongest) the cards sorted by their faces, 2 … 10 J Q K, the ace where the
// server's order puts it within a suit (high after a K, low before a 2), suitless cards last.
import { splitCard } from "./cards.js";
import { tableStore } from "./model.js";

const KEY = "folkdeck.hand_order";

// The player's arrangement (the store's ``arrangement``): card codes in the order shown
// (copies repeat), or null.
const arrangement = () => tableStore.state.arrangement;
const arrange = (codes) => tableStore.dispatch({ type: "arrange", codes });

export const handMode = () => (arrangement() ? "custom" : localStorage.getItem(KEY) || "rank");

/** Switches between the game's order and by suit; a custom arrangement is dropped. */
export function nextMode() {
  const mode = handMode() === "rank" ? "suit" : "rank";
  arrange(null); localStorage.setItem(KEY, mode);
  return mode;
}

/** A new deal: the player's arrangement of the last hand is forgotten. */
export function newDeal() { arrange(null); }

/** The indices of ``hand`` in the order they are shown (``notation``: the pack's). */
export function displayOrder(hand, notation = "french") {
  const order = hand.map((_, i) => i);
  const custom = arrangement();
  if (custom) {
    // Cards still held keep their place in the arrangement; new cards go at the end.
    const left = [...order], shown = [];
    for (const code of custom) {
      const k = left.findIndex((i) => hand[i] === code);
      if (k >= 0) shown.push(...left.splice(k, 1));
    }
    return [...shown, ...left];
  }
  if (handMode() === "rank" && !ranksTogether(hand)) return order.sort(byFace(hand, notation));
  if (handMode() === "suit") {
    const suitOf = (i) => splitCard(hand[i]).suit || "~";  // jokers and the like after the suits
    return order.sort((a, b) => (suitOf(a) < suitOf(b) ? -1 : suitOf(a) > suitOf(b) ? 1 : a - b));
  }
  return order;
}

// Whether each rank's cards are next to each other in ``hand``.
function ranksTogether(hand) {
  const seen = new Set();
  for (let i = 0; i < hand.length; i++) {
    const rank = splitCard(hand[i]).rank;
    if (i > 0 && rank === splitCard(hand[i - 1]).rank) continue;
    if (seen.has(rank)) return false;
    seen.add(rank);
  }
  return true;
}

const FACES = ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"];

// A comparison of hand indices by face; the ace high when, in the server's order, an ace
// comes after another card of its suit (the game ranks it above them), low when it comes
// before one; with no such evidence, high in a French pack and low in the Latin ones (1, ás).
function byFace(hand, notation) {
  const cards = hand.map((c) => splitCard(c));
  const after = cards.some((c, i) => c.rank === "A" && i > 0 && cards[i - 1].suit === c.suit);
  const before = cards.some((c, i) => c.rank === "A" && i + 1 < cards.length && cards[i + 1].suit === c.suit);
  const aceHigh = after || (!before && notation === "french");
  const value = (i) => {
    const { rank, suit } = cards[i];
    if (!suit) return 100;  // jokers and the like
    if (rank === "A") return aceHigh ? FACES.length : -1;
    const k = FACES.indexOf(rank);
    return k >= 0 ? k : 50;
  };
  return (a, b) => value(a) - value(b) || a - b;
}

/** Moves the card shown at position ``from`` to position ``to`` (a drag and drop). */
export function moveCard(hand, from, to, notation = "french") {
  const order = displayOrder(hand, notation);
  const [moved] = order.splice(from, 1);
  order.splice(to, 0, moved);
  arrange(order.map((i) => hand[i]));
}
