"""The rules of each game as the player reads them, shipped inside the package.

The pages live in ``cardhall/rules/<game>.md`` (package data, so an installed cardhall has
them); the documentation site shows the same files (``docs/rules`` links to that folder),
so there is one text of the rules for the site, the web table's rules page and the printed
rule sheet (``cardhall print rules``).

>>> rules_markdown("yamiro").splitlines()[0]
'# Yamiro'
"""

from __future__ import annotations

from importlib.resources import files

from cardhall.errors import UnknownGameError
from cardhall.registry import game_class

__all__ = ["rules_markdown"]


def rules_markdown(game: str) -> str:
    """The Markdown rules page of a registered game.

    Raises :class:`UnknownGameError` naming the registered games for any other name, or
    saying so for a registered game (a plug-in) that ships no rules page.
    """
    game_class(game)  # names the registered games when ``game`` is none of them
    page = files("cardhall") / "rules" / f"{game}.md"
    if not page.is_file():
        raise UnknownGameError(f"game {game!r} has no rules page in cardhall/rules")
    return page.read_text(encoding="utf-8")
