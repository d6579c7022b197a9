// The table: renders each message's observation (never the state) and sends actions in notation.
import { cardSVG, backSVG, splitCard, setCuccoNames } from "./cards.js";
import { t, setLang, lang, gameTitle, actionLabel, applyStatic, term, prose, cuccoNames } from "./i18n.js";
import { renderMarkdown } from "./md.js";

const $ = (id) => document.getElementById(id);
const params = new URLSearchParams(location.search);
const tableId = params.get("t"), token = params.get("k");
let ws = null, last = null, selected = [], ref = 0, retry = 500;

const cardsOf = (text) => (typeof text === "string" && text.trim() ? text.trim().split(/\s+/) : []);
const cardW = () => parseInt(getComputedStyle(document.documentElement).getPropertyValue("--card-w")) || 64;
// A seat's name; bots share names ("greedy bot"), so a name used twice gets its seat number.
function seatName(i) {
  const seats = last ? last.table.seats : [];
  if (!seats[i]) return t("seat", i);
  const name = seats[i].name;
  return seats.filter((s) => s.name === name).length > 1 ? `${name} (${t("seat", i)})` : name;
}

function cardEl(code, extra = "") {
  const span = document.createElement("span");
  span.className = "card " + extra; span.dataset.card = code;
  span.innerHTML = cardSVG(code, last.table.pack, { width: cardW() });
  return span;
}

// A token of an action matches a card of the hand by notation, or by rank (Gou Ji's rank-only plays).
function matches(token, card) { return token === card || splitCard(card).rank === token; }

// Whether the selected cards (codes) are exactly the cards of an action (tokens by code or by rank).
function sameCards(action, cards) {
  const tokens = action.split(/\s+/);
  if (tokens.length !== cards.length) return false;
  const left = [...cards];
  for (const tok of [...tokens].sort((a, b) => b.length - a.length)) {  // full codes before ranks
    let k = left.indexOf(tok);
    if (k < 0) k = left.findIndex((c) => matches(tok, c));
    if (k < 0) return false;
    left.splice(k, 1);
  }
  return true;
}

// The hand cards an action uses (indices), or null if the action is not made of hand cards.
function cardsFor(action, hand) {
  const tokens = action.split(/\s+/); const used = [];
  for (const tok of tokens) {
    let idx = hand.findIndex((c, i) => !used.includes(i) && c === tok);
    if (idx < 0) idx = hand.findIndex((c, i) => !used.includes(i) && matches(tok, c));
    if (idx < 0) return null;
    used.push(idx);
  }
  return used;
}

// Calls a seat makes outside the normal order of play (the Cucco call, putuh, burning, 先让让):
// drawn as orange buttons above the hand, and only sent to the seat entitled to them.
const SPECIAL = new Set(["cucco", "putuh", "burn", "xian"]);
const isSpecial = (a) => SPECIAL.has(a.split(" ")[0]);
const game = () => last.table.game;

function handOf(obs) { return obs.hand != null ? cardsOf(obs.hand) : cardsOf(obs.card); }

