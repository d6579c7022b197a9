"""Who may act now, as the server sees it: refusals of a seat out of turn, and whether the
bot on turn must give the people a moment to act out of turn first."""

from __future__ import annotations

from folkdeck.engine.errors import NotYourTurnError, WrongPhaseError
from folkdeck.engine.protocol import Seat, State
from folkdeck.server.tables import Table


def refuse_unless_to_act(state: State, seat: Seat) -> None:
    """Raise unless ``seat`` may act now: the deal is over, or another seat is to act.

    Names only a seat whose turn is public: in a window opened by hidden cards (a
    declaration a hidden hand allows) saying who is in it would tell the cards.
    """
    if state.is_over():
        raise WrongPhaseError("deal_over", seat=seat)
    if seat not in state.to_act:
        shown = state.observe(None).to_act
        if shown:
            raise NotYourTurnError("server.not_your_turn", seat=seat, current=shown[0])
        raise NotYourTurnError("server.others_deciding", seat=seat)


def person_may_call(table: Table) -> bool:
    """A bot is on turn and a connected person may hold a hidden out-of-turn right whose
    use cannot wait (``possible_callers``, decided by public facts only: the OWL's cucco
    before a request reaches the OWL). Whether a seat is connected is public too."""
    state = table.state
    if state.is_over() or not state.to_act or not table.is_bot(state.to_act[0]):
        return False
    return any(not table.is_bot(s) and table.connected(s) for s in state.possible_callers())


def person_holds_public_right(table: Table) -> bool:
    """A bot is on turn and a person may act out of turn with a right every view shows
    (``public_to_act``, conformance's ``check_view_to_act``): waiting for them tells nothing."""
    state = table.state
    acting = state.to_act
    if state.is_over() or len(acting) < 2 or not table.is_bot(acting[0]):
        return False
    public = state.public_to_act()
    return any(s in public and not table.is_bot(s) and state.legal_actions(s) for s in acting[1:])


__all__ = ["person_holds_public_right", "person_may_call", "refuse_unless_to_act"]
