"""The printed rule sheet: a game's rules page as a PDF of one or two pages.

The text is the game's rules page (:func:`cardhall.rulebook.rules_markdown`, the page the
docs site shows), set in two columns. Sections that only concern the software (bots,
action ids, what each seat's screen shows) carry the marker ``<!-- not printed -->`` under
their heading and are left out. The page's own table of options is replaced by a box
**At this table** that spells out the player count and every option as chosen on the
command line (its value, and its default where it differs). The page's **Quick
reference** section (turn order and a scoring table) is set last, in a dashed box to cut
out and keep at the table.

The text is set at the largest size from 9 pt down to 7 pt at which the sheet fits two
pages.
"""

from __future__ import annotations

import io
from collections.abc import Iterator
from dataclasses import dataclass
from html import escape
from pathlib import Path
from typing import Any

from cardhall.engine import Game, counts_text
from cardhall.errors import OptionError
from cardhall.printing.deck import MM, PAPERS
from cardhall.registry import make_game
from cardhall.rulebook import rules_markdown

__all__ = ["NOT_PRINTED", "QUICK_REFERENCE", "RulesSheet", "option_lines", "write_rules_pdf"]

#: Put on the line after a heading: the section is left out of the printed sheet.
NOT_PRINTED = "<!-- not printed -->"
#: The heading of the section set as the cut-out quick-reference card.
QUICK_REFERENCE = "Quick reference"
#: Headings replaced on paper by the "At this table" box.
_OPTIONS_HEADINGS = ("Options",)
FONT_SIZES = (9.0, 8.5, 8.0, 7.5, 7.0)
MAX_PAGES = 2

# Characters the PDF's standard fonts lack, and what is printed instead.
_PLAIN = str.maketrans({"−": "-", "≥": ">=", "≤": "<=", "→": "->", "…": "..."})


@dataclass(frozen=True)
class RulesSheet:
    """What was printed: the game, its options, the page count and the text size."""

    game: str
    players: int
    options: dict[str, Any]
    pages: int
    font_size: float
    form: str = ""

    @property
    def title(self) -> str:
        """The game and its table in words: ``'yamiro, solitaire form (1 player)'``."""
        count = "1 player" if self.players == 1 else f"{self.players} players"
        return (
            f"{self.game}, {self.form} form ({count})" if self.form else f"{self.game} for {count}"
        )


def _value_text(value: Any) -> str:
    """An option value in words, never a Python value."""
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "yes" if value else "no"
    return str(value)


def option_lines(game: Game) -> list[tuple[str, str, str]]:
    """``(option's label, value in words, meaning)`` for every option of ``game``, the
    value followed by its default when it differs; labels and choices read as the lobby
    shows them (:meth:`OptionSpec.describe`).

    >>> option_lines(make_game("abstrac", match=True))[0]
    ('Match', 'yes (default no)', 'play deals with alternating dealer until a total target')
    """
    out = []
    for spec in game.option_specs:
        described = spec.describe()
        words: dict[str, str] = described["choice_labels"] if spec.choices is not None else {}
        value = game.options[spec.name]
        text = words.get(str(value), _value_text(value))
        if value != spec.default:
            text += f" (default {words.get(str(spec.default), _value_text(spec.default))})"
        out.append((described["label"], text, spec.doc))
    return out


# --------------------------------------------------------------------------- Markdown


@dataclass
class _Section:
    level: int
    title: str
    lines: list[str]


def _sections(markdown: str) -> tuple[str, list[_Section]]:
    """Split a page into its title and its sections (``##`` and deeper headings start a
    section; fenced code is never mistaken for a heading)."""
    title = ""
    sections: list[_Section] = [_Section(2, "", [])]
    fenced = False
    for line in markdown.splitlines():
        if line.startswith("```"):
            fenced = not fenced
        if not fenced and line.startswith("# ") and not title:
            title = line[2:].strip()
            continue
        if not fenced and line.startswith("##"):
            hashes = len(line) - len(line.lstrip("#"))
            sections.append(_Section(hashes, line[hashes:].strip(), []))
            continue
        sections[-1].lines.append(line)
    return title, sections