function render(msg) {
  last = msg;
  const { table, obs } = msg;
  document.body.dataset.progress = `${table.deal}:${table.actions}`;  // tests wait on changes
  document.title = `${table.title} · folkdeck`;
  $("title").textContent = gameTitle(table.game, table.title);
  $("deal").textContent = t("deal", table.deal, table.deals);
  // seats
  const counts = obs.counts || [];
  $("seats").replaceChildren(...table.seats.map((s, i) => {
    const div = document.createElement("div");
    div.className = "seat" + (obs.current_seat === i ? " turn" : "") + (msg.you === i ? " me" : "");
    div.dataset.seat = i;
    const n = counts[i];
    const extra = [];
    if (n != null) extra.push(n === 1 ? t("oneCard") : t("cards", n));
    else if (counts.length && counts[i] === null) extra.push(t("unknownCount"));
    if (obs.chips) extra.push(`${obs.chips[i]} ${t("chips")}`);
    if (obs.dealer === i) extra.push(t("dealer"));
    if (obs.declared && obs.declared[i] != null) extra.push(actionLabel(table.game, obs.declared[i]));
    if (obs.disqualified && obs.disqualified[i] != null) extra.push(t("disqualified"));
    const order = obs.out_order || obs.out;
    if (order && order.includes(i)) extra.push(t("place", order.indexOf(i) + 1));
    if ((obs.passed || obs.passers || []).includes(i)) extra.push(t("passed"));
    if (obs.teams && msg.you != null && i !== msg.you) extra.push((i - msg.you + 6) % 2 === 0 ? t("team") : obs.opposite === i ? t("opposite") : "");
    div.innerHTML = `<div class="name"><span class="dot ${s.kind === "bot" || s.connected ? "on" : ""}"></span>${esc(s.name)}${s.kind === "bot" ? ` <small>(${t("bot")})</small>` : ""}${s.auto ? ` <small>(⏱ ${t("bot")})</small>` : ""}</div>` +
      `<div class="meta">${t("seat", i)} · ${extra.filter(Boolean).map(esc).join(" · ")}</div>`;
    if (n != null && msg.you !== i) div.insertAdjacentHTML("beforeend", backSVG(22, String(n)));
    return div;
  }));
  renderCenter(obs, table);
  // status
  const status = $("status");
  const mine = msg.on_turn;
  status.className = "status" + (mine ? " mine" : "");
  const secs = table.deadline != null ? " · " + t("secondsLeft", Math.ceil(table.deadline)) : "";
  status.textContent = obs.result ? t("over") : mine ? t("yourTurn") + secs
    : obs.current_seat != null ? t("turnOf", seatName(obs.current_seat)) + secs : msg.you == null ? t("spectator") : t("waiting");
  $("auto").hidden = !msg.auto;
  const notice = $("notice");
  notice.hidden = obs.xian_request == null || msg.you !== obs.current_seat;
  if (!notice.hidden) notice.textContent = t("xianAsked", seatName(obs.xian_request));
  renderHand(msg);
  renderSide(table, obs);
}

function esc(s) { return String(s).replace(/[&<>"]/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" })[c]); }

