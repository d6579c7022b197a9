// The replay viewer: draws the table of a finished deal (every hand face up) and steps
// through it — forward, back, to a trick, to any event — for a deal record
// (folkdeck-record/1) or a whole match (folkdeck-match/1, deal by deal, with what the
// match reported around each deal and the final standings). The server replays the record
// (POST /api/replay) and answers with the public view and every hand at each step: the first
// step whole, each later one as what changed since the step before, in the table's delta
// format, which model.js applies here as it does at the table. All text is made here from
// the message catalogs, none comes from the server.
import { ringPlace, ringSide, seatStanding } from "./seats.js";
import { drawBoard } from "./board.js";
import { resultRows } from "./result.js";
import { drawSeats, patchList, setClass, setText } from "./view.js";
import { replaySteps } from "./model.js";
import { botBadge, botName, defaultBotKind } from "./players.js";
import { Renderer, loadCatalogs, applyStatic, setLang, lang, t, gameTitle } from "./i18n.js";

const $ = (id) => document.getElementById(id);
const el = (tag, cls, text) => {
  const node = document.createElement(tag);
  if (cls) node.className = cls;
  if (text != null) node.textContent = text;
  return node;
};

const AUTOPLAY_MS = 900;
let source = null;     // {text} of the loaded record, or {table} for a table's match download
let data = null;       // the server's answer for the current deal
let at = 0;            // the step shown
let tricks = [];       // the first step of each trick
let timer = null;      // autoplay
let spec = null;       // the game's spec (card notation, title)
let R = new Renderer();

// --- what the steps say ---------------------------------------------------------------

// The step's event as the table's history shows it: the public view after the step holds
// the event with its action as a fact; the record's event adds every fact (all hands are open).
function stepEvent(step) {
  if (!step.event) return null;
  const history = (step.public && step.public.history) || [];
  const seen = history[history.length - 1];
  return { seat: step.event.seat, action: step.event.action, act: seen ? seen.act : null, facts: step.event.facts };
}

// A trick starts at step 1 and after every step whose facts say a trick was won: the game
// declares it with the shared `trick_won` fact, so the viewer knows no game.
function findTricks(steps) {
  const starts = steps.length > 1 ? [1] : [];
  steps.forEach((step, i) => {
    if (i > 0 && i + 1 < steps.length && (step.event?.facts || []).some((f) => f.type === "trick_won")) starts.push(i + 1);
  });
  return starts;
}

const trickAt = (step) => tricks.filter((s) => s <= step).length;

// --- drawing ---------------------------------------------------------------------------

// How the replay draws cards (view.js): the pack's faces, small on the seats.
const look = (width) => ({ notation: spec?.card_notation || "french", width, R });

// The seats as the table page describes them (view.js drawSeats), every hand face up: each
// seat's cards, what it has done (passed, its place) and whether it is to act.
function replaySeats(step) {
  const view = step.public;
  return Array.from({ length: data.players }, (_, seat) => {
    const hand = step.hands[seat];
    const count = hand ? hand.length : view.counts?.[seat];
    const facts = count != null ? [R.ui("cards_held", { count })] : [];
    const standing = seatStanding(view, seat, R);
    if (standing) facts.push(standing);
    else if ((view.passed || []).includes(seat)) facts.push(R.ui("passed"));
    const toAct = (view.to_act || []).includes(seat);
    if (toAct) facts.push(R.ui("replay.to_act"));
    const acted = step.event && step.event.seat === seat;
    const kind = defaultBotKind(source?.names?.[seat]);
    return { seat, name: R.seat(seat), tag: kind ? botBadge(kind) : "", tagClass: kind ? "bot-badge" : "", online: null, facts,
      classes: [...(toAct ? ["to-act"] : []), ...(acted ? ["just-acted"] : [])],
      hand: hand || null, back: hand ? null : count ?? null };
  });
}

// The board as the table page draws it (board.js), and the seats around it as they sit at
// the live table (seats.js ringPlace: seat 0 at the bottom, the others in playing order
// round the oval, as a spectator sees them: the replay has no seat of its own), each on its
// side of the table; replay.css lays the sides out around the board, so no seat covers
// another however many cards it holds. The page holds the seats in seat order, as
// the live table does (a screen reader and the Tab key meet them 0, 1, 2...): the sides
// follow each other in that order round the oval, from the bottom's first half (seat 0 and
// the seats after it) to its second (the last seats), and each side lays its seats out in
// the oval's direction (replay.css). A step patches what changed (a card moved, a badge), as
// a message does at the table.
const SIDES = ["bottom-start", "left", "top", "right", "bottom-end"];

