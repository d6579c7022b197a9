// The seats around the table: each player's name, cards held, team, and where they stand.

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
// the shared renderer (view.js drawSeats).
export function tableSeats(msg, R) {
  const { table, obs } = msg;
  const n = table.seats.length;
  const start = msg.you ?? 0;
  const teams = table.teams || [];
  const teamOf = (i) => teams.findIndex((team) => team.includes(i));
  return Array.from({ length: n }, (_, k) => (start + k) % n).map((i) => {
    const s = table.seats[i];
    const team = teamOf(i);
    const facts = [R.message("seat.name", { n: i })];
    const count = (obs.counts || [])[i];
    if (count === null) facts.push(R.ui("count_hidden"));
    else if (count !== undefined) facts.push(R.ui("cards_held", { count }));
    if (team >= 0) facts.push(msg.you != null && teamOf(msg.you) === team ? R.ui("your_team") : R.ui("team", { team: team + 1 }));
    const standing = seatStanding(obs, i, R);
    if (standing) facts.push(standing);
    if ((obs.passed || []).includes(i)) facts.push(R.ui("passed"));
    if ((obs.to_act || []).includes(i) && obs.current_seat !== i) facts.push(R.ui("may_act"));
    const tag = s.kind === "bot" ? R.ui("bot") : s.auto ? `⏱ ${R.ui("bot")}` : s.open ? R.ui("table.open_seat") : "";
    return {
      seat: i, name: s.name, tag, tagClass: s.kind !== "bot" && !s.auto && s.open ? "open-seat" : "",
      online: s.kind === "bot" || s.connected,
      classes: [...(obs.current_seat === i ? ["turn"] : []), ...(msg.you === i ? ["me"] : []), ...(team >= 0 ? [`team-${team}`] : [])],
      facts, hand: null, back: count != null && msg.you !== i ? count : null,
    };
  });
}
