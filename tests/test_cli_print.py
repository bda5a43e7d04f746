"""``cardhall print deck`` and ``cardhall print rules``."""

from __future__ import annotations

from pathlib import Path

import pytest
from pypdf import PdfReader
from typer.testing import CliRunner

from cardhall.cli import app

runner = CliRunner()


def test_print_deck_french_letter_with_backs(tmp_path: Path) -> None:
    target = tmp_path / "abstrac.pdf"
    result = runner.invoke(
        app,
        [
            "print",
            "deck",
            "--pack",
            "french",
            "--paper",
            "letter",
            "--backs",
            "--flip",
            "short",
            "--output",
            str(target),
        ],
    )
    assert result.exit_code == 0, result.output
    assert f"wrote {target}: 24 cards on 6 pages (US Letter, backs for a flip on the short" in (
        " ".join(result.output.split())
    )
    reader = PdfReader(target)
    assert len(reader.pages) == 6
    assert float(reader.pages[0].mediabox.height) == pytest.approx(792, abs=0.01)


def test_print_deck_default_name_and_suit_names(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    result = runner.invoke(app, ["print", "deck", "--suit-names", "omyr", "--no-legend"])
    assert result.exit_code == 0, result.output
    reader = PdfReader(tmp_path / "cardhall-deck-railog.pdf")
    assert len(reader.pages) == 11
    text = reader.pages[0].extract_text()
    assert "rblus" in text and "Suits" not in reader.pages[10].extract_text()


def test_print_deck_svg_folder(tmp_path: Path) -> None:
    result = runner.invoke(app, ["print", "deck", "--svg", str(tmp_path / "svg")])
    assert result.exit_code == 0, result.output
    assert "wrote 96 card SVGs, back.svg and legend.svg" in result.output
    assert len(list((tmp_path / "svg").glob("*.svg"))) == 98


def test_print_rules_with_options(tmp_path: Path) -> None:
    target = tmp_path / "getha.pdf"
    result = runner.invoke(
        app, ["print", "rules", "getha", "-p", "5", "-o", "chips=80", "--output", str(target)]
    )
    assert result.exit_code == 0, result.output
    assert "the rules of getha for 5 players on" in result.output
    text = " ".join("".join(p.extract_text() for p in PdfReader(target).pages).split())
    assert "Starting chips: 80 (default 50)" in text and "players: 5" in text
    assert "chips:" not in text.replace("Starting chips:", "")  # labels, not option keys


@pytest.mark.parametrize(
    ("flag", "said"),
    [("--solitaire", "solitaire form (1 player)"), ("--partner", "partner form (4 players)")],
)
def test_print_rules_names_yamiro_forms(flag: str, said: str, tmp_path: Path) -> None:
    target = tmp_path / "yamiro.pdf"
    result = runner.invoke(app, ["print", "rules", "yamiro", flag, "--output", str(target)])
    assert result.exit_code == 0, result.output
    assert f"the rules of yamiro, {said} on" in " ".join(result.output.split())
    text = " ".join("".join(p.extract_text() for p in PdfReader(target).pages).split())
    assert f"{said.split(' (')[0]}" in text


def test_print_deck_with_suit_names_of_ones_own(tmp_path: Path) -> None:
    names = "oak,ash,elm,yew,fir,box,bay,rue"
    result = runner.invoke(app, ["print", "deck", "--suit-names", names, "--svg", str(tmp_path)])
    assert result.exit_code == 0, result.output
    assert ">rue</text>" in (tmp_path / "arlas-S8.svg").read_text() or any(
        ">rue</text>" in f.read_text() for f in tmp_path.glob("*S8*.svg")
    )


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["print", "deck", "--paper", "a3"], "--paper must be one of a4, letter; got 'a3'"),
        (["print", "deck", "--pack", "tarot"], "--pack must be one of railog, french; got 'tarot'"),
        (
            ["print", "deck", "--suit-names", "elvish"],
            "--suit-names: unknown suit name set 'elvish'; known: omyr, plain",
        ),
        (
            ["print", "deck", "--suit-names", "oak,ash"],
            "8 different names of 1-16 characters separated by commas; got 2 names",
        ),
        (
            ["print", "rules", "yamiro", "--partner", "--solitaire"],
            "choose --partner or --solitaire, not both",
        ),
        (["print", "rules", "yamiro", "--partner", "-p", "2"], "--partner is Yamiro for 4"),
        (["print", "rules", "getha", "--solitaire"], "are Yamiro's forms; got the game 'getha'"),
        (
            ["print", "deck", "--backs", "--flip", "side"],
            "--flip must be one of long, short; got 'side'",
        ),
        (
            ["print", "rules", "getha", "-o", "chips=x"],
            "option 'chips' must be a whole number, got 'x'",
        ),
        (["print", "rules", "getha", "-o", "chips"], "must be written key=value"),
        (["print", "rules", "poker"], "unknown game 'poker'; registered: abstrac, getha"),
        (["print", "rules", "yamiro", "-p", "3"], "yamiro is played by"),
    ],
)
def test_bad_input_names_option_value_and_choices(
    args: list[str], message: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    result = runner.invoke(app, args)
    assert result.exit_code == 1
    assert message in " ".join(result.output.split())
    assert list(tmp_path.iterdir()) == []  # nothing written


def test_unwritable_output_is_named(tmp_path: Path) -> None:
    target = tmp_path / "missing" / "deck.pdf"
    result = runner.invoke(app, ["print", "deck", "--pack", "french", "--output", str(target)])
    assert result.exit_code == 1
    # (the message may be wrapped anywhere on a narrow terminal)
    assert f"cannotwrite{target}" in "".join(result.output.split())
