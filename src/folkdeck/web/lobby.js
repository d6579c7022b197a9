// The lobby: every game as /api/games describes it from its GameSpec (players, how its match
// ends, options, presets, bots); names and help in the reader's language from the catalog.
import { Renderer, t, text, setLang, lang, loadCatalogs, gameTitle, applyStatic, has } from "./i18n.js";
import { renderMarkdown } from "./markdown.js";

const $ = (id) => document.getElementById(id);
let games = [];
const current = () => games.find((g) => g.name === $("game").value);
const termsOf = (game) => new Renderer({ game });

// An option's row: its name (term.<game>.option.<name>, the option's own name beside it) and
// help (….help) when the catalog has them; choices by their terms.
function optionInput(opt, game) {
  const R = termsOf(game);
  const row = document.createElement("div");
  row.className = "field opt";
  const label = document.createElement("label");
  const key = `option.${opt.name}`;
  // The option's own name (as the terminal and the API take it) is a tooltip, not text in
  // another language beside its name in this one.
  label.textContent = R.hasTerm(key) ? R.term(key) : opt.name;
  label.title = opt.name;
  label.htmlFor = "opt-" + opt.name;
  let input;
  const choices = opt.choices.includes("|") ? opt.choices.split("|").map((c) => c.trim()) : null;
  // A choice by what it does (term.<game>.option.<name>.<value>), else the game's term for
  // the value, else the shared yes/no.
  const choiceLabel = (c) => (R.hasTerm(`${key}.${c}`) ? R.term(`${key}.${c}`) : R.hasTerm(c) ? R.term(c)
    : has(`ui.choice.${c}`) ? t(`choice.${c}`) : c);
  if (choices) {
    input = document.createElement("select");
    for (const c of choices) input.add(new Option(choiceLabel(c), c, false, c.toLowerCase() === String(opt.default).toLowerCase()));
  } else {
    input = document.createElement("input");
    input.value = opt.default;
    input.size = 14;
  }
  input.id = "opt-" + opt.name; input.dataset.option = opt.name;
  input.dataset.default = input.dataset.shown = input.value;  // the default as the panel writes it
  const hint = document.createElement("small");
  const shown = choices ? choiceLabel(choices.find((c) => c.toLowerCase() === String(opt.default).toLowerCase()) ?? opt.default) : opt.default;
  hint.textContent = t("default_is", { value: shown });
  row.append(label, input, hint);
  if (R.hasTerm(`${key}.help`)) {
    const help = document.createElement("p"); help.className = "help"; help.textContent = R.term(`${key}.help`);
    row.append(help);
  }
  return row;
}

// The seat rows; a change of the number of players keeps the choices made, a change of game
// starts afresh (another game's bots are other bots, even where their names are the same).
function seatRows(keep = true) {
  const g = current(); const n = Number($("players").value) || g.default_players;
  const box = $("seats");
  const old = keep ? [...box.querySelectorAll(".seat-row")].map((r) => [r.querySelector(".kind").value, r.querySelector(".bot").value,
    r.querySelector(".seat-name").value]) : [];
  box.replaceChildren();
  for (let i = 0; i < n; i++) {
    const row = document.createElement("div"); row.className = "field seat-row";
    const label = document.createElement("label"); label.textContent = t("seat_n", { n: i });
    const kind = document.createElement("select"); kind.className = "kind"; kind.setAttribute("aria-label", t("seat_n", { n: i }));
    if (i === 0) kind.add(new Option(t("you"), "you"));
    kind.add(new Option(t("invite"), "human")); kind.add(new Option(t("open_seat_kind"), "open")); kind.add(new Option(t("bot"), "bot"));
    kind.value = old[i] ? old[i][0] : (i === 0 ? "you" : "bot");
    const bot = document.createElement("select"); bot.className = "bot";
    for (const b of g.bots) bot.add(new Option(botKind(b) + (b === g.default_bot ? " ★" : ""), b, false, b === g.default_bot));
    bot.setAttribute("aria-label", `${t("seat_n", { n: i })} — ${t("bot")}`);
    if (old[i] && g.bots.includes(old[i][1])) bot.value = old[i][1];
    // An invited person's name (optional: they may change it at the table).
    const name = document.createElement("input"); name.className = "seat-name"; name.maxLength = 24;
    name.placeholder = t("name_optional"); name.setAttribute("aria-label", `${t("seat_n", { n: i })} — ${t("name_optional")}`);
    name.value = old[i] ? old[i][2] : "";
    const sync = () => { bot.hidden = kind.value !== "bot"; name.hidden = kind.value !== "human"; };
    kind.onchange = sync; sync();
    row.append(label, kind, bot, name); box.append(row);
  }
}

