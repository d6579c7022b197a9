// The table's model: what the page draws, made from the server's messages by one pure
// function. The first message after a (re)connection is a full {"type": "state", "v": n, ...};
// later ones may be deltas of it:
//   {"type": "delta", "v": n, "base": n - 1,
//    "set": {top-level keys (all but obs) that changed, whole values},
//    "merge": {top-level objects that kept their keys: {their keys that changed}} (only if any),
//    "append": {such objects: {their lists that grew at the end: [entries added]}} (only if any),
//    "obs": {"history": [entries appended], "history_len": L, "restart": true (a new deal:
//            "history" is the whole new history; only then),
//            "set": {other obs fields that changed, whole values}, "drop": [obs keys removed]}}
// A delta whose base is not the model's version, or after which the history is not L long,
// cannot be applied: the page asks for {"type": "resync"} and waits for a full state. A full
// state may come at any time and replaces the model.

/** The model after ``message`` (a "state" or a "delta"), or null when a delta does not fit
 * ``model`` (then the page asks for a resync). Neither argument is changed. */
export function reduce(model, message) {
  if (message.type === "state") return { ...message, v: message.v ?? null };
  if (message.type !== "delta" || !model || model.v == null || message.base !== model.v) return null;
  const change = message.obs || {};
  const obs = { ...model.obs, ...(change.set || {}) };  // a history in "set" replaces the old one
  obs.history = [...(change.restart ? [] : obs.history || []), ...(change.history || [])];
  for (const key of change.drop || []) delete obs[key];
  if (change.history_len != null && obs.history.length !== change.history_len) return null;
  const next = { ...model, ...(message.set || {}), type: "state", obs, v: message.v };
  for (const [key, changed] of Object.entries(message.merge || {})) next[key] = { ...model[key], ...changed };
  for (const [key, grown] of Object.entries(message.append || {})) {
    const object = { ...next[key] };
    for (const [field, items] of Object.entries(grown)) object[field] = [...(model[key][field] || []), ...items];
    next[key] = object;
  }
  return next;
}

/** Every step of a replay's answer (POST /api/replay) whole, ``{event, public, hands}``:
 * the first step comes whole, each later one as the delta from the step before, of the
 * state ``{obs: public, hands: {seat: hand}}`` whose version is the step's index; a step
 * may come whole again (server/replay.py). Null when a delta does not fit. */
export function replaySteps(answer) {
  let model = null;
  const steps = [];
  for (const [i, step] of answer.steps.entries()) {
    model = step.delta
      ? reduce(model, step.delta)
      : reduce(null, { type: "state", v: i, obs: step.public, hands: { ...step.hands } });
    if (!model) return null;
    const hands = Array.from({ length: answer.players }, (_, seat) => model.hands[seat] ?? null);
    steps.push({ event: step.event, public: model.obs, hands });
  }
  return steps;
}
