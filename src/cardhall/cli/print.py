"""``cardhall print``: print and play.

``cardhall print deck`` writes the 96 Railog cards as a PDF (poker size, nine a page, crop
marks; ``--backs`` for double-sided printing), ``--pack french`` Abstrac's 24 cards, and
``--svg DIR`` one SVG per card instead. ``cardhall print rules GAME`` writes the game's
rules with the chosen options spelled out and a quick-reference card, on one or two pages.
See docs/print.md.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from cardhall.cards import SUIT_NAMES_HELP
from cardhall.errors import CardhallError

__all__ = ["register"]

print_app = typer.Typer(
    help="Print and play: the Railog deck, Abstrac's pack and the rule sheets as PDF.",
    no_args_is_help=True,
)

_NEEDS_EXTRA = "printing a PDF needs the print extra: pip install 'cardhall[print]'"


def register(app: typer.Typer) -> None:
    app.add_typer(print_app, name="print")


def _pdf_modules_missing() -> bool:
    try:
        import reportlab  # noqa: F401
        import svglib  # noqa: F401
    except ImportError:
        return True
    return False


@print_app.command("deck")
def deck(
    pack: Annotated[str, typer.Option(help="railog (96 cards) or french (Abstrac's 24)")] = (
        "railog"
    ),
    paper: Annotated[str, typer.Option(help="a4 or letter")] = "a4",
    suit_names: Annotated[str, typer.Option(help=SUIT_NAMES_HELP)] = "plain",
    backs: Annotated[
        bool, typer.Option("--backs", help="add a page of card backs after each page")
    ] = False,
    flip: Annotated[
        str, typer.Option(help="with --backs: the edge your printer flips on, long or short")
    ] = "long",
    legend: Annotated[
        bool, typer.Option(help="put the suit legend in a free slot of the last page")
    ] = True,
    output: Annotated[
        Path | None,
        typer.Option(help="the PDF to write (default cardhall-deck-PACK.pdf)"),
    ] = None,
    svg: Annotated[
        Path | None, typer.Option(help="write one SVG per card into this folder instead")
    ] = None,
) -> None:
    """Write a printable deck: poker-size cards, nine a page, with crop marks."""
    from cardhall.cards import SuitNames
    from cardhall.cli import fail
    from cardhall.printing.deck import write_card_svgs, write_deck_pdf

    try:
        names = SuitNames.parse(suit_names)
    except CardhallError as exc:
        raise fail(f"--suit-names: {exc}") from None
    try:
        if svg is not None:
            files = write_card_svgs(svg, pack, names)
            typer.echo(
                f"wrote {len(files)} card SVGs, back.svg"
                + (" and legend.svg" if pack == "railog" else "")
                + f" to {svg}"
            )
            return
        if _pdf_modules_missing():
            raise fail(_NEEDS_EXTRA)
        target = output or Path(f"cardhall-deck-{pack}.pdf")
        plan = write_deck_pdf(target, pack, paper, names, backs=backs, flip=flip, legend=legend)
    except CardhallError as exc:
        raise fail(str(exc)) from None
    except OSError as exc:
        raise fail(f"cannot write {exc.filename or output or svg}: {exc.strerror or exc}") from None
    cards = sum(1 for p in plan.placements if p.what not in ("back", "legend"))
    how = f", backs for a flip on the {flip} edge" if backs else ""
    sheet = {"a4": "A4", "letter": "US Letter"}[paper]
    typer.echo(
        f"wrote {target}: {cards} cards on {plan.pages} pages ({sheet}{how}). "
        "Print at actual size (100%) and cut on the marks."
    )


@print_app.command("rules")
def rules(
    game: Annotated[str, typer.Argument(help="game name (see `cardhall games`)")],
    players: Annotated[int | None, typer.Option("--players", "-p", help="number of seats")] = None,
    option: Annotated[
        list[str] | None, typer.Option("--option", "-o", help="game option key=value")
    ] = None,
    paper: Annotated[str, typer.Option(help="a4 or letter")] = "a4",
    output: Annotated[
        Path | None,
        typer.Option(help="the PDF to write (default cardhall-rules-GAME.pdf)"),
    ] = None,
    partner: Annotated[bool, typer.Option(help="Yamiro: partner form (4 players)")] = False,
    solitaire: Annotated[bool, typer.Option(help="Yamiro: solitaire form (1 player)")] = False,
) -> None:
    """Write a game's rules as a one- or two-page PDF, with the options spelled out and a
    quick-reference card (turn order, scoring table)."""
    from cardhall.cli import fail, form_players, parse_options

    options = parse_options(option)
    players = form_players(game, players, partner, solitaire)
    if _pdf_modules_missing():
        raise fail(_NEEDS_EXTRA)
    from cardhall.printing.rules import write_rules_pdf

    target = output or Path(f"cardhall-rules-{game}.pdf")
    try:
        sheet = write_rules_pdf(target, game, players, options, paper)
    except CardhallError as exc:
        raise fail(str(exc)) from None
    except OSError as exc:
        raise fail(f"cannot write {target}: {exc.strerror or exc}") from None
    typer.echo(
        f"wrote {target}: the rules of {sheet.title} on {sheet.pages} "
        f"page{'s' if sheet.pages > 1 else ''} ({sheet.font_size:g} pt)"
    )