// A preset by its name in the page's language (term.<game>.preset.<name>), else as the game
// spells it; its one line of help under the list.
const presetName = (R, p) => (R.hasTerm(`preset.${p}`) ? R.term(`preset.${p}`) : p);
function showPresetHelp() {
  const R = termsOf(current().name), p = $("preset").value;
  $("preset-help").textContent = p && R.hasTerm(`preset.${p}.help`) ? R.term(`preset.${p}.help`) : "";
}

// A bot's kind and level in the page's language ("search:fast": 探索（速い）), else as named.
function botKind(bot) {
  const [kind, level] = bot.split(":");
  const k = has(`term.bot.${kind}`) ? text(`term.bot.${kind}`) : kind;
  if (!level) return k;
  return t("bot_kind_level", { kind: k, level: has(`term.bot_level.${level}`) ? text(`term.bot_level.${level}`) : level });
}

// How the match ends (GameSpec.match_end): a number of deals ("count"), the game's own rule
// with an optional cap ("limit"), or the game's rule alone ("none": no deals field at all).
function showDeals(g) {
  const end = g.match_end;
  const R = termsOf(g.name);
  $("deals-field").hidden = end.deals === "none";
  $("deals").value = end.deals === "count" ? (end.default_deals ?? 1) : "";
  $("deals").required = end.deals === "count";
  $("deals-label").textContent = end.deals === "limit" ? t("deals_cap") : t("deals");
  $("deals-hint").textContent = end.deals === "count" ? "" : t("match_ends", { reason: R.term(end.reason) });
  $("deals-hint").hidden = end.deals === "count";
  // A rule option of the same name as the Deals field is that field: one place to say it.
  const twin = $("options").querySelector('[data-option="deals"]');
  if (twin) twin.closest(".opt").hidden = !$("deals-field").hidden;
}

// The match's free first seat, in a game whose rules let the players choose it: first_seat
// names the request's field (first_dealer, first_kai_pai) and the label's key. Left at its
// default, a lobby (live) table draws it at random.
function showFirstDealer(g) {
  if (!$("first-dealer-field")) {
    const row = document.createElement("div"); row.className = "field"; row.id = "first-dealer-field";
    const label = document.createElement("label"); label.id = "first-dealer-label"; label.htmlFor = "first-dealer";
    const input = document.createElement("select"); input.id = "first-dealer";
    row.append(label, input); $("deals-field").after(row);
  }
  $("first-dealer-field").hidden = !g.first_seat;
  if (!g.first_seat) return;
  $("first-dealer-label").textContent = t(g.first_seat);
  const n = Number($("players").value) || g.default_players;
  $("first-dealer").replaceChildren(new Option(t("first_seat_random"), ""),
    ...Array.from({ length: n }, (_, i) => new Option(t("seat_n", { n: i }), String(i))));
}

// A game's standard preset, which the lobby starts at (a game without one: no preset).
const STANDARD = "standard";

