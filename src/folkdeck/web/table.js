// The table: renders each state message (the seat's view and the table's public data) and
// sends actions in record notation. It reads only the core view fields every game shares
// (hand, counts, to_act, current_seat, legal_actions, table, top, passed, out, stock, status,
// history, result) and what the game's spec says (card_notation, teams, windows): a game's
// words come from the message catalog (facts, terms), never from code here.
import { cardName, splitCard } from "./cards.js";
import { Renderer, lang, setLang, loadCatalogs, applyStatic, gameTitle, t, has } from "./i18n.js";
import { renderMarkdown } from "./markdown.js";
import { setupSocial, renderSocial, chatLog, chatMessage } from "./social.js";
import { displayOrder, handMode, moveCard, newDeal, nextMode } from "./handorder.js";
import { hintText, current as hintIsCurrent } from "./hint.js";
import { askReview, showReview } from "./review.js";
import { renderSide } from "./side.js";
import { tableSeats } from "./seats.js";
import { cardsLabel, drawCards, drawSeats, setText } from "./view.js";
import { tableStore } from "./model.js";
import { botName } from "./players.js";
import { fitHand, moveFromSeats } from "./layout.js";
import { drawBoard } from "./board.js";

const $ = (id) => document.getElementById(id);
const params = new URLSearchParams(location.search);
const tableId = params.get("t"), token = params.get("k");
// The page's one store (model.js): the server's model and the page's own state, changed
// only by ``dispatch``; ``S()`` is the state now, ``model()`` the server's part of it.
const store = tableStore;
const S = () => store.state;
const model = () => store.state.model;
const dispatch = (event) => store.dispatch(event);
const open = () => S().socket && S().socket.readyState === 1;

const cardW = () => parseInt(getComputedStyle(document.documentElement).getPropertyValue("--card-w")) || 64;
const upper = (s) => (lang === "en" && s ? s[0].toUpperCase() + s.slice(1) : s);

// Seats' names for the text: a player's name (a bot's of the page's language: players.js),
// with its seat when two seats share it.
function seatNames(table) {
  const shown = table.seats.map((s, i) => (s.kind === "bot" ? botName(i, s.name) : s.name));
  return shown.map((name, i) => {
    const twice = shown.filter((o) => o === name).length > 1;
    return twice ? `${name} (${new Renderer().message("seat.name", { n: i }, { sentence: false })})` : name;
  });
}

// The renderer of this table for this viewer: seats by name ("you" for the viewer), cards in
// the pack's notation with suit symbols (a Latin pack's by its suits' names: "12 espadas").
function rendererOf(msg) {
  const { table } = msg;
  return new Renderer({ game: table.game, viewer: msg.you, names: seatNames(table), notation: table.card_notation, symbols: true, suitWords: true });
}

// How this table draws cards (view.js): the pack's faces at the page's card width.
const lookOf = (R) => ({ notation: model().table.card_notation, width: cardW(), R });

// The legal actions come as data (obs.legal, folkdeck.engine.action_data): each its
// notation (what is sent back), its kind ("play": cards from the hand, else its word), the
// cards it names by code, or by rank whatever their suit (Gou Ji's sets), the seats it names.
// The page reads no action text.
const legalOf = (obs) => obs.legal || [];
const actionCards = (d) => [...(d.cards || []), ...(d.ranks || [])];

// The cards of ``codes`` an action uses (indices), or null if they do not hold its cards:
// its cards by code first, then its ranks by any card of that rank.
function cardsFor(d, codes) {
  const used = [];
  const take = (fits) => {
    const idx = codes.findIndex((c, i) => !used.includes(i) && fits(c));
    if (idx >= 0) used.push(idx);
    return idx >= 0;
  };
  for (const code of d.cards || []) if (!take((c) => c === code)) return null;
  for (const rank of d.ranks || []) if (!take((c) => splitCard(c).rank === rank)) return null;
  return used;
}

// Whether the selected cards (codes) are exactly an action's cards.
const sameCards = (d, picked) => picked.length === actionCards(d).length && cardsFor(d, picked) !== null;

// The data of an action the server named by its notation (a hint's), if it is legal now.
const legalData = (action) => legalOf(model()?.obs || {}).find((d) => d.action === action) || null;

