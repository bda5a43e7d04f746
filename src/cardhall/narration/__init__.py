"""Narration: every game told in its own words, the same sentences in the terminal and in
the browser.

Narration is built only from what one seat may know: the JSON events of
``state.events_for(seat)`` and the JSON view of ``state.view(seat)``; never from a
``State``. So a sentence cannot say more than the seat saw. It names seats by the names the
caller gives ("you" for the seat it is told to), counts seats from 1 when a number is
shown, writes cards in their notation with the chosen suit-name set, and never shows a
field name or a Python value.

The entry points (``ctx`` is a :class:`Context`: the game, the seat names, the suit names,
the viewer and the game's options):

* :func:`describe` ``(event, ctx, earlier=())`` — the sentence(s) for one event (several
  lines are separated by ``"\\n"``, one step each: e.g. Getha's showdown), or ``None``;
  ``earlier`` holds the events the seat saw before it (a hand's plays explain the next);
* :func:`narrate` ``(events, ctx)`` — the sentences of a whole feed, in order;
* :func:`annotate` ``(events, ctx, start=0)`` — copies of the events from ``start`` on,
  each with its ``"text"`` (and, told in steps, its ``"text_steps"``: Getha's showdown), the
  event closing a hand with its ``"summary"`` and the last event of the game with the
  score table (what the web server sends);
* :func:`prompt` ``(view, ctx)`` — why the viewing seat is asked now and what is at stake
  (``None`` when it is not asked);
* :func:`status` ``(view, ctx)`` — whose move it is and why, for any viewer ("Your turn",
  "Waiting for Ann, who may claim the 5 of S3 on the discard pile, out of turn");
* :func:`labels` ``(view, ctx)`` — the words of each entry of ``view["legal"]`` (a button
  "Attack Bob with the arlas of S4", a range "Bet between 2 and 1,000,000 chips");
* :func:`hand_summaries` ``(events, ctx)`` — one :class:`HandSummary` per hand or deal;
* :func:`score_table` ``(events, ctx)`` — the end of the game: a :class:`ScoreTable` with
  a row per hand and the final result (``None`` before the end);
* :func:`move_caption` ``(move, moves, events, ctx, actor)`` — where the replay viewer
  stands ("Move 3 of 42: Ann takes 2 cards.");
* :func:`context_start` ``(game, kinds, start, stop)`` — from which event a server must
  replay a feed to tell the events ``start..stop`` (the start of their hand).

>>> from cardhall.registry import make_game
>>> state = make_game("abstrac").new_state(seed=7)
>>> state.apply(0, "second")
>>> ctx = Context("abstrac", ("Ann", "Bob"), viewer=1)
>>> narrate(state.events_for(1), ctx)[1]
'Ann chooses to go second: you move first.'
>>> prompt(state.view(1), ctx).split(".")[0]
'Your turn: take 1, 2 or 3 cards from the top end of the row (9♠ 10♥ Q♦ …; 24 cards left)'
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping, Sequence
from typing import Any

from cardhall.narration.common import (
    Context,
    HandSummary,
    ScoreTable,
    Story,
    headline,
    num,
    plural,
    sentence,
)

__all__ = [
    "Context",
    "HandSummary",
    "ScoreTable",
    "Story",
    "Telling",
    "amount_label",
    "amount_labels",
    "annotate",
    "board",
    "context_start",
    "describe",
    "hand_summaries",
    "label",
    "labels",
    "move_caption",
    "narrate",
    "prompt",
    "score_table",
    "status",
    "story",
]

#: The storyteller of each game: module and class.
STORIES: dict[str, tuple[str, str]] = {
    "abstrac": ("cardhall.narration.abstrac", "AbstracStory"),
    "getha": ("cardhall.narration.getha", "GethaStory"),
    "somachi": ("cardhall.narration.somachi", "SomachiStory"),
    "yamiro": ("cardhall.narration.yamiro", "YamiroStory"),
}


def _story_class(game: str) -> type[Story]:
    try:
        module, name = STORIES[game]
    except KeyError:
        return Story
    cls: type[Story] = getattr(importlib.import_module(module), name)
    return cls


def story(ctx: Context) -> Story:
    """A fresh storyteller for ``ctx``: feed it a seat's events in order with
    :meth:`Story.tell` (the terminal keeps one per human seat)."""
    return _story_class(ctx.game)(ctx)


def describe(
    event: Mapping[str, Any], ctx: Context, earlier: Sequence[Mapping[str, Any]] = ()
) -> str | None:
    """The sentence(s) for ``event``; ``earlier``: the events the seat saw before it."""
    teller = story(ctx)
    for e in earlier:
        teller.tell(e)
    return teller.tell(event)


def narrate(events: Sequence[Mapping[str, Any]], ctx: Context) -> list[str | None]:
    """The sentence(s) of each event of a seat's feed, in order."""
    teller = story(ctx)
    return [teller.tell(e) for e in events]


