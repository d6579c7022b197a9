// Step through a finished deal: every hand face up, the event of each step.
import { cardSVG, setCuccoNames } from "./cards.js";
import { t, lang, applyStatic, cuccoNames, prose } from "./i18n.js";

const $ = (id) => document.getElementById(id);
const PACKS = { burro_es: "spanish", burro_pt: "portuguese", cambio: "cucco" };
let data = null, at = 0;

function show() {
  if (!data) return;
  const step = data.steps[at];
  $("slider").max = data.steps.length - 1; $("slider").value = at;
  $("step").textContent = t("step", at, data.steps.length - 1);
  $("event").textContent = step.event ? prose(data.game, step.event) : "—";
  const pack = PACKS[data.game] || "french";
  $("hands").replaceChildren(...step.hands.map((hand, i) => {
    const row = document.createElement("div"); row.className = "seat"; row.style.margin = ".4rem 0";
    row.innerHTML = `<div class="name">${t("seat", i)}</div>`;
    const cards = document.createElement("div"); cards.className = "hand idle";
    for (const c of (hand || "").split(/\s+/).filter(Boolean)) {
      const s = document.createElement("span"); s.className = "card"; s.innerHTML = cardSVG(c, pack, { width: 40 }); cards.append(s);
    }
    row.append(cards); return row;
  }));
}

async function load(text) {
  const resp = await fetch("/api/replay", { method: "POST", headers: { "Content-Type": "application/json" }, body: text });
  const body = await resp.json();
  if (!resp.ok) { $("error").textContent = body.detail.message || "bad record"; $("error").hidden = false; return; }
  data = body; at = 0; show();
}

document.documentElement.lang = lang; applyStatic(); setCuccoNames(cuccoNames());
$("prev").onclick = () => { at = Math.max(0, at - 1); show(); };
$("next").onclick = () => { if (data) { at = Math.min(data.steps.length - 1, at + 1); show(); } };
$("slider").oninput = () => { at = Number($("slider").value); show(); };
$("file").onchange = async () => { const f = $("file").files[0]; if (f) load(await f.text()); };
const params = new URLSearchParams(location.search);
if (params.get("t")) {
  fetch(`/api/tables/${encodeURIComponent(params.get("t"))}/records/${Number(params.get("d") || 1)}`).then((r) => r.text()).then(load);
}
