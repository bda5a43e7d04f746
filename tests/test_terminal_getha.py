"""Getha in the terminal: the table writes the narration's words, as the browser does."""

from __future__ import annotations

from io import StringIO

from rich.console import Console

from cardhall.cards import SuitNames
from cardhall.narration import Context, board
from cardhall.registry import make_game
from cardhall.terminal.getha import render


def shown(view: dict[str, object], ctx: Context) -> str:
    console = Console(width=160, record=True, file=StringIO())
    console.print(render(view, SuitNames.default(), ctx=ctx))
    return console.export_text()


def test_the_table_reads_as_the_browser_s() -> None:
    """The phase, the centre's facts, each seat's note and badges and the pots are the
    narration's board words (the browser's table writes the same), numbers grouped."""
    game = make_game("getha", 3, chips=100_000, max_deals=4)
    state = game.new_state(seed=2)
    state.apply(0, "bringin 1500")
    state.apply(1, "decline")
    ctx = Context("getha", ("Ann", "Bob", "Cy"), viewer=0, options=game.options)
    view = state.view(0)
    told = board(view, ctx)
    text = shown(view, ctx)
    assert f"{told['title']} · {told['phase']}" in text  # Deal 1 of 4 · Answering the bring-in
    assert told["phase"] == "Answering the bring-in" and "bring-in 1,500" in told["facts"]
    for fact in told["facts"]:
        assert fact in text
    assert told["seats"][1]["note"] == "Folded" and "Folded" in text
    assert "99,999" in text and "99999" not in text  # stacks as people read them
    # Cy still owes the bring-in: one pot, not a side pot behind Ann's bring-in
    assert [p["label"] for p in told["pots"]] == ["Pot"]
    assert f"Pot: {told['pots'][0]['amount']:,} (you and Cy)" in text
    assert told["pots"][0]["amount"] == sum(p["amount"] for p in view["pots"]) > 1500
    for old in ("highest bet", "carry-over", "answer the bring-in", "pay the bring-in or decline"):
        assert old not in text.split("\n")[0], old
