import { t, setLang, lang, gameTitle, applyStatic, term } from "./i18n.js";
import { renderMarkdown } from "./md.js";

const $ = (id) => document.getElementById(id);
let games = [];
const current = () => games.find((g) => g.name === $("game").value);

function optionInput(opt, game) {
  const row = document.createElement("div");
  row.className = "field opt";
  const label = document.createElement("label");
  const named = term(game, "options", opt.name);
  label.textContent = named === opt.name ? opt.name : `${named} (${opt.name})`; label.htmlFor = "opt-" + opt.name;
  let input;
  const choices = opt.choices.includes("|") ? opt.choices.split("|").map((c) => c.trim()) : null;
  if (choices) {
    input = document.createElement("select");
    for (const c of choices) input.add(new Option(c, c, false, c.toLowerCase() === String(opt.default).toLowerCase()));
  } else {
    input = document.createElement("input");
    input.value = opt.default;
    input.size = 14;
  }
  input.id = "opt-" + opt.name; input.dataset.option = opt.name; input.dataset.default = String(opt.default);
  const hint = document.createElement("small");
  hint.textContent = `${t("defaultIs")}: ${opt.default}`;
  row.append(label, input, hint);
  return row;
}

function seatRows() {
  const g = current(); const n = Number($("players").value) || g.default_players;
  const box = $("seats"); const old = [...box.querySelectorAll(".seat-row")].map((r) => [r.querySelector(".kind").value, r.querySelector(".bot").value]);
  box.replaceChildren();
  for (let i = 0; i < n; i++) {
    const row = document.createElement("div"); row.className = "field seat-row";
    const label = document.createElement("label"); label.textContent = t("seat", i);
    const kind = document.createElement("select"); kind.className = "kind"; kind.setAttribute("aria-label", t("seat", i));
    if (i === 0) kind.add(new Option(t("you"), "you"));
    kind.add(new Option(t("invite"), "human")); kind.add(new Option(t("bot"), "bot"));
    kind.value = old[i] ? old[i][0] : (i === 0 ? "you" : "bot");
    const bot = document.createElement("select"); bot.className = "bot";
    for (const b of g.bots) bot.add(new Option(b + (b === g.default_bot ? " ★" : ""), b, false, b === g.default_bot));
    if (old[i] && g.bots.includes(old[i][1])) bot.value = old[i][1];
    const sync = () => { bot.hidden = kind.value !== "bot"; };
    kind.onchange = sync; sync();
    row.append(label, kind, bot); box.append(row);
  }
}

function showGame() {
  const g = current();
  $("summary").textContent = term(g.name, "summary", "") || g.summary || "";
  $("players").min = g.min_players; $("players").max = g.max_players; $("players").value = g.default_players;
  $("players-hint").textContent = `${g.min_players}–${g.max_players}`;
  $("preset").replaceChildren(new Option(t("none"), ""), ...Object.keys(g.presets).map((p) => new Option(p, p)));
  $("options").replaceChildren(...g.options.map((o) => optionInput(o, g.name)));
  seatRows();
}

async function create(ev) {
  ev.preventDefault();
  const g = current();
  const options = {};
  for (const el of $("options").querySelectorAll("[data-option]")) {
    if (el.value !== el.dataset.default) options[el.dataset.option] = el.value;
  }
  const seats = [...document.querySelectorAll(".seat-row")].map((r) => {
    const kind = r.querySelector(".kind").value;
    return kind === "bot" ? { kind: "bot", bot: r.querySelector(".bot").value } : { kind: "human", name: kind === "you" ? "You" : "" };
  });
  const body = { game: g.name, players: Number($("players").value), deals: Number($("deals").value),
    turn_seconds: Number($("timer").value), seats, options };
  if ($("preset").value) body.preset = $("preset").value;
  const resp = await fetch("/api/tables", { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });
  const data = await resp.json();
  if (!resp.ok) {
    const d = data.detail; $("error").textContent = typeof d === "object" && d.message ? d.message : JSON.stringify(d);
    $("error").hidden = false; setTimeout(() => { $("error").hidden = true; }, 6000); return;
  }
  const list = $("links"); list.replaceChildren();
  for (const s of data.seats) {
    const li = document.createElement("li");
    if (s.link) { const a = document.createElement("a"); a.href = s.link; a.textContent = location.origin + s.link; li.append(`${t("seat", s.seat)}: `, a); }
    else li.textContent = `${t("seat", s.seat)}: ${t("bot")} (${s.bot})`;
    list.append(li);
  }
  const spec = document.createElement("a"); spec.href = data.spectator_link; spec.textContent = location.origin + data.spectator_link;
  const li = document.createElement("li"); li.append(spec); $("spectator").replaceChildren(li);
  const mine = data.seats.find((s) => s.link);
  $("mine").href = mine ? mine.link : data.spectator_link;
  $("created").hidden = false;
  $("created").scrollIntoView();
}

async function showRules() {
  const resp = await fetch(`/api/games/${current().name}/rules`);
  $("rules-body").innerHTML = resp.ok ? renderMarkdown((await resp.json()).markdown) : "—";
  $("rules").showModal();
}

async function init() {
  document.documentElement.lang = lang; applyStatic();
  $("lang").textContent = t("lang");
  $("lang").onclick = () => { setLang(lang === "ja" ? "en" : "ja"); location.reload(); };
  games = await (await fetch("/api/games")).json();
  for (const g of games) $("game").add(new Option(gameTitle(g.name, g.title), g.name, false, g.name === "kaphai"));
  $("game").onchange = showGame; $("players").onchange = seatRows;
  $("create").onsubmit = create; $("rules-btn").onclick = showRules;
  showGame();
}
init();