function renderCenter(obs, table) {
  const center = $("center"); center.replaceChildren();
  const g = table.game;
  const add = (label, cards, who) => {
    const box = document.createElement("div"); box.className = "play";
    const title = document.createElement("div"); title.className = "label";
    title.textContent = label + (who != null ? ` — ${t("by", seatName(who))}` : "");
    const row = document.createElement("div"); row.className = "cards";
    for (const c of cards) row.append(cardEl(c));
    box.append(title, row); center.append(box);
  };
  if (obs.top) {
    const shape = obs.top_name ? ` · ${term(g, "shapes", obs.top_name)}` : "";
    const mode = obs.mode ? term(g, "modes", obs.mode) : "";
    add(t("top") + shape + (mode ? ` · ${mode}` : ""), cardsOf(obs.top), obs.top_seat);
  } else if (obs.trick && obs.trick.length && "led_suit" in obs) {
    const row = document.createElement("div"); row.className = "cards";
    const label = document.createElement("div"); label.className = "label";
    label.textContent = t("trick") + (obs.led_suit ? ` · ${t("ledSuit")}: ${prose(g, obs.led_suit)}` : "");
    for (const line of obs.trick) {
      const [who, play] = line.split(": ");
      const fig = document.createElement("figure"); fig.style.margin = "0 4px"; fig.style.textAlign = "center";
      for (const c of cardsOf(play)) fig.append(cardEl(c));
      const cap = document.createElement("figcaption"); cap.textContent = seatName(Number(who)); cap.style.fontSize = ".75rem";
      fig.append(cap); row.append(fig);
    }
    center.append(label, row);
  } else if (obs.phase === "play" && obs.current_seat != null) {
    const lead = document.createElement("div"); lead.className = "label";
    lead.textContent = t("newTrick", seatName(obs.trick_leader ?? obs.current_seat)); center.append(lead);
  }
  if (obs.result && obs.result.showdown && Object.keys(obs.result.showdown).length) {  // Cambio's オープン
    const label = document.createElement("div"); label.className = "label";
    label.textContent = term(g, "reasons", "showdown");
    const row = document.createElement("div"); row.className = "cards"; row.id = "showdown";
    for (const [who, card] of Object.entries(obs.result.showdown)) {
      const fig = document.createElement("figure"); fig.style.margin = "0 4px"; fig.style.textAlign = "center";
      fig.append(cardEl(card));
      const cap = document.createElement("figcaption"); cap.style.fontSize = ".75rem";
      cap.textContent = seatName(Number(who)) + ((obs.result.losers || []).includes(Number(who)) ? " ✗" : "");
      fig.append(cap); row.append(fig);
    }
    center.append(label, row);
  }
  if (obs.collected && obs.collected.length)
    center.append(Object.assign(document.createElement("div"), { className: "kv",
      textContent: `${t("collected")}: ` + obs.collected.map((l) => { const [w, c] = l.split(": "); return `${seatName(Number(w))} ${c}`; }).join(", ") }));
  if (obs.discards != null && cardsOf(obs.discards).length) {
    add(t("discards", obs.discard_count), cardsOf(obs.discards));
    center.lastChild.classList.add("small");
  }
  const kv = document.createElement("div"); kv.className = "kv";
  const items = [];
  if (obs.phase) items.push(`${t("phase")}: ${term(g, "phases", obs.phase)}`);
  if (obs.stock_count != null) items.push(`${t("stock")}: ${obs.stock_count}`);
  if (Array.isArray(obs.stock)) items.push(`${t("stock")}: ${obs.stock.length === 2 ? t("piles", obs.stock[0], obs.stock[1]) : obs.stock[0]}`);
  if (obs.pot != null) items.push(`${t("pot")}: ${obs.pot}`);
  if (obs.stall && obs.stall_limit) items.push(t("stall", obs.stall, obs.stall_limit));
  const who = (m) => Object.entries(m).map(([s, c]) => `${seatName(Number(s))} ${prose(g, c)}`).join(", ");
  if (obs.shown && Object.keys(obs.shown).length) items.push(`${t("shown")}: ${who(obs.shown)}`);
  if (obs.known && !Array.isArray(obs.known) && Object.keys(obs.known).length) items.push(`${t("known")}: ${who(obs.known)}`);
  if (Array.isArray(obs.known) && obs.known.some(Boolean)) items.push(`${t("known")}: ` + obs.known.map((k, s) => k && `${seatName(s)} ${k}`).filter(Boolean).join(", "));
  for (const line of [...(obs.tribute || []), ...(obs.private || [])]) items.push(prose(g, line));
  for (const it of items) kv.append(Object.assign(document.createElement("span"), { textContent: it }));
  center.append(kv);
}

const LEGAL_SHOWN = 24;
let showAllLegal = false;