// A button's label: the action's word as the catalog names it (term.<game>.action.<kind>,
// the game's term, the browser's few generic words), its detail the same way, its cards in
// the pack's notation, its seats by name.
function actionLabel(R, d) { return upper(actionWords(R, d)); }

// An action word as what it does, which may depend on the window the view says is open (Gou
// Ji's "no": "don't declare" when asked to declare, "no revolution"...): the term may be a
// form that selects by ``window``.
function actionTerm(R, w) {
  const key = has(`term.${R.game}.action.${w}`) ? `term.${R.game}.action.${w}` : `term.action.${w}`;
  return R.message(key, { window: model()?.obs?.window ?? "" }, { sentence: false });
}

// An action's words inside a sentence (a hint, a review): not capitalised. ``d`` is its data,
// or (an action the server sent no data of) its notation, shown as it is.
function actionWords(R, d) {
  if (typeof d === "string" || !d) return d || "";
  const word = (w) => (R.hasTerm(`action.${w}`) ? actionTerm(R, w) : R.hasTerm(w) ? R.term(w)
    : has(`ui.action.${w}`) ? R.ui(`action.${w}`) : w);
  const cards = actionCards(d);
  return [d.kind === "play" ? "" : word(d.kind), d.detail ? word(d.detail) : "",
    cards.length ? R.cards(cards) : "", (d.seats || []).map((s) => R.seat(s)).join(" ")].filter(Boolean).join(" ");
}

// A message to the server now, if the connection is up (false if it is not).
function sendRaw(m) { if (!open()) return false; S().socket.send(JSON.stringify(m)); return true; }

// The tab's title says when the player is wanted, so another tab or window can wait; a tone
// when the turn comes (if asked for). Said on every message, even one drawn with the next.
function announce(msg, R) {
  const { table, obs } = msg;
  const title = gameTitle(table.game, table.title);
  const wanted = !obs.result && (msg.on_turn || msg.may_act);
  document.title = wanted ? `● ${R.ui(msg.on_turn ? "your_turn" : "you_may_act")} · ${title} · folkdeck` : `${title} · folkdeck`;
  if (wanted && !S().wasMyTurn) chime();
  dispatch({ type: "turn", wanted });
}

function render(msg) {
  const { table } = msg;
  const R = rendererOf(msg);
  document.body.dataset.progress = `${table.deal}:${table.actions}`;  // tests wait on changes
  const title = gameTitle(table.game, table.title);
  announce(msg, R);
  $("title").textContent = title;
  $("watching").hidden = msg.you != null;
  $("deal").textContent = R.ui("deal_of", { deal: table.match_deal ?? table.deal, deals: table.deals }) + (table.practice ? ` · ${R.ui("practice")}` : "");
  drawSeats($("seats"), tableSeats(msg, R, seatNames(table)), lookOf(R));
  $("seats").className = `seats players-${table.seats.length}`;
  renderCenter(msg, R);
  renderStatus(msg, R);
  $("auto").hidden = !msg.auto;
  renderHand(msg, R);
  renderSide(msg, R, askFor);
  renderSocial(msg);
  speak(msg, R);
}

// The live region (#announce) says each new play and whose turn it is, for a screen reader.
function speak(msg, R) {
  const history = msg.obs.history || [];
  const lastEvent = history.length ? R.event(history[history.length - 1]) : "";
  const turn = msg.obs.result ? R.ui("deal_over") : msg.on_turn ? R.ui("your_turn")
    : msg.obs.current_seat != null ? R.ui("turn_of", { seat: msg.obs.current_seat }) : "";
  setText($("announce"), [lastEvent, upper(turn)].filter(Boolean).join(". "));
}

// The middle of the table (board.js, drawn alike in the replay viewer); the newest play
// slides in once, when it has just been made (not on every redraw).
function renderCenter(msg, R) {
  const key = `${msg.table.deal}:${msg.table.actions}`;
  const fresh = renderCenter.seen !== undefined && renderCenter.seen !== key;
  renderCenter.seen = key;
  drawBoard($("center"), msg.obs, R, lookOf(R), { fresh, ring: true });
  if (fresh) moveFromSeats(msg.obs.history);
}

