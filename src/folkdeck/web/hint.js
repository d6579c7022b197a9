// The hint: what a search bot would play here, and why, in words from the catalog. The
// server sends data ({action, by, values: [{action, value, worlds}], position}); the words
// are the catalog's ui.hint.* (values are the seat's mean return per deal, in the game's unit).
const signed = (v) => `${v > 0 ? "+" : ""}${Number(v).toFixed(2)}`;

/** The hint's explanation; ``label`` names an action as the buttons do. */
export function hintText(R, hint, label) {
  if (hint.by !== "search" || !hint.values.length) return R.ui("hint.bot", { action: label(hint.action) });
  const [best, next] = hint.values;
  const text = R.ui("hint.search", { action: label(best.action), worlds: best.worlds, value: signed(best.value) });
  if (!next) return `${text} ${R.ui("hint.only")}`;
  // The bot's order is its rule's (ISMCTS: visits; Gou Ji: a confidence rule), so the next may average more.
  const key = next.value > best.value ? "hint.next_unsure" : "hint.next";
  return `${text} ${R.ui(key, { action: label(next.action), value: signed(next.value) })}`;
}

/** Whether a hint still speaks of the position on the table. */
export const current = (hint, table) => hint && hint.position[0] === table.deal && hint.position[1] === table.actions;