function renderHand(msg) {
  const { obs } = msg;
  const hand = handOf(obs);
  const legal = obs.legal_actions || [];
  const cardActions = new Map(); const buttons = [];
  for (const a of legal) {
    const used = isSpecial(a) ? null : cardsFor(a, hand);
    if (used && hand.length) cardActions.set(a, used); else buttons.push(a);
  }
  // Every card that can take part in a legal play: a rank-only play (Gou Ji) may use any copy.
  const playable = new Set();
  for (const a of cardActions.keys()) for (const tok of a.split(/\s+/)) hand.forEach((c, i) => { if (matches(tok, c)) playable.add(i); });
  selected = selected.filter((i) => i < hand.length);
  const box = $("hand"); box.replaceChildren();
  box.className = "hand" + (cardActions.size ? "" : " idle");  // nothing to pick: no card is dimmed
  hand.forEach((c, i) => {
    const el = cardEl(c, (playable.has(i) ? "playable" : "") + (selected.includes(i) ? " selected" : ""));
    el.dataset.index = i; el.tabIndex = 0; el.setAttribute("role", "button");
    el.onclick = () => { selected = selected.includes(i) ? selected.filter((x) => x !== i) : [...selected, i]; renderHand(last); };
    box.append(el);
  });
  const picked = selected.map((i) => hand[i]);
  const chosen = [...cardActions.entries()].find(([a]) => sameCards(a, picked));
  const onTurn = msg.on_turn;
  const actions = $("actions"); actions.replaceChildren();
  const oot = $("oot"); oot.replaceChildren();
  if (onTurn && cardActions.size) {
    const play = button(t("play"), "primary", () => send(chosen[0])); play.id = "play"; play.disabled = !chosen;
    if (chosen) play.textContent = `${t("play")}: ${chosen[0]}`;
    actions.append(play, button(t("clear"), "", () => { selected = []; renderHand(last); }));
  }
  for (const a of buttons) {
    const special = isSpecial(a) || !onTurn;
    const b = button(actionLabel(game(), a), special ? "oot" : (a === "pass" ? "" : "primary"), () => send(a));
    b.dataset.action = a;
    (special ? oot : actions).append(b);
  }
  if (oot.childElementCount) oot.prepend(t("outOfTurn") + " ");
  // out-of-turn card plays (rare) go to the legal list below
  const list = $("legal"); list.replaceChildren();
  if (cardActions.size) {
    list.append(t("legal") + ": ");
    // A Gou Ji lead can have thousands of plays: show the first few unless asked.
    const entries = [...cardActions];
    const shown = showAllLegal ? entries : entries.slice(0, LEGAL_SHOWN);
    for (const [a, used] of shown) {
      const b = button(a, "", () => { selected = [...used]; renderHand(last); });
      b.dataset.legal = a; list.append(b);
    }
    if (entries.length > LEGAL_SHOWN) {
      const more = button(showAllLegal ? t("fewer") : t("more", entries.length - LEGAL_SHOWN), "link",
        () => { showAllLegal = !showAllLegal; renderHand(last); });
      more.id = "legal-more"; list.append(more);
    }
  }
}

function button(text, cls, fn) { const b = document.createElement("button"); b.textContent = text; if (cls) b.className = cls; b.onclick = fn; return b; }

function recordLinks(table, deal) {
  const url = `/api/tables/${table.id}/records/${deal}`;
  if (!table.records.includes(url)) return "";
  return ` <a href="${url}" download>${t("download")}</a> <a href="/replay?t=${encodeURIComponent(table.id)}&d=${deal}">${t("replay")}</a>`;
}

function lockedText(table) {
  if (!table.records_locked) return "";
  return t("recordsLocked", table.game === "cambio" ? t("lockedCambio") : table.records_locked);
}

function reasonText(g, r) {
  return r.returns.map((v, i) => `${seatName(i)} ${v > 0 ? "+" : ""}${v}`).join(", ");
}