def _printed(sections: list[_Section]) -> tuple[list[_Section], _Section | None]:
    """The sections to print (in order) and the quick reference, if the page has one."""
    kept: list[_Section] = []
    quick = None
    skip_below: int | None = None
    for s in sections:
        if skip_below is not None and s.level > skip_below:
            continue
        skip_below = None
        marked = any(line.strip() == NOT_PRINTED for line in s.lines)
        if s.title == QUICK_REFERENCE:
            quick = s
        elif marked or s.title in _OPTIONS_HEADINGS:
            skip_below = s.level
        else:
            kept.append(s)
    return kept, quick


class _Styles:
    def __init__(self, size: float, terms: dict[str, str] | None = None) -> None:
        #: Option names as the reader reads them: a code span naming an option prints
        #: as its label in italics (as the web's rules page shows it).
        self.terms = terms or {}
        from reportlab.lib.styles import ParagraphStyle

        lead = size * 1.22
        self.size = size
        self.body = ParagraphStyle(
            "body", fontName="Helvetica", fontSize=size, leading=lead, spaceAfter=size * 0.35
        )
        self.cell = ParagraphStyle("cell", parent=self.body, spaceAfter=0)
        self.title = ParagraphStyle(
            "title",
            fontName="Helvetica-Bold",
            fontSize=size * 2.2,
            leading=size * 2.5,
            spaceAfter=size * 0.2,
        )
        self.subtitle = ParagraphStyle("subtitle", parent=self.body, textColor="#555555")
        self.h2 = ParagraphStyle(
            "h2",
            fontName="Helvetica-Bold",
            fontSize=size * 1.3,
            leading=size * 1.5,
            spaceBefore=size * 0.7,
            spaceAfter=size * 0.25,
            keepWithNext=1,
        )
        self.h3 = ParagraphStyle("h3", parent=self.h2, fontSize=size * 1.1, leading=size * 1.3)
        self.code = ParagraphStyle(
            "code", parent=self.body, fontName="Courier", fontSize=size * 0.9
        )


def _inline(node: Any, terms: dict[str, str]) -> str:
    """Reportlab paragraph markup for a Markdown inline node (links keep their text; an
    option's name reads as its label, from ``terms``)."""
    out = []
    for child in node.children or []:
        kind = child.type
        if kind == "text":
            out.append(escape(child.content.translate(_PLAIN), quote=False))
        elif kind == "strong":
            out.append(f"<b>{_inline(child, terms)}</b>")
        elif kind == "em":
            out.append(f"<i>{_inline(child, terms)}</i>")
        elif kind == "code_inline" and child.content in terms:
            out.append(f"<i>{escape(terms[child.content], quote=False)}</i>")
        elif kind == "code_inline":
            out.append(f'<font face="Courier">{escape(child.content.translate(_PLAIN))}</font>')
        elif kind == "softbreak":
            out.append(" ")
        elif kind == "hardbreak":
            out.append("<br/>")
        elif kind == "link":
            out.append(_inline(child, terms))
        elif kind == "html_inline":
            continue
        else:
            out.append(_inline(child, terms) or escape(child.content, quote=False))
    return "".join(out)


def _flowables(markdown: str, st: _Styles, width: float) -> list[Any]:
    """Flowables for a Markdown fragment (paragraphs, lists, tables, code)."""
    from markdown_it import MarkdownIt
    from markdown_it.tree import SyntaxTreeNode

    tree = SyntaxTreeNode(MarkdownIt("commonmark").enable("table").parse(markdown))
    return list(_blocks(tree.children, st, width))