// The side a seat sits on: the bottom's seats are split at seat 0 (x 50, the middle), those
// left of it coming first round the oval and those right of it last.
function replaySide(seat, n) {
  const side = ringSide(seat, n);
  if (side !== "bottom") return side;
  return ringPlace(seat, n).x <= 50 ? "bottom-start" : "bottom-end";
}

function renderTable(step) {
  const ring = $("ring");
  if (!ring.firstElementChild) {
    ring.append(el("div", "replay-centre center"),
      ...SIDES.map((side) => Object.assign(el("div", `replay-seats side-${side}`), { id: `replay-${side}` })));
  }
  drawBoard(ring.firstElementChild, step.public, R, look(40), { empty: R.ui("replay.table_empty") });
  const n = data.players;
  const seats = replaySeats(step);
  const bottom = seats.filter((s) => ringSide(s.seat, n) === "bottom").length;
  for (const side of SIDES) {
    const here = seats.filter((s) => replaySide(s.seat, n) === side);
    // each part of the bottom at most its share of the line: the two stay side by side
    if (side.startsWith("bottom")) $(`replay-${side}`).style.setProperty("--share", String(here.length / (bottom || 1)));
    drawSeats($(`replay-${side}`), here, look(34), { seatClass: "replay-seat", headClass: "replay-seat-head" });
  }
}

function renderEvents() {
  const list = $("events");
  // One line a step, and a heading before each trick's first step: kept by their keys, so a
  // step forward moves the "current" mark and writes nothing else.
  const rows = [];
  data.steps.forEach((step, i) => {
    if (i === 0) return;
    const trick = tricks.indexOf(i);
    if (trick >= 0) rows.push({ key: `t${trick}`, trick });
    rows.push({ key: `s${i}`, step: i });
  });
  patchList(list, rows, {
    key: (row) => `${data.match ? data.match.deal : 1}:${row.key}`,
    make: (row) => {
      const li = el("li");
      if (row.step != null) { li.value = row.step; li.dataset.step = row.step; li.tabIndex = 0; li.onclick = () => go(row.step); }
      return li;
    },
    update: (li, row) => {
      if (row.step == null) { setClass(li, "trick-head"); setText(li, R.ui("replay.trick", { n: row.trick + 1 })); return; }
      const event = stepEvent(data.steps[row.step]);
      setClass(li, row.step === at ? "current" : "");
      setText(li, event ? R.event(event) : "");
    },
  });
  // Keep the current step in sight inside the list only (scrollIntoView would move the
  // whole page on a phone, away from the buttons).
  const current = list.querySelector("li.current");
  if (current) {
    const top = current.offsetTop;  // the list is positioned: offsets are its own
    if (top < list.scrollTop || top + current.offsetHeight > list.scrollTop + list.clientHeight) {
      list.scrollTop = Math.max(0, top - list.clientHeight / 2);
    }
  }
}

function renderTricks() {
  const nav = $("tricks");
  nav.replaceChildren();
  tricks.forEach((start, k) => {
    const b = el("button", trickAt(at) === k + 1 ? "current" : "", String(k + 1));
    b.title = R.ui("replay.trick", { n: k + 1 });
    b.setAttribute("aria-label", b.title);
    b.onclick = () => go(start);
    nav.append(b);
  });
  $("tricks-box").hidden = tricks.length === 0;
}

// The game's teams (its spec's, for its usual number of players) when they are this deal's seats.
function replayTeams() {
  const teams = spec?.teams || [];
  const seats = teams.flat().sort((a, b) => a - b);
  return seats.length === data.players && seats.every((s, i) => s === i) ? teams : [];
}