function renderStatus(msg, R) {
  const { table, obs } = msg;
  const status = $("status");
  const mine = msg.on_turn;
  status.className = "status" + (mine ? " mine" : "");
  const secs = table.deadline != null ? " · " + R.ui("seconds_left", { seconds: Math.ceil(table.deadline) }) : "";
  // The bot on turn waits for out-of-turn calls: every view says so alike (never who may call).
  const calls = table.calls != null && !obs.result ? " · " + R.ui("calls_wait", { seconds: Math.max(1, Math.ceil(table.calls)) }) : "";
  status.textContent = obs.result ? R.ui("deal_over") : mine ? R.ui("your_turn") + secs
    : msg.may_act ? R.ui("you_may_act") + secs + calls
      : obs.current_seat != null ? R.ui("turn_of", { seat: obs.current_seat }) + secs + calls
        : msg.you == null ? R.ui("spectating") : R.ui("waiting");
}

const LEGAL_SHOWN = 24;

// The hand's cards in the order the player chose (handorder.js): a click selects a card, a
// drag moves it; ``picking``: some play can be made of them (else no card is dimmed).
// A new deal's hand is dealt card by card (style.css), once (the state's ``dealing``).
function drawHand(hand, notation, playable, picking, R) {
  const box = $("hand");
  if (S().dealing && hand.length) {
    dispatch({ type: "dealt" }); box.classList.add("dealing");
    clearTimeout(drawHand.dealt); drawHand.dealt = setTimeout(() => box.classList.remove("dealing"), 1500);
  }
  box.className = "hand" + (picking ? "" : " idle") + (box.classList.contains("dealing") ? " dealing" : "");  // nothing to pick: no card is dimmed
  const order = displayOrder(hand, notation);
  const { selected } = S();
  // Each card is kept by its code and copy (view.js): a message rewrites only its classes,
  // and the handlers, which name its place in the hand now.
  drawCards(box, order.map((i) => hand[i]), lookOf(R), {
    classOf: (_, pos) => "card " + (playable.has(order[pos]) ? "playable" : "") + (selected.includes(order[pos]) ? " selected" : ""),
    each: (el, _, pos) => {
      const i = order[pos];
      el.dataset.index = i; el.tabIndex = 0; el.setAttribute("role", "button");
      el.style.setProperty("--i", pos);  // its turn in the deal's motion
      el.onclick = () => { dispatch({ type: "toggle", index: i }); renderHand(model()); };
      // Keyboard play: Enter or Space picks the focused card, arrows move along the hand.
      el.setAttribute("aria-pressed", String(selected.includes(i)));
      el.onkeydown = (ev) => {
        if (ev.key === "Enter" || ev.key === " ") { ev.preventDefault(); el.click(); }
        else if (ev.key === "ArrowRight" || ev.key === "ArrowLeft") {
          ev.preventDefault();
          (ev.key === "ArrowRight" ? el.nextElementSibling : el.previousElementSibling)?.focus();
        }
      };
      // Drag a card to another place in the hand: the player's own arrangement.
      el.draggable = true;
      el.ondragstart = (ev) => { ev.dataTransfer.setData("text/plain", String(pos)); ev.dataTransfer.effectAllowed = "move"; };
      el.ondragover = (ev) => { ev.preventDefault(); ev.dataTransfer.dropEffect = "move"; };
      el.ondrop = (ev) => {
        ev.preventDefault();
        const from = Number(ev.dataTransfer.getData("text/plain"));
        if (Number.isInteger(from) && from !== pos) { moveCard(hand, from, pos, notation); renderHand(model()); }
      };
    },
  });
}