function showGame(keepSeats = false) {
  const g = current();
  const preset = keepSeats ? $("preset").value : STANDARD;
  const R = termsOf(g.name);
  $("summary").textContent = R.hasTerm("summary") ? R.term("summary") : g.summary || "";
  $("players").min = g.min_players; $("players").max = g.max_players; $("players").value = g.default_players;
  $("players-hint").textContent = `${g.min_players}–${g.max_players}`;
  $("preset").replaceChildren(new Option(t("none"), ""), ...Object.keys(g.presets).map((p) => new Option(presetName(R, p), p)));
  $("options").replaceChildren(...g.options.map((o) => optionInput(o, g.name)));
  $("preset").onchange = showPreset;
  if (preset in g.presets) { $("preset").value = preset; showPreset(); }
  showPresetHelp();
  showDeals(g);
  showFirstDealer(g);
  seatRows(keepSeats);
}

function toast(text) {
  $("error").textContent = text; $("error").hidden = false;
  setTimeout(() => { $("error").hidden = true; }, 6000);
}

// A preset's value as the panel writes it: a list as "a,b,c", a truth as "true"/"false".
const panelValue = (v) => (Array.isArray(v) ? v.join(",") : String(v));

// Picking a preset shows its values in the panel (the defaults where it says nothing); what
// the panel shows then is the baseline, and only options the person changes override it.
function showPreset() {
  showPresetHelp();
  const values = current().presets[$("preset").value] || {};
  for (const el of $("options").querySelectorAll("[data-option]")) {
    const name = el.dataset.option;
    let shown = name in values ? panelValue(values[name]) : el.dataset.default;
    if (el.tagName === "SELECT") shown = [...el.options].find((o) => o.value.toLowerCase() === shown.toLowerCase())?.value ?? shown;
    el.value = shown; el.dataset.shown = shown;
    el.closest(".opt").classList.toggle("from-preset", name in values);
  }
}

// The options the person changed from what the panel showed (the preset's values or the defaults).
function changedOptions() {
  const options = {};
  for (const el of $("options").querySelectorAll("[data-option]")) {
    if (el.value !== el.dataset.shown && !el.closest(".opt").hidden) options[el.dataset.option] = el.value;
  }
  return options;
}

async function create(ev) {
  ev.preventDefault();
  const g = current();
  const options = changedOptions();
  const seats = [...document.querySelectorAll(".seat-row")].map((r) => {
    const kind = r.querySelector(".kind").value;
    if (kind === "bot") return { kind: "bot", bot: r.querySelector(".bot").value };
    if (kind === "open") return { kind: "open" };
    return { kind: "human", name: kind === "you" ? myName() : r.querySelector(".seat-name").value.trim() };
  });
  const body = { game: g.name, players: Number($("players").value), turn_seconds: Number($("timer").value), seats, options };
  if (!$("deals-field").hidden && $("deals").value !== "") body.deals = Number($("deals").value);
  if (!$("first-dealer-field").hidden && $("first-dealer").value !== "") body[g.first_seat] = Number($("first-dealer").value);
  if ($("preset").value) body.preset = $("preset").value;
  const resp = await fetch("/api/tables", { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });
  const data = await resp.json();
  if (!resp.ok) { toast(termsOf(g.name).error(data)); return; }
  const list = $("links"); list.replaceChildren();
  for (const s of data.seats) {
    const li = document.createElement("li");
    if (s.link) { const a = document.createElement("a"); a.href = s.link; a.textContent = location.origin + s.link; li.append(`${t("seat_n", { n: s.seat })}: `, a); }
    else if (s.kind === "bot") li.textContent = `${t("seat_n", { n: s.seat })}: ${t("bot")} (${s.bot})`;
    else li.textContent = `${t("seat_n", { n: s.seat })}: ${t("open_seat_kind")}`;
    list.append(li);
  }
  const spec = document.createElement("a"); spec.href = data.spectator_link; spec.textContent = location.origin + data.spectator_link;
  const li = document.createElement("li"); li.append(spec); $("spectator").replaceChildren(li);
  const mine = data.seats.find((s) => s.link);
  $("mine").href = mine ? mine.link : data.spectator_link;
  $("created").hidden = false;
  $("created").scrollIntoView();
  refreshOpenTables();
}

// The player's name, remembered in this browser: their seat at a new table, and the name
// they join an open table with.
const myName = () => $("your-name").value.trim();

