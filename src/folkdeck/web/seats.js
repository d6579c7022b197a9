// The seats around the table: each player's name, cards held, team, and where they stand.
import { botBadge } from "./players.js";
import { isCentrePlay } from "./board.js";

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
// team when the game has teams (GameSpec.teams for this number of players), described for
// the shared renderer (view.js drawSeats); ``names``: the seats' shown names (table.js).
export function tableSeats(msg, R, names) {
  const { table, obs } = msg;
  const n = table.seats.length;
  const start = msg.you ?? 0;
  const teams = table.teams || [];
  const teamOf = (i) => teams.findIndex((team) => team.includes(i));
  return Array.from({ length: n }, (_, k) => (start + k) % n).map((i, k) => {
    const s = table.seats[i];
    const team = teamOf(i);
    // The seat's cards held are drawn as a fan with its count (said aloud by its label).
    const facts = [];
    const count = (obs.counts || [])[i];
    const held = count === null ? R.ui("count_hidden") : count !== undefined ? R.ui("cards_held", { count }) : "";
    if (msg.you === i && held) facts.push(held);
    // What the seat has in the match (chips, points, penalties): its standing's score.
    const st = table.standings;
    if (st && st.scores && st.scores[i] != null) facts.push(R.ui("seat_score", { score: st.scores[i], unit: st.unit }));
    if (team >= 0) facts.push(msg.you != null && teamOf(msg.you) === team ? R.ui("your_team") : R.ui("team", { team: team + 1 }));
    const out = (obs.out || []).indexOf(i);
    const place = obs.result ? (obs.result.placings || [])[i] : out >= 0 ? out + 1 : null;
    const gone = place != null && count === 0;  // its place, not an empty hand's "0"
    const standing = seatStanding(obs, i, R);
    if (standing && !gone) facts.push(standing);  // a seat gone out shows its place once: its badge
    if ((obs.passed || []).includes(i)) facts.push(R.ui("passed"));
    if ((obs.to_act || []).includes(i) && obs.current_seat !== i) facts.push(R.ui("may_act"));
    const tag = s.kind === "bot" ? botBadge(s.bot) : s.auto ? `⏱ ${R.ui("bot")}` : s.open ? R.ui("table.open_seat") : "";
    // A person whose connection is gone (and no bot plays for them): the others are told.
    if (s.kind !== "bot" && !s.open && !s.auto && !s.connected && msg.you !== i && !obs.result) facts.push(R.ui("away"));
    return {
      seat: i, name: names ? names[i] : s.name, tag, tagClass: s.kind === "bot" ? "bot-badge" : !s.auto && s.open ? "open-seat" : "",
      online: s.kind === "bot" || s.connected,
      classes: [...(obs.current_seat === i ? ["turn"] : []), ...(msg.you === i ? ["me"] : []), ...(team >= 0 ? [`team-${team}`] : []),
        `side-${ringSide(k, n)}`],
      facts, held, hand: null, pos: ringPlace(k, n),
      out: gone ? R.ui("seat_place", { place }) : null,
      back: msg.you === i || gone || count === undefined ? null : count === null ? "?" : count,
      play: lastPlay(obs, i),
    };
  });
}

// Where the k-th seat from the viewer sits around the oval (per cent of the table's box):
// the viewer at the bottom, the others in playing order around it, as they sit.
export function ringPlace(k, n) {
  const angle = Math.PI / 2 + (2 * Math.PI * k) / n;
  return { x: Math.round(50 + 41 * Math.cos(angle)), y: Math.round(50 + 39 * Math.sin(angle)) };
}

// Which side of the table the k-th seat from the viewer sits on: its last play lies on the
// table in front of it (style.css places it toward the middle).
export function ringSide(k, n) {
  const { x, y } = ringPlace(k, n);
  if (y >= 75) return "bottom";
  if (y <= 25) return "top";
  return x < 50 ? "left" : "right";
}

// The cards of ``seat``'s play on the table now (its last in the trick), else null; the play
// in the middle of the table (board.js centrePlay) is not drawn twice.
function lastPlay(obs, seat) {
  const plays = (obs.table || []).filter((p) => p.seat === seat);
  const play = plays.length ? plays[plays.length - 1] : null;
  return play && !isCentrePlay(obs, play) ? play.cards : null;
}
