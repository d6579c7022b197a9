// The seats around the table: each player's name, cards held, team, and where they stand.
import { backSVG } from "./cards.js";

const $ = (id) => document.getElementById(id);
const esc = (s) => String(s).replace(/[&<>"]/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" })[c]);

// Where a seat stands, from the view's typed fields: once the deal is over its place in the
// result (``result.placings``, the place Results names); before, "disqualified" for a seat a
// ``disqualified`` fact put out of the deal (it did not finish), else its place among the
// seats that have finished (``out``, in order).
export function seatStanding(obs, seat, R) {
  if (obs.result) {
    const place = (obs.result.placings || [])[seat];
    return place != null ? R.ui("seat_place", { place }) : R.ui("seat_unplaced");
  }
  const dq = (obs.history || []).some((ev) => (ev.facts || []).some((f) => f.type === "disqualified" && f.seat === seat));
  if (dq) return R.ui("seat_disqualified");
  const place = (obs.out || []).indexOf(seat);
  return place >= 0 ? R.ui("out_place", { place: place + 1 }) : "";
}

// Seats in playing order from the viewer's (a spectator's from seat 0), each marked with its
// team when the game has teams (GameSpec.teams for this number of players).
export function renderSeats(msg, R) {
  const { table, obs } = msg;
  const n = table.seats.length;
  const start = msg.you ?? 0;
  const teams = table.teams || [];
  const teamOf = (i) => teams.findIndex((team) => team.includes(i));
  const box = $("seats");
  box.className = `seats players-${n}`;
  box.replaceChildren(...Array.from({ length: n }, (_, k) => (start + k) % n).map((i) => {
    const s = table.seats[i];
    const div = document.createElement("div");
    const team = teamOf(i);
    div.className = "seat" + (obs.current_seat === i ? " turn" : "") + (msg.you === i ? " me" : "") + (team >= 0 ? ` team-${team}` : "");
    div.dataset.seat = i;
    const extra = [R.message("seat.name", { n: i })];
    const count = (obs.counts || [])[i];
    if (count === null) extra.push(R.ui("count_hidden"));
    else if (count !== undefined) extra.push(R.ui("cards_held", { count }));
    if (team >= 0) extra.push(msg.you != null && teamOf(msg.you) === team ? R.ui("your_team") : R.ui("team", { team: team + 1 }));
    const standing = seatStanding(obs, i, R);
    if (standing) extra.push(standing);
    if ((obs.passed || []).includes(i)) extra.push(R.ui("passed"));
    if ((obs.to_act || []).includes(i) && obs.current_seat !== i) extra.push(R.ui("may_act"));
    const bot = s.kind === "bot" ? ` <small>(${esc(R.ui("bot"))})</small>` : s.auto ? ` <small>(⏱ ${esc(R.ui("bot"))})</small>`
      : s.open ? ` <small class="open-seat">(${esc(R.ui("table.open_seat"))})</small>` : "";
    div.innerHTML = `<div class="name"><span class="dot ${s.kind === "bot" || s.connected ? "on" : ""}"></span>${esc(s.name)}${bot}</div>` +
      `<div class="meta">${extra.map(esc).join(" · ")}</div>`;
    if (count != null && msg.you !== i) div.insertAdjacentHTML("beforeend", backSVG(22, String(count)));
    return div;
  }));
}