// Tables with a seat anyone may take (created with an "open" seat), refreshed while the
// lobby is open; Join takes the first free seat under the player's name.
async function refreshOpenTables() {
  const resp = await fetch("/api/tables");
  if (!resp.ok) return;
  const list = await resp.json();
  $("open-tables").replaceChildren(...list.map((tb) => {
    const li = document.createElement("li"); li.dataset.table = tb.id;
    const who = tb.seats.filter((s) => !s.open).map((s) => s.name).join(", ");
    const title = document.createElement("strong"); title.textContent = gameTitle(tb.game, tb.title);
    const info = document.createElement("span");
    info.textContent = ` — ${t("free_seats", { count: tb.open_seats.length, players: tb.players })}` +
      (tb.deals ? ` · ${t("deal_of", { deal: tb.deal, deals: tb.deals })}` : "") + (who ? ` · ${who}` : "");
    const join = document.createElement("button"); join.type = "button"; join.className = "primary join"; join.textContent = t("join");
    join.onclick = () => joinTable(tb.id);
    li.append(title, info, " ", join);
    return li;
  }));
  $("no-open-tables").hidden = list.length > 0;
}

async function joinTable(id) {
  if (!myName()) { toast(t("name_needed")); $("your-name").focus(); return; }
  const resp = await fetch(`/api/tables/${encodeURIComponent(id)}/join`, {
    method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ name: myName() }) });
  const data = await resp.json();
  if (!resp.ok) { toast(termsOf(current().name).error(data)); refreshOpenTables(); return; }
  location.assign(data.link);
}

async function showRules() {
  const resp = await fetch(`/api/games/${encodeURIComponent(current().name)}/rules?lang=${lang}`);
  $("rules-body").innerHTML = resp.ok ? renderMarkdown((await resp.json()).markdown) : "—";
  $("rules").showModal();
}

// "Play now against bots": a table of the game's standard rules, you at seat 0 and the game's
// own bots elsewhere, opened at once.
function quickButtons() {
  $("quick").replaceChildren(...games.map((g) => {
    const b = document.createElement("button"); b.type = "button"; b.className = "primary quick-play"; b.dataset.game = g.name;
    b.textContent = t("quick_play_game", { game: gameTitle(g.name, g.title) });
    b.onclick = () => quickPlay(g);
    return b;
  }));
}

async function quickPlay(g) {
  const seats = Array.from({ length: g.default_players }, (_, i) => (i === 0 ? { kind: "human", name: myName() } : { kind: "bot", bot: g.default_bot }));
  const resp = await fetch("/api/tables", { method: "POST", headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ game: g.name, players: g.default_players, seats, options: {} }) });
  const data = await resp.json();
  if (!resp.ok) { toast(termsOf(g.name).error(data)); return; }
  const mine = data.seats.find((s) => s.link);
  location.assign(mine ? mine.link : data.spectator_link);
}

function fillGames() {
  const chosen = $("game").value;
  $("game").replaceChildren(...games.map((g) => new Option(gameTitle(g.name, g.title), g.name)));
  if (chosen) $("game").value = chosen;
}

async function init() {
  await loadCatalogs();
  applyStatic();
  $("lang").textContent = t("other_language");
  $("lang").onclick = async () => {
    await setLang(lang === "ja" ? "en" : "ja"); applyStatic(); $("lang").textContent = t("other_language");
    fillGames(); showGame(true); refreshOpenTables(); quickButtons();
  };
  $("your-name").value = localStorage.getItem("folkdeck.name") || "";
  $("your-name").onchange = () => localStorage.setItem("folkdeck.name", myName());
  games = await (await fetch("/api/games")).json();
  fillGames();
  quickButtons();
  $("game").onchange = () => showGame(false); $("players").onchange = () => { seatRows(true); showFirstDealer(current()); };
  $("create").onsubmit = create; $("rules-btn").onclick = showRules;
  showGame();
  refreshOpenTables();
  setInterval(() => { if (!document.hidden) refreshOpenTables(); }, 5000);
}
init();
