"""What the browser needs to draw and explain a game: the card art and the rules pages.

* ``GET /api/cards?names=plain``: every card face as SVG (:mod:`cardhall.cardart`, the
  one drawing, the same as the printed deck), the back, the suit legend and each suit's
  symbol, name and colour, for one suit-name set; the page inlines them and draws no card
  of its own.
* ``GET /api/games/{name}/rules`` (in :mod:`cardhall.web.routes`) serves the rules page
  of :mod:`cardhall.rulebook` as Markdown and as HTML rendered here (:func:`rules_html`):
  no raw HTML passes, links to other documentation pages become plain text.
"""

from __future__ import annotations

import functools
import json
from typing import Any

from fastapi import APIRouter, Query
from fastapi.responses import Response
from markdown_it import MarkdownIt
from markdown_it.token import Token

from cardhall.cardart import ALL_CARDS, SUIT_STYLES, back_svg, card_svg, legend_svg, shape_svg
from cardhall.cards import SUIT_NAME_SETS, SuitNames
from cardhall.errors import NotationError
from cardhall.web.errors import WebError

__all__ = ["card_bundle", "router", "rules_html", "suit_symbol"]

router = APIRouter()


def suit_symbol(suit: int) -> str:
    """A suit's shape alone, as a small SVG (the suit picker and the legend).

    >>> suit_symbol(2).startswith("<svg") and "S2" in suit_symbol(2)
    True
    """
    style = SUIT_STYLES[suit - 1]
    return (
        '<svg xmlns="http://www.w3.org/2000/svg" viewBox="-10 -10 20 20" class="suit" '
        f'aria-hidden="true" data-suit="S{suit}">'
        f"{shape_svg(style.shape, 0, 0, 8, style.colour)}</svg>"
    )


@functools.lru_cache(maxsize=8)
def card_bundle(names: str = "plain") -> str:
    """Every card of both packs, the back, the legend and the suits, as JSON text, for
    the suit-name set ``names`` (raises :class:`WebError` for an unknown set).

    >>> bundle = json.loads(card_bundle("omyr"))
    >>> len(bundle["cards"]), bundle["names"][:2], [s["key"] for s in bundle["sets"]]
    (120, ['rblus', 'sitar'], ['omyr', 'plain'])
    """
    try:
        ns = SuitNames.get(names)
    except NotationError as exc:
        raise WebError("bad_names", str(exc), 422) from None
    data: dict[str, Any] = {
        "set": ns.key,
        "sets": [
            {"key": k, "names": list(SUIT_NAME_SETS[k].names)} for k in sorted(SUIT_NAME_SETS)
        ],
        "names": list(ns.names),
        "cards": {str(card): card_svg(card, ns) for card in ALL_CARDS},
        "back": back_svg(),
        "legend": legend_svg(ns),
        "suits": [
            {
                "suit": s.suit,
                "name": ns.name(s.suit),
                "colour": s.colour,
                "colour_name": s.colour_name,
                "shape": s.shape,
                "symbol": suit_symbol(s.suit),
            }
            for s in SUIT_STYLES
        ],
    }
    return json.dumps(data, separators=(",", ":"))


@router.get("/api/cards", tags=["ui"])
async def cards(names: str = Query("plain", max_length=20)) -> Response:
    """The card art for one suit-name set (``plain``: S1..S8, ``omyr``, ...): each card
    face, the back and the legend as SVG, and each suit's symbol, name and colour."""
    return Response(
        card_bundle(names),
        media_type="application/json",
        headers={"Cache-Control": "public, max-age=3600"},
    )


def _local_links_as_text(state: Any) -> None:
    """A core rule: links to other documentation pages (relative hrefs) lose their link
    and keep their text; outside links open in a new tab."""
    for block in state.tokens:
        if block.type != "inline" or not block.children:
            continue
        kept, dropped = [], 0
        for tok in block.children:
            if tok.type == "link_open":
                href = tok.attrGet("href") or ""
                if "://" not in href:
                    dropped = dropped * 2 + 1  # a stack of bits: 1 = this link is dropped
                    continue
                dropped *= 2
                tok.attrSet("target", "_blank")
                tok.attrSet("rel", "noopener")
            elif tok.type == "link_close":
                gone = dropped & 1
                dropped //= 2
                if gone:
                    continue
            kept.append(tok)
        block.children = kept


def _terms_as_labels(state: Any) -> None:
    """A core rule: a code span naming one of the game's options (``max_deals``) reads
    as the option's label, in italics, as the lobby shows it."""
    terms: dict[str, str] = state.env.get("terms", {})
    for block in state.tokens:
        if block.type != "inline" or not block.children:
            continue
        out = []
        for tok in block.children:
            label = terms.get(tok.content) if tok.type == "code_inline" else None
            if label is None:
                out.append(tok)
                continue
            text = Token("text", "", 0)
            text.content = label
            out += [Token("em_open", "em", 1), text, Token("em_close", "em", -1)]
        block.children = out


def _markdown() -> MarkdownIt:
    md = MarkdownIt("commonmark", {"html": False}).enable("table")
    md.core.ruler.push("local_links_as_text", _local_links_as_text)
    md.core.ruler.push("terms_as_labels", _terms_as_labels)
    return md


@functools.lru_cache(maxsize=16)
def rules_html(markdown: str, terms: tuple[tuple[str, str], ...] = ()) -> str:
    """A rules page as HTML: tables rendered, raw HTML escaped, links to other pages of
    the documentation kept as their text, and each ``term`` in a code span shown as its
    label (``terms``: the game's option names and labels).

    >>> rules_html("See [the solver](../solver.md) and <b>x</b>.")
    '<p>See the solver and &lt;b&gt;x&lt;/b&gt;.</p>\\n'
    >>> rules_html("after `max_deals` deals", (("max_deals", "Deals"),))
    '<p>after <em>Deals</em> deals</p>\\n'
    """
    return str(_markdown().render(markdown, {"terms": dict(terms)}))
