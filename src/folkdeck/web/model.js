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

// --- the table page's store ------------------------------------------------------------
// The table page (table.js) keeps all its state in one object, changed only by the events
// below through ``tableReduce``: the server's model (``reduce``, above) and the page's own
// state beside it. Each event makes a new object; nothing is changed in place.

/** The table page's state before its first message. ``ref`` numbers the messages the page
 * sends (a random base, so a resent action is recognised by the server across reconnections). */
export function initialTable(ref = Math.floor(Math.random() * 2 ** 40)) {
  return {
    model: null,        // the server's view (reduce), null before the first state
    stale: false,       // a delta did not fit the model: the page asks for the whole state
    socket: null,       // the WebSocket, while one is open or opening
    retry: 500,         // ms before the next reconnection (-1: never: the link opens no seat)
    ref,                // the last ref used
    pending: null,      // the action sent and not yet answered ({type, action, ref, resend})
    selected: [],       // the hand's cards picked (their indices in obs.hand)
    wasMyTurn: false,   // whether the last message wanted the player (a tone when it starts)
    hint: null,         // the last hint answered (shown while its position is on the table)
    hintRef: null,      // the ref of the hint asked for and not yet answered
    showAllLegal: false,  // every legal play as a chip, not only the first few
    dealing: false,     // a new deal has come: its hand is dealt card by card, once
    checking: "",       // the cards last sent to be checked ("check": why they cannot be played)
    arrangement: null,  // the player's own order of the hand: card codes as shown (handorder.js)
    review: null,       // the deal whose review is on its way or shown (review.js)
    tucked: null,       // the result box the player tucked away, "<table>:<deal>" (side.js)
    chat: [],           // the chat lines kept (social.js)
    chatSent: null,     // the chat line sent and not yet echoed: the box keeps it till then
  };
}

/** The table page's state after ``event`` (``{type, ...}``; see each case). */
export function tableReduce(state, event) {
  switch (event.type) {
    case "message": {  // a "state" or "delta" from the server
      const next = reduce(state.model, event.message);
      if (!next) return { ...state, stale: true };
      const newDeal = !!state.model && state.model.table.deal !== next.table.deal;
      return { ...state, model: next, stale: false, dealing: state.dealing || newDeal };
    }
    case "tick": {  // a second passed: the countdowns the table shows
      const table = { ...state.model.table };
      for (const k of ["deadline", "calls"]) if (table[k] != null) table[k] = Math.max(0, table[k] - 1);
      return { ...state, model: { ...state.model, table } };
    }
    case "socket": return { ...state, socket: event.socket };
    case "opened": return { ...state, retry: 500 };
    case "closed":  // a hint asked on a lost connection is not coming: it may be asked again
      return { ...state, socket: null, hintRef: null, retry: state.retry > 0 ? Math.min(state.retry * 2, 8000) : state.retry };
    case "refused": return { ...state, retry: -1 };  // the link opens no seat: no reconnecting
    case "turn": return { ...state, wasMyTurn: event.wanted };
    case "select": return { ...state, selected: event.indices };
    case "toggle": {
      const i = event.index;
      return { ...state, selected: state.selected.includes(i) ? state.selected.filter((x) => x !== i) : [...state.selected, i] };
    }
    case "hand": return { ...state, selected: state.selected.filter((i) => i < event.size) };  // the hand's size now
    case "dealt": return { ...state, dealing: false };
    case "show_all": return { ...state, showAllLegal: !state.showAllLegal };
    case "send":  // one action in flight: a second is not sent
      if (state.pending) return state;
      return { ...state, ref: state.ref + 1, pending: { type: "action", action: event.action, ref: state.ref + 1 } };
    case "sent":  // any later sending is a resend: the server answers it, never plays it twice
      return state.pending ? { ...state, pending: { ...state.pending, resend: true } } : state;
    case "answered": {  // an ack or an error for ``ref``
      const settled = state.pending && state.pending.ref === event.ref;
      const hintLost = event.error && event.ref != null && event.ref === state.hintRef;
      return { ...state, pending: settled ? null : state.pending, selected: event.ack ? [] : state.selected,
        hintRef: hintLost ? null : state.hintRef };
    }
    case "ask_hint": return { ...state, ref: state.ref + 1, hintRef: state.ref + 1, hint: null };
    case "hint": {  // the answer to the hint asked: kept if it speaks of the position on the table
      if (event.hint.ref !== state.hintRef) return state;
      return { ...state, hintRef: null, hint: event.current ? event.hint : null,
        selected: event.current && event.cards ? event.cards : state.selected };
    }
    case "hint_gone": return { ...state, hint: null };
    case "check": return { ...state, checking: event.text, ref: event.text ? state.ref + 1 : state.ref };
    case "arrange": return { ...state, arrangement: event.codes };  // null: the chosen mode's order
    case "review": return { ...state, review: event.deal };  // null: closed
    case "tuck": return { ...state, tucked: event.key };
    case "chat_log": return { ...state, chat: event.messages.slice(-event.kept) };
    case "chat_line": return { ...state, chat: [...state.chat, event.message].slice(-event.kept) };
    case "chat_sent": return { ...state, chatSent: event.text };
    default: throw new Error(`no such table event: ${event.type}`);
  }
}

/** The table page's store (table.js and the modules it draws with). */
export const tableStore = createStore((state, event) => tableReduce(state, event), initialTable());

/** A store: ``state`` now, and ``dispatch(event)``, which makes the next state by
 * ``reducer`` and returns it. The page's one place of state. */
export function createStore(reducer, state) {
  const store = {
    state,
    dispatch(event) { store.state = reducer(store.state, event); return store.state; },
  };
  return store;
}