def annotate(
    events: Sequence[Mapping[str, Any]], ctx: Context, start: int = 0
) -> list[dict[str, Any]]:
    """Copies of ``events[start:]`` with their ``"text"`` (absent when an event says
    nothing; an event told in steps also has its ``"text_steps"``, one per line of the text:
    ``{"text", "seats", "cards"}``), the event that closes a hand with its ``"summary"``
    (``title``, ``lines``)
    and the game's last event with the ``"table"`` of the summary (``columns``, ``rows``,
    ``result``). ``events[:start]`` are only heard, for the context."""
    return Telling(ctx).more(events, start)


class Telling:
    """:func:`annotate` that goes on: the storyteller of ``ctx`` and every event it heard,
    so that the events that follow are told without telling the earlier ones again (a
    table tells each seat each new event as it happens).

    ``Telling(ctx).more(events, start)`` is ``annotate(events, ctx, start)``, and a later
    ``more(later)`` gives what ``annotate([*events, *later], ctx, len(events))`` would.

    >>> ctx = Context("abstrac", ("Ann", "Bob"))
    >>> telling = Telling(ctx)
    >>> first = [{"seq": 0, "kind": "choose", "seat": 0, "first": 1}]
    >>> [e.get("text") for e in telling.more(first)] == [
    ...     e.get("text") for e in annotate(first, ctx)]
    True

    It keeps no event: its storyteller remembers what the next sentences need (the
    hand so far, each finished hand's figures: the final score table is its own), so
    what a long match's telling holds grows with its hands, not with its events.
    """

    def __init__(self, ctx: Context) -> None:
        self.ctx = ctx
        self.teller = story(ctx)

    def more(self, events: Sequence[Mapping[str, Any]], start: int = 0) -> list[dict[str, Any]]:
        """Hear ``events`` (after every event heard before); told copies of
        ``events[start:]`` (see :func:`annotate`)."""
        teller = self.teller
        out: list[dict[str, Any]] = []
        for i, event in enumerate(events):
            text = teller.tell(event)
            summary = teller.closes(event)
            final = teller.ends_game(event)
            if i < start:
                continue
            copy = dict(event)
            copy.pop("text", None)
            if text:
                copy["text"] = text
                steps = teller.steps()
                if steps is not None:
                    copy["text_steps"] = steps
                head = teller.steps_head()
                if head is not None:
                    copy["steps_head"] = head
            if summary is not None or final:
                data: dict[str, Any] = (
                    summary.to_json() if summary is not None else {"title": "", "lines": []}
                )
                if final:
                    table = teller.score_table(())  # (it heard every event)
                    if table is not None:
                        data["title"] = data["title"] or "Final result"
                        data["table"] = table.to_json()
                copy["summary"] = data
            out.append(copy)
        return out


def prompt(view: Mapping[str, Any], ctx: Context) -> str | None:
    """Why the viewing seat is asked now and what is at stake, or ``None`` when it is not
    asked (or is a spectator)."""
    if view.get("seat") is None or not view.get("legal"):
        return None
    text = story(ctx).prompt(view)
    return sentence(text) if text else None


def status(view: Mapping[str, Any], ctx: Context) -> str:
    """Whose move it is and why, as a status line for the viewer of ``view`` (a player or
    a spectator): ``Your turn``, ``Waiting for Ann``, a game's out-of-turn window in its
    words, ``Game over``; empty when nobody is asked."""
    return headline(story(ctx).status(view))


def labels(view: Mapping[str, Any], ctx: Context) -> list[str]:
    """The words of each entry of ``view["legal"]``, in order, for the buttons (the action
    sent is still the entry's notation).

    >>> from cardhall.registry import make_game
    >>> state = make_game("abstrac").new_state(seed=7)
    >>> labels(state.view(0), Context("abstrac", ("Ann", "Bob"), viewer=0))
    ['Go first', 'Go second']
    """
    teller = story(ctx)
    return [headline(teller.label(entry, view)) for entry in view.get("legal") or []]


def board(view: Mapping[str, Any], ctx: Context) -> dict[str, Any]:
    """The words written on the table drawn from ``view`` (a frame's ``"board"``): per
    seat its figures (``stats``: label and value), ``badges``, ``note`` and whether it
    is ``out`` of the hand; the centre's ``title``, ``phase`` and ``facts``, and a
    game's own (Getha's ``pots``, Somachi's ``piles``, Yamiro's ``sides``, Abstrac's
    ``row``). The page draws the cards and writes only these words.

    >>> from cardhall.registry import make_game
    >>> view = make_game("getha", 3).new_state(seed=2).view(0)
    >>> words = board(view, Context("getha", ("Ann", "Bob", "Cy"), viewer=0))
    >>> words["title"], words["phase"], words["seats"][1]["stats"]
    ('Deal 1', 'Bring-in', [['Stack', '49'], ['In the pot', '1']])
    """
    return story(ctx).board(view)