def _blocks(nodes: list[Any], st: _Styles, width: float) -> Iterator[Any]:
    from reportlab.platypus import ListFlowable, ListItem, Paragraph, Preformatted

    for node in nodes:
        kind = node.type
        if kind == "paragraph":
            yield Paragraph(_inline(node.children[0], st.terms), st.body)
        elif kind == "heading":
            style = st.h2 if node.tag in ("h1", "h2") else st.h3
            yield Paragraph(_inline(node.children[0], st.terms), style)
        elif kind in ("bullet_list", "ordered_list"):
            items = [
                ListItem(list(_blocks(item.children, st, width - st.size * 1.6)))
                for item in node.children
            ]
            if kind == "ordered_list":
                start = int(node.attrs.get("start", 1))
                yield ListFlowable(
                    items,
                    bulletType="1",
                    start=start,
                    bulletFormat="%s.",
                    leftIndent=st.size * 1.6,
                    bulletFontSize=st.size,
                    bulletFontName="Helvetica",
                    spaceAfter=st.size * 0.3,
                )
            else:
                yield ListFlowable(
                    items,
                    bulletType="bullet",
                    start="\u2022",
                    leftIndent=st.size * 1.3,
                    bulletFontSize=st.size,
                    spaceAfter=st.size * 0.3,
                )
        elif kind == "table":
            yield _table(node, st, width)
        elif kind in ("fence", "code_block"):
            yield Preformatted(node.content.translate(_PLAIN).rstrip("\n"), st.code)
        elif kind in ("html_block", "hr"):
            continue
        elif node.children:
            yield from _blocks(node.children, st, width)


def _table(node: Any, st: _Styles, width: float) -> Any:
    from reportlab.platypus import Paragraph, Table, TableStyle

    rows: list[list[Any]] = []
    for part in node.children:  # thead, tbody
        for tr in part.children:
            rows.append(
                [
                    Paragraph(_inline(cell.children[0], st.terms) if cell.children else "", st.cell)
                    for cell in tr.children
                ]
            )
    table = Table(rows, colWidths=[width / len(rows[0])] * len(rows[0]), repeatRows=1)
    table.setStyle(
        TableStyle(
            [
                ("GRID", (0, 0), (-1, -1), 0.4, "#999999"),
                ("BACKGROUND", (0, 0), (-1, 0), "#eeeeee"),
                ("VALIGN", (0, 0), (-1, -1), "TOP"),
                ("TOPPADDING", (0, 0), (-1, -1), 1.5),
                ("BOTTOMPADDING", (0, 0), (-1, -1), 2),
                ("LEFTPADDING", (0, 0), (-1, -1), 3),
                ("RIGHTPADDING", (0, 0), (-1, -1), 3),
            ]
        )
    )
    table.spaceAfter = st.size * 0.5
    return table


# --------------------------------------------------------------------------- the sheet


def _story(game: Game, st: _Styles, column: float) -> list[Any]:
    from reportlab.platypus import KeepTogether, Paragraph, Spacer, Table, TableStyle

    title, sections = _sections(rules_markdown(game.name))
    kept, quick = _printed(sections)
    story: list[Any] = [
        Paragraph(escape(title), st.title),
        Paragraph(
            "Rules as cardhall plays them; printed by <i>cardhall print rules</i>.", st.subtitle
        ),
    ]
    # At this table: the player count and every option, spelled out.
    form = getattr(game, "form", "")
    players = f"{game.players}{f', {form} form' if form else ''} (the game takes " + (
        f"{counts_text(game.player_counts)})"
    )
    box: list[Any] = [
        Paragraph("<b>At this table</b>", st.h3),
        Paragraph(f"<b>players</b>: {escape(players)}", st.cell),
    ]
    for name, value, doc in option_lines(game):
        box.append(
            Paragraph(
                f"<b>{escape(name)}</b>: {escape(value)} <font color='#555555'>- "
                f"{escape(doc)}</font>",
                st.cell,
            )
        )
    frame = Table([[box]], colWidths=[column])
    frame.setStyle(
        TableStyle(
            [
                ("BOX", (0, 0), (-1, -1), 0.8, "#333333"),
                ("BACKGROUND", (0, 0), (-1, -1), "#f4f1e8"),
                ("LEFTPADDING", (0, 0), (-1, -1), 5),
                ("RIGHTPADDING", (0, 0), (-1, -1), 5),
            ]
        )
    )
    story += [frame, Spacer(1, st.size * 0.6)]
    for s in kept:
        if s.title:
            story.append(
                Paragraph(
                    escape(s.title.translate(_PLAIN)).replace("`", ""),
                    st.h2 if s.level <= 2 else st.h3,
                )
            )
        story += _flowables("\n".join(s.lines), st, column)
    if quick is not None:
        inner = [Paragraph(f"<b>{escape(title)}: quick reference</b>", st.h3)]
        inner += _flowables("\n".join(quick.lines), st, column - 12)
        inner.append(
            Paragraph("<font color='#777777'>Cut out and keep at the table.</font>", st.cell)
        )
        card = Table([[inner]], colWidths=[column])
        card.setStyle(
            TableStyle(
                [
                    ("BOX", (0, 0), (-1, -1), 0.8, "#333333", None, (3, 2)),
                    ("LEFTPADDING", (0, 0), (-1, -1), 6),
                    ("RIGHTPADDING", (0, 0), (-1, -1), 6),
                ]
            )
        )
        story += [Spacer(1, st.size), KeepTogether([card])]
    return story