function renderOutcome() {
  const box = $("outcome");
  box.replaceChildren();
  const last = at === data.steps.length - 1;
  const match = data.match;
  if (match && match.before.length && at === 0) {
    box.append(el("h3", "", R.ui("replay.before_deal")), ...match.before.map((f) => el("div", "", R.fact(f))));
  }
  if (!last) return;
  // The result as the last step's view gives it (with what the game adds for the reader, e.g.
  // each place's own points), else the record's.
  const r = data.steps[at].public?.result || data.result;
  if (r) {
    box.append(el("h3", "", R.ui("deal_over")), el("div", "", R.ui("result_reason", { reason: r.reason })));
    box.append(...resultRows(R, r, replayTeams(), null).map((line) => el("div", "", line)));
  }
  if (match) {
    if (match.after.length) box.append(el("h3", "", R.ui("replay.after_deal")), ...match.after.map((f) => el("div", "", R.fact(f))));
    const st = match.standings;
    if (st) {
      box.append(el("h3", "", R.ui("standings")), el("div", "", R.ui("deals_played", { played: st.deals_played, limit: st.deals_limit })));
      (st.ranking || []).forEach((seat, k) => {
        const row = R.ui("standing", { place: k + 1, seat, score: st.scores[seat], unit: st.unit });
        box.append(el("div", "", (st.eliminated || []).includes(seat) ? R.ui("eliminated_row", { row }) : row));
      });
    }
  }
}

function show() {
  if (!data) return;
  const step = data.steps[at];
  const steps = data.steps.length - 1;
  $("viewer").hidden = false;
  $("slider").max = steps; $("slider").value = at;
  const deal = data.match ? R.ui("replay.deal_of", { deal: data.match.deal, deals: data.match.deals }) + " · " : "";
  const trick = trickAt(at);
  $("step").textContent = deal + R.ui("step", { step: at, steps }) + (trick ? ` · ${R.ui("replay.trick", { n: trick })}` : "");
  const event = stepEvent(step);
  $("event").textContent = event ? R.event(event) : R.ui("replay.start");
  $("first").disabled = $("prev").disabled = at === 0 && !(data.match && data.match.deal > 1);
  $("next").disabled = $("last").disabled = at === steps && !(data.match && data.match.deal < data.match.deals);
  renderTable(step);
  renderEvents();
  renderTricks();
  renderOutcome();
  $("deal-box").hidden = !data.match;
  if (data.match) {
    const pick = $("deal");
    if (pick.options.length !== data.match.deals) {
      pick.replaceChildren(...Array.from({ length: data.match.deals }, (_, i) => {
        const o = el("option", "", R.ui("deal_record", { deal: i + 1 })); o.value = String(i + 1); return o;
      }));
    }
    pick.value = String(data.match.deal);
  }
}

// --- moving --------------------------------------------------------------------------

async function go(step) {
  if (!data) return;
  const steps = data.steps.length - 1;
  if (step > steps && data.match && data.match.deal < data.match.deals) { await loadDeal(data.match.deal + 1, 0); return; }
  if (step < 0 && data.match && data.match.deal > 1) { await loadDeal(data.match.deal - 1, -1); return; }
  at = Math.max(0, Math.min(steps, step));
  show();
}

function stopAutoplay() {
  if (timer) { clearInterval(timer); timer = null; }
  $("play").textContent = t("replay.play");
}

function toggleAutoplay() {
  if (timer) { stopAutoplay(); return; }
  $("play").textContent = t("replay.pause");
  timer = setInterval(async () => {
    const end = at === data.steps.length - 1 && !(data.match && data.match.deal < data.match.deals);
    if (end) stopAutoplay(); else await go(at + 1);
  }, AUTOPLAY_MS);
}

// --- loading -------------------------------------------------------------------------

function showError(body) {
  $("error").textContent = new Renderer().error(body);
  $("error").hidden = false;
}

// The first step at which the cards are in the hands: a deal whose cards are dealt by its first
// action (a later Gou Ji deal: the Da La names the drawer, then the hands are dealt) opens on
// the dealt hands, not on seats holding nothing; step 0 is still one step back.
function dealtStep(steps) {
  const held = (step) => step.hands.some((h) => h && h.length);
  if (held(steps[0])) return 0;
  const k = steps.findIndex(held);
  return k < 0 ? 0 : k;
}

/** Replays deal ``deal`` of the loaded source (1 for a deal record) and shows step ``step``
 * (-1: the last; null: where its cards are dealt, see dealtStep). */
