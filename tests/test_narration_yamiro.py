"""Yamiro's narration: the arlas/deiskatun chain (a deiskatun that cancels, waits or is
wasted; an arlas cancelled at once), the sides in every form, each result and the prompt."""

from __future__ import annotations

from typing import Any

from cardhall.engine import State
from cardhall.narration import Context, labels, narrate, prompt, status
from cardhall.registry import make_game


def hand(plays: list[tuple[str, int]], number: int = 1, starter: int = 0) -> list[dict[str, Any]]:
    events = [{"seq": 0, "kind": "hand", "seat": starter, "hand": number}]
    for i, (card, seat) in enumerate(plays, 1):
        events.append({"seq": i, "kind": "play", "seat": seat, "card": card, "drew": True})
    return events


def told(plays: list[tuple[str, int]], **ctx: Any) -> list[str | None]:
    names = ctx.pop("names", ("Ann", "Bob"))
    return narrate(hand(plays), Context("yamiro", names, **ctx))[1:]


def test_a_deiskatun_cancels_the_earliest_arlas_or_waits_for_the_next() -> None:
    lines = told([("deiskatun/S3", 0), ("arlas/S2", 1), ("arlas/S5", 1)])
    assert lines[0] == (
        "Ann plays the deiskatun of S3 and draws a card: it will cancel Bob's next arlas."
    )
    assert lines[1] == (
        "Bob plays the arlas of S2 and draws a card: it is cancelled at once by Ann's "
        "deiskatun of S3 (play 1)."
    )
    assert lines[2] == (
        "Bob plays the arlas of S5 and draws a card: it stands, and Bob wins the hand unless "
        "it is cancelled."
    )


def test_without_deiskatun_anytime_an_early_deiskatun_is_wasted() -> None:
    lines = told([("deiskatun/S3", 0), ("arlas/S2", 1)], options={"deiskatun_anytime": False})
    assert lines[0].endswith(": there is no arlas to cancel, so it is wasted.")  # type: ignore[union-attr]
    assert lines[1].endswith("it stands, and Bob wins the hand unless it is cancelled.")  # type: ignore[union-attr]


def test_a_later_arlas_and_the_multipliers() -> None:
    lines = told([("arlas/S1", 0), ("arlas/S2", 1), ("alak/S4", 0), ("arl/S6", 0)])
    assert (
        lines[1]
        == "Bob plays the arlas of S2 and draws a card, but Ann's arlas of S1 (play 1) came first."
    )
    assert lines[2] == "Ann plays the alak of S4 and draws a card: Ann's value is now 0 (0 ×2)."
    assert lines[3] == "Ann plays the arl of S6 and draws a card: Ann's value is now 0 (0 ×4)."


def play_to_end(players: int, **options: Any) -> State:
    state = make_game("yamiro", players, **options).new_state(seed=3)
    while not state.is_over:
        seat = min(state.actors())
        state.apply(seat, state.legal_actions(seat)[-1])
    return state


def test_partner_sides_are_teams_and_the_viewer_is_you() -> None:
    state = play_to_end(4)
    names = ("Ann", "Bob", "Cy", "Dee")
    lines = narrate(state.events_for(2), Context("yamiro", names, viewer=2))
    results = [line for line in lines if line and line.startswith("Hand ") and "; " in line]
    assert results and all(
        " you and Ann win; " in r or " Bob and Dee win; " in r for r in results
    ), results
    a, b = state.outcome().details["captures"]  # type: ignore[union-attr]
    assert lines[-1] is not None and lines[-1].startswith(
        f"Game over. Captures: you and Ann {a}, Bob and Dee {b}."
    )


def test_solitaire_is_against_the_deck() -> None:
    state = play_to_end(1)
    lines = narrate(state.events_for(0), Context("yamiro", ("Ann",), viewer=0))
    assert any(line and line.startswith("The deck turns up the ") for line in lines)
    assert "Hand 1 of 8: the deck plays first." in lines
    a, b = state.outcome().details["captures"]  # type: ignore[union-attr]
    assert lines[-1] is not None and lines[-1].startswith(
        f"Game over. Captures: you {a}, the deck {b}."
    )


def test_a_tied_hand_goes_on_under_there_must_be_a_winner() -> None:
    for seed in range(60):
        state = make_game("yamiro", must_have_winner=True).new_state(seed=seed)
        while not state.is_over:
            seat = min(state.actors())
            state.apply(seat, state.legal_actions(seat)[0])
        feed = state.events_for(None)
        if any(e["kind"] == "tiebreak" for e in feed):
            break
    lines = narrate(feed, Context("yamiro", ("Ann", "Bob")))
    tie = [t for e, t in zip(feed, lines, strict=True) if e["kind"] == "tiebreak"]
    assert tie and tie[0] is not None
    assert tie[0].startswith("The hand is tied: There Must Be A Winner, so round ")


def test_the_prompt_says_how_the_hand_stands_and_what_is_at_stake() -> None:
    state = make_game("yamiro").new_state(seed=1)
    first = str(state.legal_actions(0)[0]).split(" ")[1]
    state.apply(0, f"play {first}")
    text = prompt(state.view(1), Context("yamiro", ("Ann", "Bob"), viewer=1))
    assert text is not None and text.startswith("Your turn: play a card (hand 1 of 8, play 2). ")
    assert "Ann's arlas of S5 (play 1) stands: it wins unless your side cancels it with a " in text
    assert text.endswith(
        "At stake: the cards played so far, worth 8 from Ann and 0 from your side."
    )
    assert prompt(state.view(0), Context("yamiro", ("Ann", "Bob"), viewer=0)) is None


def test_in_the_partner_form_every_card_played_names_its_team() -> None:
    state = play_to_end(4)
    names = ("Ann", "Bob", "Cy", "Dee")
    for viewer in (0, 1, None):
        feed = state.events_for(viewer)
        lines = narrate(feed, Context("yamiro", names, viewer=viewer))
        plays = [(e, t) for e, t in zip(feed, lines, strict=True) if e["kind"] == "play"]
        assert len(plays) > 8
        for event, text in plays:
            seat = event["seat"]
            assert text is not None
            if seat == viewer:
                assert text.startswith("You play the ")
            elif viewer is not None and seat ^ 2 == viewer:
                assert text.startswith(f"Your partner {names[seat]} plays the ")
            else:
                assert text.startswith(f"{names[seat]} (with {names[seat ^ 2]}) plays the ")
    # the two-player form has no teams to name
    two = narrate(play_to_end(2).events_for(0), Context("yamiro", names[:2], viewer=0))
    assert not any(t and "(with " in t for t in two)


def test_the_status_and_the_buttons() -> None:
    state = make_game("yamiro", 4).new_state(seed=3)
    names = ("Ann", "Bob", "Cy", "Dee")
    mover = state.view(None)["to_move"]
    partner = mover ^ 2
    ctx = Context("yamiro", names, viewer=partner)
    assert status(state.view(partner), ctx) == (
        f"Waiting for {names[mover]} (your partner) to play a card"
    )
    view = state.view(mover)
    mine = Context("yamiro", names, viewer=mover)
    assert status(view, mine) == "Your turn"
    assert labels(view, mine) == [
        "Play the " + a.split(" ")[1].replace("/", " of ") for a in view["legal"]
    ]