function renderSide(table, obs) {
  const g = table.game;
  $("standings").replaceChildren(...(table.standings || []).map((l) => Object.assign(document.createElement("div"), { textContent: prose(g, l) })));
  $("results").replaceChildren(...table.results.map((r) => {
    const li = document.createElement("li"); li.dataset.deal = r.deal;
    li.innerHTML = `<strong>${esc(t("deal", r.deal, table.deals))}</strong>: ${esc(term(g, "reasons", r.reason))} — ${esc(reasonText(g, r))}` +
      (r.lines || []).map((l) => `<div class="line">${esc(prose(g, l))}</div>`).join("") + recordLinks(table, r.deal);
    return li;
  }));
  $("locked").textContent = lockedText(table); $("locked").hidden = !table.records_locked;
  $("history").replaceChildren(...[...(obs.history || [])].reverse().map((l) => Object.assign(document.createElement("li"), { textContent: historyLine(g, l) })));
  const res = $("result"); res.replaceChildren();
  if (obs.result || table.match_over) {
    const div = document.createElement("div"); div.className = "result"; div.id = "result-box";
    const r = obs.result;
    div.innerHTML = `<strong>${table.match_over ? t("matchOver") : t("over")}</strong>` +
      (r ? `<div>${esc(t("reasonLabel"))}: ${esc(term(g, "reasons", r.reason))} — ` + r.placings.map((p, i) => `${esc(seatName(i))} ${p != null ? t("place", p) : "–"} (${r.returns[i] > 0 ? "+" : ""}${r.returns[i]})`).join(", ") + "</div>" : "");
    table.results.forEach((rr) => {
      const links = recordLinks(table, rr.deal);
      if (links) div.insertAdjacentHTML("beforeend", `<div>${esc(t("dealRecord", rr.deal))}:${links}</div>`);
    });
    if (table.records_locked) div.insertAdjacentHTML("beforeend", `<div class="locked">${esc(lockedText(table))}</div>`);
    res.append(div);
  }
}

// "2: 9 9; seat 2 goes out: San Ke 三科" -> "Seat name: 9 9 — note".
function historyLine(g, line) {
  const m = /^(\d+): ([^;]*)(?:; (.*))?$/.exec(line);
  if (!m) return prose(g, line);
  const head = `${seatName(Number(m[1]))}: ${actionLabel(g, m[2])}`;
  return m[3] ? `${head} — ${prose(g, m[3])}` : head;
}

function showError(message, code) {
  const head = code && t("err_" + code) !== "err_" + code ? t("err_" + code) : t("refused");
  const e = $("error"); e.textContent = `${head}: ${last ? prose(last.table.game, message) : message}`; e.hidden = false;
  clearTimeout(showError.timer); showError.timer = setTimeout(() => { e.hidden = true; }, 5000);
}

function send(action) {
  if (!ws || ws.readyState !== 1) return;
  ws.send(JSON.stringify({ type: "action", action, ref: ++ref }));
}

function connect() {
  const proto = location.protocol === "https:" ? "wss" : "ws";
  ws = new WebSocket(`${proto}://${location.host}/ws/${encodeURIComponent(tableId)}?k=${encodeURIComponent(token || "")}`);
  ws.onopen = () => { retry = 500; };
  ws.onmessage = (ev) => {
    const msg = JSON.parse(ev.data);
    if (msg.type === "state") { render(msg); }
    else if (msg.type === "ack") { selected = []; }
    else if (msg.type === "error") { showError(msg.message, msg.error); if (msg.error === "bad_token") retry = -1; }
  };
  ws.onclose = () => { if (retry > 0) { setTimeout(connect, retry); retry = Math.min(retry * 2, 8000); } };
}

async function showRules() {
  if (!last) return;
  const resp = await fetch(`/api/games/${last.table.game}/rules`);
  $("rules-body").innerHTML = resp.ok ? renderMarkdown((await resp.json()).markdown) : "—";
  $("rules").showModal();
}

document.documentElement.lang = lang; applyStatic(); setCuccoNames(cuccoNames());
$("lang").textContent = t("lang");
$("lang").onclick = () => { setLang(lang === "ja" ? "en" : "ja"); applyStatic(); setCuccoNames(cuccoNames()); $("lang").textContent = t("lang"); if (last) render(last); };
$("rules-btn").onclick = showRules;
$("resume").onclick = () => ws && ws.send(JSON.stringify({ type: "resume" }));
setInterval(() => { if (last && last.table.deadline != null) { last.table.deadline = Math.max(0, last.table.deadline - 1); render(last); } }, 1000);
window.addEventListener("resize", () => last && render(last));
connect();
