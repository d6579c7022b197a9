// The table: renders each message's observation (never the state) and sends actions in notation.
import { cardSVG, backSVG, splitCard } from "./cards.js";
import { t, setLang, lang, gameTitle, actionLabel, applyStatic } from "./i18n.js";
import { renderMarkdown } from "./md.js";

const $ = (id) => document.getElementById(id);
const params = new URLSearchParams(location.search);
const tableId = params.get("t"), token = params.get("k");
let ws = null, last = null, selected = [], ref = 0, retry = 500;

const cardsOf = (text) => (typeof text === "string" && text.trim() ? text.trim().split(/\s+/) : []);
const cardW = () => parseInt(getComputedStyle(document.documentElement).getPropertyValue("--card-w")) || 64;
const seatName = (i) => (last && last.table.seats[i] ? last.table.seats[i].name : t("seat", i));

function cardEl(code, extra = "") {
  const span = document.createElement("span");
  span.className = "card " + extra; span.dataset.card = code;
  span.innerHTML = cardSVG(code, last.table.pack, { width: cardW() });
  return span;
}

// A token of an action matches a card of the hand by notation, or by rank (Gou Ji's rank-only plays).
function matches(token, card) { return token === card || splitCard(card).rank === token; }

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
    if (n != null) extra.push(t("cards", n));
    if (obs.chips) extra.push(`${obs.chips[i]} ${t("chips")}`);
    if (obs.declared && obs.declared[i] != null) extra.push(obs.declared[i]);
    if (obs.out_order && obs.out_order.includes(i)) extra.push(`#${obs.out_order.indexOf(i) + 1}`);
    div.innerHTML = `<div class="name"><span class="dot ${s.kind === "bot" || s.connected ? "on" : ""}"></span>${esc(s.name)}${s.kind === "bot" ? ` <small>(${t("bot")})</small>` : ""}${s.auto ? ` <small>(⏱ ${t("bot")})</small>` : ""}</div>` +
      `<div class="meta">${t("seat", i)} · ${extra.map(esc).join(" · ")}</div>`;
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
  renderHand(msg);
  renderSide(table, obs);
}

function esc(s) { return String(s).replace(/[&<>"]/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" })[c]); }

function renderCenter(obs, table) {
  const center = $("center"); center.replaceChildren();
  const add = (label, cards, who) => {
    const box = document.createElement("div");
    const title = document.createElement("div"); title.textContent = label + (who != null ? ` — ${t("by", seatName(who))}` : "");
    const row = document.createElement("div"); row.className = "cards";
    for (const c of cards) row.append(cardEl(c));
    box.append(title, row); center.append(box);
  };
  if (obs.top) add(t("top") + (obs.top_name ? ` (${obs.top_name})` : ""), cardsOf(obs.top), obs.top_seat);
  else if (obs.trick && obs.trick.length) {
    const row = document.createElement("div"); row.className = "cards";
    const label = document.createElement("div"); label.textContent = t("trick") + (obs.led_suit ? ` · ${obs.led_suit}` : "");
    for (const line of obs.trick) {
      const [who, play] = line.split(": ");
      const fig = document.createElement("figure"); fig.style.margin = "0 4px"; fig.style.textAlign = "center";
      for (const c of cardsOf(play)) fig.append(cardEl(c));
      const cap = document.createElement("figcaption"); cap.textContent = seatName(Number(who)); cap.style.fontSize = ".75rem";
      fig.append(cap); row.append(fig);
    }
    center.append(label, row);
  }
  if (obs.discards != null && cardsOf(obs.discards).length) add(`discards (${obs.discard_count})`, cardsOf(obs.discards).slice(-8));
  const kv = document.createElement("div"); kv.className = "kv";
  if (obs.stock_count != null) kv.append(`${t("stock")}: ${obs.stock_count}`);
  if (Array.isArray(obs.stock)) kv.append(`${t("stock")}: ${obs.stock.join(" / ")}`);
  if (obs.pot != null) kv.append(` · ${t("pot")}: ${obs.pot}`);
  if (obs.shown && Object.keys(obs.shown).length) kv.append(" · shown: " + Object.entries(obs.shown).map(([s, c]) => `${seatName(Number(s))} ${c}`).join(", "));
  if (obs.phase) kv.append(` · ${obs.phase}`);
  center.append(kv);
}

const LEGAL_SHOWN = 24;
let showAllLegal = false;