def amount_label(entry: Mapping[str, Any], view: Mapping[str, Any], ctx: Context) -> dict[str, str]:
    """The words of the action an amount range's box plays, ``{amount}`` standing for
    the amount: ``many`` for any amount but 1, ``one`` for 1 chip (a frame's
    ``"amount_labels"``, for the bet box's button).

    >>> view = {"legal": [], "seat": 0, "seats": [{"stack": 5, "put": 0}], "cur": 0}
    >>> amount_label({"kind": "bet", "min": 1, "max": 5}, view, Context("getha", ("Ann",)))
    {'one': 'Bet 1 chip', 'many': 'Bet {amount} chips'}
    """
    kind = str(entry["kind"])
    teller = story(ctx)
    many = headline(teller.label(f"{kind} {_SENTINEL}", view))
    return {
        "one": headline(teller.label(f"{kind} 1", view)),
        "many": many.replace(f"{_SENTINEL:,}", "{amount}"),
    }


#: An amount no table reaches, to find where a label says the amount.
_SENTINEL = 987_654_321


def amount_labels(view: Mapping[str, Any], ctx: Context) -> list[dict[str, str] | None]:
    """For each entry of ``view["legal"]``: ``None`` for a plain action, the
    :func:`amount_label` of an amount range."""
    return [
        amount_label(entry, view, ctx) if isinstance(entry, Mapping) else None
        for entry in view.get("legal") or []
    ]


def label(entry: Any, view: Mapping[str, Any], ctx: Context) -> str:
    """The words of one legal entry (its notation, or an amount range as in a view) for
    the seat whose view this is.

    >>> view = {"legal": ["attack arlas/S4 1", "pass"], "seat": 0, "pending": None}
    >>> label("attack arlas/S4 1", view, Context("somachi", ("Ann", "Bob"), viewer=0))
    'Attack Bob with the arlas of S4'
    """
    return headline(story(ctx).label(entry, view))


def hand_summaries(events: Sequence[Mapping[str, Any]], ctx: Context) -> list[HandSummary]:
    """One summary per hand (or deal) the feed has finished: who won what and why."""
    return story(ctx).summaries(events)


def score_table(events: Sequence[Mapping[str, Any]], ctx: Context) -> ScoreTable | None:
    """The score table of a finished game (``None`` while it goes on)."""
    return story(ctx).score_table(events)


def move_caption(
    move: int,
    moves: int,
    events: Sequence[Mapping[str, Any]],
    ctx: Context,
    actor: int | None = None,
) -> str:
    """Where a step-through of a record stands, for the replay viewer: before the first
    move the deal and how many moves follow, then the move's number and its first
    sentence (``events``: the told events the move brought; ``actor``: the seat that
    moved, named when the move says nothing to this side).

    >>> ctx = Context("abstrac", ("Ann", "Bob"), viewer=1)
    >>> move_caption(0, 42, [], ctx)
    'The deal · 42 moves in this game'
    >>> move_caption(3, 42, [{"text": "Ann takes 2 cards.\\nThe row: 5 left."}], ctx, 0)
    'Move 3 of 42: Ann takes 2 cards.'
    >>> move_caption(4, 42, [{"kind": "hidden"}], ctx, 0)
    'Move 4 of 42: Ann'
    """
    if move == 0:
        return f"The deal · {plural(moves, 'move')} in this game"
    said = [str(e["text"]).split("\n")[0] for e in events if e.get("text")]
    who = said[0] if said else ("" if actor is None else ctx.names[actor])
    return f"Move {num(move)} of {num(moves)}" + (f": {who}" if who else "")


def context_start(game: str, kinds: Sequence[str], start: int, stop: int | None = None) -> int:
    """The index from which the events ``start..stop`` of a game's log (``kinds``: each
    event's kind, in log order) must be told so that they read as from the beginning:
    the start of their hand, or 0 when one of them ends the game.

    >>> context_start("yamiro", ["deal", "hand", "play", "play", "hand", "play"], 5)
    4
    >>> context_start("abstrac", ["layout", "choose", "take"], 2)
    0
    """
    cls = _story_class(game)
    stop = len(kinds) if stop is None else stop
    if not cls.chapter_kinds:
        return 0
    if any(k in cls.whole_game_kinds for k in kinds[start:stop]):
        return 0
    i = min(start, len(kinds))
    while i > 0 and kinds[i - 1] not in cls.chapter_kinds:
        i -= 1
    return max(i - 1, 0)