def _build(game: Game, paper: str, size: float) -> tuple[bytes, int]:
    from reportlab.platypus import BaseDocTemplate, Frame, PageTemplate

    page_w, page_h = (v * MM for v in PAPERS[paper])
    margin, gap = 12 * MM, 6 * MM
    column = (page_w - 2 * margin - gap) / 2
    frames = [
        Frame(
            margin + i * (column + gap),
            margin,
            column,
            page_h - 2 * margin - 4 * MM,
            leftPadding=0,
            rightPadding=0,
            topPadding=0,
            bottomPadding=0,
        )
        for i in range(2)
    ]
    title = game.describe()["title"]

    def footer(canvas: Any, doc: Any) -> None:
        canvas.saveState()
        canvas.setFont("Helvetica", 7)
        canvas.setFillColorRGB(0.4, 0.4, 0.4)
        canvas.drawCentredString(page_w / 2, 6 * MM, f"{title} - page {doc.page}")
        canvas.restoreState()

    out = io.BytesIO()
    doc = BaseDocTemplate(
        out,
        pagesize=(page_w, page_h),
        title=f"{title}: rules",
        author="cardhall",
        creator="cardhall print rules",
        invariant=1,
        pageCompression=1,
    )
    doc.addPageTemplates([PageTemplate(id="rules", frames=frames, onPage=footer)])
    terms: dict[str, str] = {}
    for spec in game.option_specs:
        described = spec.describe()
        terms[spec.name] = described["label"]
        said_as = dict(described["choice_labels"])  # `allin_mode="whole_pot"`
        if spec.kind == "bool":  # `challenge_stack=false`
            said_as = {"true": "yes", "false": "no"}
        for choice, said in said_as.items():
            terms[f'{spec.name}="{choice}"'] = terms[f"{spec.name}={choice}"] = (
                f"{described['label']}: {said}"
            )
    doc.build(_story(game, _Styles(size, terms), column))
    return out.getvalue(), doc.page


def write_rules_pdf(
    path: Path | str | io.BytesIO,
    game: str,
    players: int | None = None,
    options: dict[str, Any] | None = None,
    paper: str = "a4",
) -> RulesSheet:
    """Write ``game``'s rule sheet, with ``options`` spelled out, as a PDF.

    Raises :class:`OptionError` (a bad option, player count or paper) or
    :class:`UnknownGameError`, naming what was wrong. Needs the ``print`` extra.
    """
    if paper not in PAPERS:
        raise OptionError(f"--paper must be one of {', '.join(PAPERS)}; got {paper!r}")
    g = make_game(game, players, **(options or {}))
    pdf, pages, size = b"", 0, FONT_SIZES[-1]
    for size in FONT_SIZES:
        pdf, pages = _build(g, paper, size)
        if pages <= MAX_PAGES:
            break
    if isinstance(path, io.BytesIO):
        path.write(pdf)
    else:
        Path(path).write_bytes(pdf)
    return RulesSheet(g.name, g.players, dict(g.options), pages, size, getattr(g, "form", ""))