function renderHand(msg) {
  const { obs } = msg;
  const hand = handOf(obs);
  const legal = obs.legal_actions || [];
  const cardActions = new Map(); const buttons = [];
  for (const a of legal) { const used = cardsFor(a, hand); if (used && hand.length) cardActions.set(a, used); else buttons.push(a); }
  const playable = new Set([...cardActions.values()].flat());
  selected = selected.filter((i) => i < hand.length);
  const box = $("hand"); box.replaceChildren();
  box.className = "hand" + (legal.length ? "" : " idle");
  hand.forEach((c, i) => {
    const el = cardEl(c, (playable.has(i) ? "playable" : "") + (selected.includes(i) ? " selected" : ""));
    el.dataset.index = i; el.tabIndex = 0; el.setAttribute("role", "button");
    el.onclick = () => { selected = selected.includes(i) ? selected.filter((x) => x !== i) : [...selected, i]; renderHand(last); };
    box.append(el);
  });
  const chosen = [...cardActions.entries()].find(([, used]) => used.length === selected.length && used.every((i) => selected.includes(i)));
  const onTurn = msg.on_turn;
  const actions = $("actions"); actions.replaceChildren();
  const oot = $("oot"); oot.replaceChildren();
  if (onTurn && cardActions.size) {
    const play = button(t("play"), "primary", () => send(chosen[0])); play.id = "play"; play.disabled = !chosen;
    if (chosen) play.textContent = `${t("play")}: ${chosen[0]}`;
    actions.append(play, button(t("clear"), "", () => { selected = []; renderHand(last); }));
  }
  for (const a of buttons) {
    const b = button(actionLabel(a), onTurn ? (a === "pass" ? "" : "primary") : "oot", () => send(a));
    b.dataset.action = a;
    (onTurn ? actions : oot).append(b);
  }
  if (!onTurn && buttons.length) oot.prepend(t("outOfTurn") + " ");
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

function renderSide(table, obs) {
  $("standings").replaceChildren(...(table.standings || []).map((l) => Object.assign(document.createElement("div"), { textContent: l })));
  $("results").replaceChildren(...table.results.map((r) => {
    const li = document.createElement("li");
    li.textContent = `${t("deal", r.deal, table.deals)}: ${r.reason} — ` + r.returns.map((v, i) => `${seatName(i)} ${v > 0 ? "+" : ""}${v}`).join(", ");
    return li;
  }));
  $("history").replaceChildren(...[...(obs.history || [])].reverse().map((l) => Object.assign(document.createElement("li"), { textContent: l })));
  const res = $("result"); res.replaceChildren();
  if (obs.result || table.match_over) {
    const div = document.createElement("div"); div.className = "result"; div.id = "result-box";
    const r = obs.result;
    div.innerHTML = `<strong>${table.match_over ? t("matchOver") : t("over")}</strong>` +
      (r ? `<div>${esc(r.reason)}: ` + r.placings.map((p, i) => `${esc(seatName(i))} ${p != null ? "#" + p : "–"} (${r.returns[i] > 0 ? "+" : ""}${r.returns[i]})`).join(", ") + "</div>" : "");
    table.records.forEach((url, i) => {
      div.insertAdjacentHTML("beforeend", `<a href="${url}" download>${t("download")} ${i + 1}</a><a href="/replay?t=${encodeURIComponent(table.id)}&d=${i + 1}">${t("replay")} ${i + 1}</a>`);
    });
    res.append(div);
  }
}

function showError(message) {
  const e = $("error"); e.textContent = `${t("refused")}: ${message}`; e.hidden = false;
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
    else if (msg.type === "error") { showError(msg.message); if (msg.error === "bad_token") retry = -1; }
  };
  ws.onclose = () => { if (retry > 0) { setTimeout(connect, retry); retry = Math.min(retry * 2, 8000); } };
}

async function showRules() {
  if (!last) return;
  const resp = await fetch(`/api/games/${last.table.game}/rules`);
  $("rules-body").innerHTML = resp.ok ? renderMarkdown((await resp.json()).markdown) : "—";
  $("rules").showModal();
}

document.documentElement.lang = lang; applyStatic();
$("lang").textContent = t("lang");
$("lang").onclick = () => { setLang(lang === "ja" ? "en" : "ja"); applyStatic(); $("lang").textContent = t("lang"); if (last) render(last); };
$("rules-btn").onclick = showRules;
$("resume").onclick = () => ws && ws.send(JSON.stringify({ type: "resume" }));
setInterval(() => { if (last && last.table.deadline != null) { last.table.deadline = Math.max(0, last.table.deadline - 1); render(last); } }, 1000);
window.addEventListener("resize", () => last && render(last));
connect();