function renderHand(msg, R = rendererOf(msg)) {
  const { obs, table } = msg;
  const hand = obs.hand || [];
  const legal = legalOf(obs);
  const windows = new Set(table.windows || []);
  const onTurn = msg.on_turn;
  // Out of turn: whatever the seat is offered while another is on turn, and the game's
  // out-of-turn rights (GameSpec.windows) even when it is on turn.
  const outOfTurn = (d) => !onTurn || windows.has(d.kind);
  const cardActions = new Map(); const buttons = [];
  for (const d of legal) {
    const used = d.kind === "play" && !outOfTurn(d) ? cardsFor(d, hand) : null;
    if (used && hand.length) cardActions.set(d, used); else buttons.push(d);
  }
  // Every card that can take part in a legal play: a play named by ranks may use any copy.
  const playable = new Set();
  for (const d of cardActions.keys()) {
    hand.forEach((c, i) => { if ((d.cards || []).includes(c) || (d.ranks || []).includes(splitCard(c).rank)) playable.add(i); });
  }
  dispatch({ type: "hand", size: hand.length });
  const { selected, pending, hint, hintRef } = S();
  drawHand(hand, table.card_notation, playable, cardActions.size > 0, R);
  fitHand($("hand"), hand.length, cardW());
  const sort = $("sort");
  sort.hidden = hand.length < 2;
  sort.textContent = R.ui(`hand_order.${handMode()}`);
  sort.title = R.ui("hand_order.help");
  const picked = selected.map((i) => hand[i]);
  const chosen = [...cardActions.entries()].find(([d]) => sameCards(d, picked));
  explain(cardActions.size && picked.length && !chosen ? picked.join(" ") : "");
  const actions = $("actions"); actions.replaceChildren();
  const oot = $("oot"); oot.replaceChildren();
  if (cardActions.size) {
    const play = button(R.ui("play"), "primary", () => send(chosen[0].action)); play.id = "play"; play.disabled = !chosen || !!pending;
    if (chosen) play.textContent = R.ui("play_cards", { cards: actionCards(chosen[0]) });
    actions.append(play, button(R.ui("clear"), "", () => { dispatch({ type: "select", indices: [] }); renderHand(model()); }));
  }
  for (const d of buttons) {
    const special = outOfTurn(d);
    const b = button(actionLabel(R, d), special ? "oot" : "primary", () => send(d.action));
    b.dataset.action = d.action; b.disabled = !!pending;  // one action at a time: a pass waits as a play does
    (special ? oot : actions).append(b);
  }
  if (oot.childElementCount) oot.prepend(R.ui("out_of_turn") + " ");
  if (msg.may_act && legal.length > 1) {
    const h = button(R.ui("hint"), "", askHint); h.id = "hint-btn"; h.disabled = hintRef != null;
    actions.append(h);
  }
  for (const b of document.querySelectorAll("button[data-action]")) b.classList.toggle("hinted", !!hint && hintIsCurrent(hint, msg.table) && b.dataset.action === hint.action);
  const box2 = $("hint");
  if (hint && hintIsCurrent(hint, msg.table)) { box2.textContent = hintText(R, hint, (a) => actionWords(R, legalData(a) || a)); box2.hidden = false; }
  else if (hintRef == null) { box2.hidden = true; if (hint) dispatch({ type: "hint_gone" }); }
  drawLegal(cardActions, R);
}

// The legal plays of hand cards as chips: a click selects that play's cards.
function drawLegal(cardActions, R) {
  const list = $("legal"); list.replaceChildren();
  if (cardActions.size) {
    list.append(R.ui("legal") + " ");
    // A lead can have thousands of plays: show the first few unless asked.
    const entries = [...cardActions];
    const { showAllLegal } = S();
    const shown = showAllLegal ? entries : entries.slice(0, LEGAL_SHOWN);
    for (const [d, used] of shown) {
      const b = button("", "", () => { dispatch({ type: "select", indices: [...used] }); renderHand(model()); });
      cardsLabel(b, actionCards(d), lookOf(R));
      b.dataset.legal = d.action; b.title = actionCards(d).map((c) => cardName(R, c)).join(R.ui("list_separator")); list.append(b);
    }
    if (entries.length > LEGAL_SHOWN) {
      const more = button(showAllLegal ? R.ui("fewer") : R.ui("more", { count: entries.length - LEGAL_SHOWN }), "link",
        () => { dispatch({ type: "show_all" }); renderHand(model()); });
      more.id = "legal-more"; list.append(more);
    }
  }
}

// Why the selected cards cannot be played: the engine says (a "check" message: the rule
// that refuses them, rendered in the player's language), never a guess made here.
// Asks the server for a hint (a search over deals that fit what this seat has seen); the
// answer selects the cards it would play, or marks its button, and says why.
function askHint() {
  if (!open() || S().hintRef != null || !model()) return;
  dispatch({ type: "ask_hint" });
  sendRaw({ type: "hint", ref: S().hintRef });
  const box = $("hint"); box.textContent = rendererOf(model()).ui("hint.thinking"); box.hidden = false;
  renderHand(model());
}

