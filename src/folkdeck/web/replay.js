// Step through a finished deal: every hand face up, the event of each step rendered from its
// facts (the action as the public history describes it, then what followed).
import { cardSVG } from "./cards.js";
import { Renderer, loadCatalogs, applyStatic } from "./i18n.js";

const $ = (id) => document.getElementById(id);
let data = null, at = 0, R = new Renderer(), notation = "french";

// The step's event as the table's history shows it: the public view after the step holds
// the event with its action as a fact; the record's event adds every fact (all hands are open).
function stepEvent(step) {
  if (!step.event) return null;
  const history = (step.public && step.public.history) || [];
  const seen = history[history.length - 1];
  return { seat: step.event.seat, action: step.event.action, act: seen ? seen.act : null, facts: step.event.facts };
}

function show() {
  if (!data) return;
  const step = data.steps[at];
  $("slider").max = data.steps.length - 1; $("slider").value = at;
  $("step").textContent = R.ui("step", { step: at, steps: data.steps.length - 1 });
  const event = stepEvent(step);
  $("event").textContent = event ? R.event(event) : "—";
  $("hands").replaceChildren(...step.hands.map((hand, i) => {
    const row = document.createElement("div"); row.className = "seat"; row.style.margin = ".4rem 0";
    const name = document.createElement("div"); name.className = "name"; name.textContent = R.message("seat.name", { n: i });
    const cards = document.createElement("div"); cards.className = "hand idle";
    for (const c of hand || []) {
      const s = document.createElement("span"); s.className = "card";
      s.innerHTML = cardSVG(c, notation, { width: 40, name: R.hasTerm(c) ? R.term(c) : "" }); cards.append(s);
    }
    row.append(name, cards); return row;
  }));
}

async function load(text) {
  const resp = await fetch("/api/replay", { method: "POST", headers: { "Content-Type": "application/json" }, body: text });
  const body = await resp.json();
  if (!resp.ok) { $("error").textContent = new Renderer().error(body); $("error").hidden = false; return; }
  const game = await (await fetch(`/api/games/${encodeURIComponent(body.game)}`)).json();
  notation = game.card_notation || "french";
  R = new Renderer({ game: body.game, notation, symbols: true });
  data = body; at = 0; show();
}

async function init() {
  await loadCatalogs();
  applyStatic();
  $("prev").onclick = () => { at = Math.max(0, at - 1); show(); };
  $("next").onclick = () => { if (data) { at = Math.min(data.steps.length - 1, at + 1); show(); } };
  $("slider").oninput = () => { at = Number($("slider").value); show(); };
  $("file").onchange = async () => { const f = $("file").files[0]; if (f) load(await f.text()); };
  const params = new URLSearchParams(location.search);
  if (params.get("t")) {
    const resp = await fetch(`/api/tables/${encodeURIComponent(params.get("t"))}/records/${Number(params.get("d") || 1)}`);
    load(await resp.text());
  }
}
init();
