// The table's side panel: the standings, each finished deal's result (its record's links and
// the review of the player's decisions), the deal's history, and the deal-over box.
import { reviewAsked } from "./review.js";
import { tableStore } from "./model.js";
import { patchList, setText } from "./view.js";
import { resultRows, returnsText, standingPlaces, winnerLine } from "./result.js";

const $ = (id) => document.getElementById(id);
const esc = (s) => String(s).replace(/[&<>"]/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" })[c]);

function button(text, cls, fn) { const b = document.createElement("button"); b.textContent = text; if (cls) b.className = cls; b.onclick = fn; return b; }

function recordLinks(table, deal, R) {
  const url = `/api/tables/${table.id}/records/${deal}`;
  if (!table.records.includes(url)) return "";
  return ` <a href="${url}" download>${esc(R.ui("download"))}</a> <a href="/replay?t=${encodeURIComponent(table.id)}&d=${deal}">${esc(R.ui("replay"))}</a>`;
}

// The whole match so far (folkdeck-match/1: its finished deals and the standings after them),
// once the table gives it: to download, or to step through deal by deal in the replay viewer.
function matchLinks(table, R) {
  if (!table.match_record) return "";
  return `<a href="${esc(table.match_record)}" download>${esc(R.ui("download_match"))}</a> ` +
    `<a href="/replay?t=${encodeURIComponent(table.id)}&match=1">${esc(R.ui("replay.open_match"))}</a>`;
}

function lockedText(table, R) {
  return table.records_locked ? R.ui("records_locked", { why: table.records_locked }) : "";
}

// A deal's facts as the Results list shows them: once the match is over, no deal follows,
// so no fact says who starts the next one.
const NEXT_DEAL = /(^|\.)next_deal$/;  // the core fact, or a game's own (e.g. "<game>.next_deal")
const shownFacts = (r, table) => (r.facts || []).filter((f) => !(table.match_over && NEXT_DEAL.test(f.type)));

function renderStandings(table, R) {
  const st = table.standings;
  if (!st) return [];
  const lines = [R.ui("deals_played", { played: st.deals_played, limit: st.deals_limit })];
  const places = standingPlaces(st);
  (st.ranking || []).forEach((seat) => {
    const row = R.ui("standing", { place: places[seat], seat, score: st.scores[seat], unit: st.unit });
    lines.push((st.eliminated || []).includes(seat) ? R.ui("eliminated_row", { row }) : row);
  });
  return lines;
}

// The result box the player tucked away ("<table>:<deal>"): the store's ``tucked``.

/** The side panel (standings, results, history) and the deal-over box of ``msg``; ``ask(deal)``
 * asks for the review of a finished deal. */
export function renderSide(msg, R, ask) {
  const { table, obs } = msg;
  $("standings").replaceChildren(...renderStandings(table, R).map((l) => Object.assign(document.createElement("div"), { textContent: l })));
  $("results").replaceChildren(...table.results.map((r) => {
    const li = document.createElement("li"); li.dataset.deal = r.deal;
    li.innerHTML = `<strong>${esc(R.ui("deal_of", { deal: r.match_deal ?? r.deal, deals: table.deals }))}</strong>: ${esc(R.term(r.reason))}` +
      (r.returns.length ? ` — ${esc(returnsText(R, r.returns, table.teams, msg.you))}` : "") +
      shownFacts(r, table).map((f) => `<div class="line">${esc(R.fact(f))}</div>`).join("") + recordLinks(table, r.deal, R);
    if (msg.you != null && !reviewAsked(r.deal)) {  // every finished deal stays reviewable
      const b = button(R.ui("review"), "link review-deal", () => ask(r.deal));
      b.dataset.deal = r.deal; li.append(" ", b);
    }
    return li;
  }));
  $("locked").textContent = lockedText(table, R); $("locked").hidden = !table.records_locked;
  $("match-record").innerHTML = matchLinks(table, R); $("match-record").hidden = !table.match_record;
  // The history newest first, each entry kept by its number (a message adds one or two).
  const history = obs.history || [];
  patchList($("history"), history.map((_, i) => history.length - 1 - i), {
    key: (k) => `${msg.table.deal}:${k}`, make: () => document.createElement("li"), update: (li, k) => setText(li, R.event(history[k])),
  });
  const res = $("result");
  $("next-home").append($("next-line"));  // out of the box before it is redrawn
  res.replaceChildren();
  if (obs.result || table.match_over) {
    const div = document.createElement("div"); div.className = "result"; div.id = "result-box";
    const r = obs.result;
    let html = `<strong>${esc(table.match_over ? R.ui("match_over") : R.ui("deal_over"))}</strong>`;
    if (table.match_over && table.standings) {
      // The match's end: its winner (or the tie) and the final standings first, then the last deal.
      html += `<p class="winner" id="winner">${esc(upper(winnerLine(R, table.standings, table.teams, msg.you)))}</p>` +
        `<h4>${esc(R.ui("final_standings"))}</h4><div class="final">` +
        renderStandings(table, R).slice(1).map((l) => `<div>${esc(l)}</div>`).join("") + "</div>";
    }
    if (r) {
      html += `<div>${esc(R.ui("result_reason", { reason: r.reason }))}</div>` +
        resultRows(R, r, table.teams, msg.you).map((line) => `<div class="rows">${esc(line)}</div>`).join("");
    }
    div.innerHTML = html;
    // The box floats over the table: it can be tucked away to look at the table, and back.
    const tucked = tableStore.state.tucked === `${table.id}:${table.deal}`;
    div.classList.toggle("tucked", tucked);
    const toggle = button(R.ui(tucked ? "show_result" : "hide_result"), "link tuck", () => {
      tableStore.dispatch({ type: "tuck", key: tucked ? null : `${table.id}:${table.deal}` });
      renderSide(msg, R, ask);
    });
    toggle.setAttribute("aria-expanded", String(!tucked));
    div.prepend(toggle);
    if (r && msg.you != null && !reviewAsked(table.deal)) {
      const b = button(R.ui("review"), "", () => ask(table.deal));
      b.id = "review-btn";
      div.append(b);
    }
    table.results.forEach((rr) => {
      const links = recordLinks(table, rr.deal, R);
      if (links) div.insertAdjacentHTML("beforeend", `<div>${esc(R.ui("deal_record", { deal: rr.deal }))}:${links}</div>`);
    });
    if (table.match_record) div.insertAdjacentHTML("beforeend", `<div class="match-record">${matchLinks(table, R)}</div>`);
    if (table.records_locked) div.insertAdjacentHTML("beforeend", `<div class="locked">${esc(lockedText(table, R))}</div>`);
    res.append(div);
    // "Play again" (or the next match) stays in the box, in view without scrolling.
    if (table.match_over) div.querySelector(table.standings ? ".final" : "strong").after($("next-line"));
  }
}

const upper = (s) => (s && /^[a-z]/.test(s) ? s[0].toUpperCase() + s.slice(1) : s);