function hinted(msg) {
  if (msg.ref !== S().hintRef) return;
  const last = model();
  const current = !!last && hintIsCurrent(msg, last.table);
  const data = current ? legalData(msg.action) : null;
  const used = data && data.kind === "play" ? cardsFor(data, last.obs.hand || []) : null;
  dispatch({ type: "hint", hint: msg, current, cards: used && used.length ? used : null });
  if (!current) $("hint").hidden = true;
  if (last) renderHand(last);
}

function explain(text) {
  const why = $("why");
  if (text === S().checking) return;
  dispatch({ type: "check", text });
  why.textContent = ""; why.hidden = true;
  if (text) sendRaw({ type: "check", action: text, ref: S().ref });
}

function explained(msg) {
  if (msg.action !== S().checking || msg.ok) return;
  const why = $("why");
  why.textContent = upper((model() ? rendererOf(model()) : new Renderer()).error(msg));
  why.hidden = false;
}

function button(text, cls, fn) { const b = document.createElement("button"); b.textContent = text; if (cls) b.className = cls; b.onclick = fn; return b; }

// A refusal ({error: code, reason, params}): its heading by code when the browser has one
// (ui.error.<code>), then the reason in the player's language from the catalog.
function showError(err) {
  const R = model() ? rendererOf(model()) : new Renderer();
  const reason = R.error(err);
  const headKey = `ui.error.${err.error}`;
  const text = has(headKey) ? `${R.ui(`error.${err.error}`)}: ${reason}` : upper(reason);
  const e = $("error"); e.textContent = text; e.hidden = false; e.dataset.code = err.error || "";
  clearTimeout(showError.timer); showError.timer = setTimeout(() => { e.hidden = true; }, 5000);
}

// An action is sent once and kept until the server answers it: a click while the connection
// is down is sent when it is back, and an action whose answer was lost is sent again with the
// same ref (the server answers a ref it has committed with its first answer, never a second play).
function send(action) {
  if (S().pending) return;  // one action in flight: a second click does not send another
  dispatch({ type: "send", action });
  transmit();
  if (!open()) connection(false);  // the banner now says the move is kept
  if (model()) renderHand(model());
}

function transmit() {
  if (S().pending && sendRaw(S().pending)) dispatch({ type: "sent" });  // any later sending is a resend
}

function settle(msg) {
  const was = S().pending;
  dispatch({ type: "answered", ref: msg.ref, ack: msg.type === "ack", error: msg.type === "error" });
  if (was && !S().pending && model()) renderHand(model());
}

// The connection's state, shown in a banner: lost (reconnecting, clicks kept) or back.
function connection(up) {
  const banner = $("conn");
  document.body.classList.toggle("offline", !up);
  clearTimeout(connection.timer);
  if (!up) {
    banner.textContent = t(S().pending ? "table.offline_pending" : "table.offline");
    banner.className = "conn down"; banner.hidden = false;
  } else if (!banner.hidden) {
    banner.textContent = t("table.reconnected"); banner.className = "conn up";
    connection.timer = setTimeout(() => { banner.hidden = true; }, 2500);
  }
}

// A short tone when it becomes the player's turn, if they asked for sound (off by default).
const soundOn = () => localStorage.getItem("folkdeck.sound") === "on";
function chime() {
  if (!soundOn() || !window.AudioContext) return;
  const ctx = chime.ctx || (chime.ctx = new AudioContext());
  const osc = ctx.createOscillator(), gain = ctx.createGain();
  osc.frequency.value = 660; gain.gain.setValueAtTime(0.08, ctx.currentTime);
  gain.gain.exponentialRampToValueAtTime(0.0001, ctx.currentTime + 0.35);
  osc.connect(gain).connect(ctx.destination); osc.start(); osc.stop(ctx.currentTime + 0.35);
}

function showSound() {
  const b = $("sound");
  b.textContent = "♪";  // struck through while off (style.css): every font has this sign
  b.setAttribute("aria-pressed", String(soundOn()));
  b.title = t(soundOn() ? "table.sound_on" : "table.sound_off");
  b.setAttribute("aria-label", b.title);
}

