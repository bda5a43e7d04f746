"""Generic terminal play: scripted humans against bots, records saved."""

from __future__ import annotations

import io
from pathlib import Path

from rich.console import Console

from cardhall.record import load_record, replay
from cardhall.registry import make_game
from cardhall.terminal import TerminalGame


def run(answers: list[str], tmp_path: Path, **kw: object) -> tuple[TerminalGame, str, list[str]]:
    out = io.StringIO()
    it = iter(answers)
    prompts: list[str] = []

    def ask(prompt: str) -> str:
        prompts.append(prompt)
        return next(it)

    tg = TerminalGame(
        make_game("abstrac"),
        bot_level="random",
        seed=5,
        console=Console(file=out, width=120),
        ask=ask,
        save=tmp_path / "rec.json",
        **kw,  # type: ignore[arg-type]
    )
    tg.play()
    return tg, out.getvalue(), prompts


def test_bad_answers_are_explained_and_asked_again(tmp_path: Path) -> None:
    tg, text, prompts = run(["9", "take 2", "fly", "second", "q"], tmp_path)
    assert "choose 1..2" in text
    assert "illegal action 'take 2'" in text
    assert "unknown abstrac action 'fly'" in text
    assert len(prompts) == 5
    assert tg.state.history[0][1].kind == "second"


def test_quitting_saves_a_record_that_replays(tmp_path: Path) -> None:
    tg, text, _ = run(["first", "take 3", "q"], tmp_path)
    record = load_record(tmp_path / "rec.json")
    assert record.actions[:2] == [(0, "first"), (0, "take 3")]
    assert replay(record).digest() == tg.state.digest()
    assert "record saved" in text


def test_a_full_game_reaches_the_end(tmp_path: Path) -> None:
    tg, text, _ = run(["1"] * 30, tmp_path)
    assert tg.state.is_over
    assert "Game over." in text
    assert load_record(tmp_path / "rec.json").result is not None


def test_long_action_lists_are_summarised_and_still_typed(tmp_path: Path) -> None:
    from cardhall.engine import Action
    from cardhall.terminal import MENU_LIMIT, menu

    legal = [Action("check")] + [Action("raise", t) for t in range(2, 60)]
    numbered, lines = menu(legal)
    assert numbered == [legal[0], legal[1], legal[2], legal[3], legal[-1]]
    assert lines == ["raise: 54 more between 'raise 4' and 'raise 59' (type one)"]
    short = [Action("take", k) for k in range(1, MENU_LIMIT + 1)]
    assert menu(short) == (short, [])


def test_a_range_of_amounts_is_one_line_and_a_typed_amount_is_played(tmp_path: Path) -> None:
    out = io.StringIO()
    answers = iter(["bringin 0", "bringin 7", "q"])
    tg = TerminalGame(
        make_game("getha", 3, chips=1_000_000),
        bot_level="random",
        seed=4,
        console=Console(file=out, width=120),
        ask=lambda prompt: next(answers),
        save=tmp_path / "rec.json",
    )
    tg.play()
    text = out.getvalue()
    # the range in the narration's words, as the browser's bet box reads it
    said = "Set the bring-in between 1 and 999,999 chips"
    assert f"{said}: type 'bringin' and the amount" in text
    assert "bringin:" not in text and "any amount" not in text
    assert " 1  Set the bring-in at 1 chip\n" in text and "at 2 chips" not in text  # the smallest
    assert "illegal action 'bringin 0'" in text
    assert tg.state.history[0] == (0, tg.game.parse_action("bringin 7"))
    assert load_record(tmp_path / "rec.json").actions[0] == (0, "bringin 7")


def test_bots_are_named_as_the_web_names_them(tmp_path: Path) -> None:
    """One naming for both surfaces: the terminal's bot seats are called what the web
    lobby calls bots of that level ("Heuristic Hana"), never by the level's id."""
    from cardhall.web.lobby import bot_name

    out = io.StringIO()
    tg = TerminalGame(
        make_game("getha", 3),
        bot_level="heuristic",
        console=Console(file=out, width=120),
        ask=lambda prompt: "q",
        save=tmp_path / "rec.json",
    )
    tg.play()
    first = bot_name("heuristic")
    assert tg.seat_names == ["Seat 1", first, bot_name("heuristic", {first})]
    assert load_record(tmp_path / "rec.json").seats == tg.seat_names
    text = out.getvalue()
    assert "opponents: Heuristic Hana, Heuristic Hugo" in text
    assert "heuristic bot" not in text