async function loadDeal(deal, step) {
  const query = source.match ? `?deal=${deal}` : "";
  const resp = await fetch(`/api/replay${query}`, { method: "POST", headers: { "Content-Type": "application/json" }, body: source.text });
  let body;
  try { body = await resp.json(); } catch { body = { error: "malformed_record", reason: "server.bad_json", params: {} }; }
  if (!resp.ok) { showError(body); return; }
  const steps = replaySteps(body);
  if (!steps) { showError({ error: "server_error", reason: "server.internal", params: {} }); return; }
  body.steps = steps;
  $("error").hidden = true;
  if (!spec || spec.name !== body.game) {
    const answer = await fetch(`/api/games/${encodeURIComponent(body.game)}`);
    spec = answer.ok ? await answer.json() : { name: body.game, card_notation: "french" };
  }
  R = rendererFor(body);
  document.title = `${gameTitle(body.game, spec.title || body.game)} — ${t("replay")}`;
  data = body;
  tricks = findTricks(body.steps);
  at = step == null ? dealtStep(body.steps) : step < 0 ? body.steps.length - 1 : step;
  show();
}

// The players' names a record keeps (its "players": one name a seat, as a table writes them).
function recordNames(record) {
  const names = record?.players;
  return Array.isArray(names) && names.every((n) => typeof n === "string" && n) ? names : null;
}

// The viewer's renderer for a replayed deal: seats by the record's names when it has them
// (a bot by its name in the page's language: players.js).
function rendererFor(body) {
  const names = source.names && source.names.length === body.players ? source.names.map((n, i) => botName(i, n)) : undefined;
  return new Renderer({ game: body.game, names, notation: spec.card_notation || "french", symbols: true, suitWords: true });
}

async function load(text) {
  stopAutoplay();
  let match = false, names = null;
  try { const record = JSON.parse(text); match = record?.format === "folkdeck-match/1"; names = recordNames(record); }
  catch { /* the server names the error */ }
  source = { text, match, names };
  await loadDeal(1, null);
}

async function fetchText(url) {
  const resp = await fetch(url);
  const text = await resp.text();
  if (!resp.ok) { try { showError(JSON.parse(text)); } catch { showError({ error: "server_error", reason: "server.internal", params: {} }); } return null; }
  return text;
}

function bindKeys() {
  document.addEventListener("keydown", (e) => {
    if (!data || e.target instanceof HTMLInputElement || e.target instanceof HTMLSelectElement) return;
    const moves = { ArrowRight: at + 1, ArrowLeft: at - 1, Home: 0, End: data.steps.length - 1 };
    if (e.key in moves) { e.preventDefault(); stopAutoplay(); go(moves[e.key]); }
    else if (e.key === " ") { e.preventDefault(); toggleAutoplay(); }
  });
}

async function init() {
  const catalogs = loadCatalogs();
  // A file chosen or dropped while the catalogs still load is read once they are there
  // (never lost: the handlers are in place before anything is awaited).
  const open = async (f) => { if (!f) return; const text = await f.text(); await catalogs; await load(text); };
  $("file").onchange = () => open($("file").files[0]);
  document.body.addEventListener("dragover", (e) => e.preventDefault());
  document.body.addEventListener("drop", (e) => { e.preventDefault(); open(e.dataTransfer?.files?.[0]); });
  await catalogs;
  applyStatic();
  $("lang").textContent = t("other_language");
  $("lang").onclick = async () => { await setLang(lang === "ja" ? "en" : "ja"); applyStatic(); $("lang").textContent = t("other_language");
    if (data) { R = rendererFor(data); show(); } };
  $("first").onclick = () => { stopAutoplay(); go(at === 0 && data.match ? -1 : 0); };
  $("prev").onclick = () => { stopAutoplay(); go(at - 1); };
  $("next").onclick = () => { stopAutoplay(); go(at + 1); };
  $("last").onclick = () => { stopAutoplay(); go(at === data.steps.length - 1 && data.match ? data.steps.length : data.steps.length - 1); };
  $("play").onclick = toggleAutoplay;
  $("slider").oninput = () => { stopAutoplay(); go(Number($("slider").value)); };
  $("deal").onchange = () => { stopAutoplay(); loadDeal(Number($("deal").value), null); };
  bindKeys();
  const params = new URLSearchParams(location.search);
  const table = params.get("t");
  if (table) {
    const url = params.get("match")
      ? `/api/tables/${encodeURIComponent(table)}/record`
      : `/api/tables/${encodeURIComponent(table)}/records/${Number(params.get("d") || 1)}`;
    const text = await fetchText(url);
    if (text != null) await load(text);
  }
}
init();