// Asks for the review of a finished deal (a button of the deal-over box or of Results).
function askFor(deal) {
  askReview(deal, rendererOf(model()), sendRaw);
  renderSide(model(), rendererOf(model()), askFor);
}

function reviewed(msg) {
  const R = rendererOf(model());
  showReview(msg, R, (a, d) => actionWords(R, d || a), () => renderSide(model(), rendererOf(model()), askFor));
  renderSide(model(), R, askFor);
}

// A state or a delta: the model after it is drawn; a delta that does not fit the model asks
// for the whole state again (model.js).
function follow(msg) {
  const before = model();
  const next = dispatch({ type: "message", message: msg }).model;
  if (S().stale) { sendRaw({ type: "resync" }); return; }
  if (before && before.table.deal !== next.table.deal) newDeal();
  announce(next, rendererOf(next));
  // The page is drawn once a frame with the newest model: a burst of messages (bots playing
  // at once) is one redraw, never a backlog the page falls behind on (a hidden tab: soon).
  if (!follow.frame) follow.frame = (document.hidden ? (f) => setTimeout(f, 100) : requestAnimationFrame)(() => { follow.frame = 0; render(model()); });
}

function connect() {
  const proto = location.protocol === "https:" ? "wss" : "ws";
  const ws = new WebSocket(`${proto}://${location.host}/ws/${encodeURIComponent(tableId)}?k=${encodeURIComponent(token || "")}`);
  dispatch({ type: "socket", socket: ws });
  ws.onopen = () => { dispatch({ type: "opened" }); connection(true); transmit(); };
  ws.onmessage = (ev) => {
    const msg = JSON.parse(ev.data);
    if (msg.type === "state" || msg.type === "delta") { follow(msg); }
    else if (msg.type === "ack") { settle(msg); }
    else if (msg.type === "check") { explained(msg); }
    else if (msg.type === "chat") { chatMessage(msg); }
    else if (msg.type === "hint") { hinted(msg); }
    else if (msg.type === "review") { reviewed(msg); }
    else if (msg.type === "chat_log") { chatLog(msg.messages); }
    else if (msg.type === "error") {
      if (msg.ref != null && msg.ref === S().hintRef) $("hint").hidden = true;
      settle(msg); showError(msg);
      // A link that opens no seat: no reconnecting, and the page keeps saying why.
      if (msg.error === "bad_token") { dispatch({ type: "refused" }); clearTimeout(showError.timer); $("status").textContent = $("error").textContent; }
    }
  };
  ws.onclose = () => {
    const wait = S().retry;
    dispatch({ type: "closed" });  // a hint asked on a lost connection is not coming: it may be asked again
    if (wait > 0) { connection(false); setTimeout(connect, wait); }
  };
}

async function showRules() {
  if (!model()) return;
  const resp = await fetch(`/api/games/${encodeURIComponent(model().table.game)}/rules?lang=${lang}`);
  $("rules-body").innerHTML = resp.ok ? renderMarkdown((await resp.json()).markdown) : "—";
  $("rules").showModal();
}

async function init() {
  await loadCatalogs();
  applyStatic();
  $("lang").textContent = t("other_language");
  $("lang").onclick = async () => {
    await setLang(lang === "ja" ? "en" : "ja"); applyStatic(); $("lang").textContent = t("other_language");
    showSound();
    if (model()) render(model());
  };
  $("rules-btn").onclick = showRules;
  $("sort").onclick = () => { nextMode(); if (model()) renderHand(model()); };
  showSound();
  $("sound").onclick = () => { localStorage.setItem("folkdeck.sound", soundOn() ? "off" : "on"); showSound(); chime(); };
  window.addEventListener("offline", () => connection(false));
  window.addEventListener("online", () => { if (open()) connection(true); });
  $("resume").onclick = () => sendRaw({ type: "resume" });
  setupSocial({ tableId, token, onError: showError, send: sendRaw });
  setInterval(() => {
    const last = model();
    if (!last || (last.table.deadline == null && last.table.calls == null)) return;
    dispatch({ type: "tick" });  // a new model: a delta's base is never changed in place
    renderStatus(model(), rendererOf(model()));  // only the countdown: a button being clicked is not redrawn
  }, 1000);
  window.addEventListener("resize", () => model() && render(model()));
  connect();
}
init();
