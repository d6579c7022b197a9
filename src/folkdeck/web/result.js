// A finished deal's result in words, alike at the table (side.js) and in the replay viewer:
// each seat's place and points, and the teams' scores in a team game.

export const signed = (v) => `${v > 0 ? "+" : ""}${Number.isInteger(v) ? v : Number(Number(v).toPrecision(6))}`;

// A team game whose deal scores each team as one (every member the same return, as in Gou
// Ji): the returns of the teams, the viewer's first named "your team".
export function teamReturns(returns, teams) {
  if (!teams || teams.length < 2 || !returns.length) return null;
  const shared = teams.every((team) => team.every((s) => returns[s] === returns[team[0]]));
  return shared ? teams.map((team) => returns[team[0]]) : null;
}

function teamName(R, teams, k, you) {
  return you != null && teams[k].includes(you) ? R.ui("your_team") : R.ui("team", { team: k + 1 });
}

export function returnsText(R, returns, teams, you) {
  const byTeam = teamReturns(returns, teams);
  const parts = byTeam ? byTeam.map((v, k) => `${teamName(R, teams, k, you)} ${signed(v)}`)
    : returns.map((v, i) => `${R.seat(i)} ${signed(v)}`);
  return parts.join(R.ui("list_separator"));
}

/** The result's lines: each seat's place with its own points, then, when the teams score as
 * one, the teams' scores. A seat's own points are its return, or in a team game the points of
 * its place (``place_points``, as Gou Ji's view gives them: "you 6th (-4)", never the team's
 * total beside each player); with neither, the place alone. */
export function resultRows(R, r, teams, you) {
  const byTeam = teamReturns(r.returns, teams);
  const own = r.place_points || (byTeam ? null : r.returns);
  const rows = (r.placings || []).map((p, i) => {
    if (!own) return p != null ? R.ui("result_place", { seat: i, place: p }) : R.ui("result_unplaced", { seat: i });
    return p != null ? R.ui("result_row", { seat: i, place: p, delta: signed(own[i]) })
      : R.ui("result_row_unplaced", { seat: i, delta: signed(own[i]) });
  });
  const lines = [rows.join(R.ui("list_separator"))];
  if (byTeam) lines.push(R.ui("team_returns", { returns: returnsText(R, r.returns, teams, you) }));
  return lines;
}

/** Each seat's place in the standings, ties ranked equal (a 5–5 tie is joint 1st, the next
 * seat 3rd): one more than the seats strictly ahead of it, an eliminated seat behind every
 * other, a score ahead by the match's direction (``higher_wins``: chips, points; else
 * penalties). */
export function standingPlaces(st) {
  const out = new Set(st.eliminated || []);
  const sign = st.higher_wins === false ? -1 : 1;
  const ahead = (a, b) => (out.has(a) !== out.has(b) ? out.has(b) : sign * (st.scores[a] - st.scores[b]) > 0);
  return st.scores.map((_, seat) => 1 + st.scores.filter((__, other) => ahead(other, seat)).length);
}

/** Who won the match, in words: one seat, a team that shares first place (Gou Ji's), or a tie. */
export function winnerLine(R, st, teams, you) {
  const places = standingPlaces(st);
  const first = places.map((p, seat) => (p === 1 ? seat : -1)).filter((seat) => seat >= 0);
  if (first.length === 1) return R.ui("winner", { seat: first[0] });
  const team = (teams || []).find((tm) => tm.length === first.length && tm.every((s) => first.includes(s)));
  if (team) return team.includes(you) ? R.ui("winner_team_you", { seats: team.filter((s) => s !== you) }) : R.ui("winner_team", { seats: team });
  return R.ui("tie", { seats: first });
}
