"""Yamiro for research: bounds from the rules, and its three forms.

**Decisions** are the game's own :meth:`~cardhall.games.yamiro.Yamiro.max_game_length`:
8 plays per hand and player (4 in solitaire, where the deck plays the other half), or,
with ``must_have_winner``, at most 96 plays per hand. The rules end every game, so no cap
is needed.

**Chance.** One shuffle of the 96 cards; with ``must_have_winner`` and
``reshuffle_discards`` the discards may be reshuffled into a new pile. A reshuffle takes
the whole discard pile, which only a finished hand refills, and the last hand ends the
game, so there are at most ``hands - 1`` reshuffles: at most ``96 * hands`` cards.

**Payoffs** are the game's :meth:`~cardhall.games.yamiro.Yamiro.payoff_bounds`: captures
are worth at most 32 points per side and hand (64 with partners), so the margin is at most
256 (544, the whole deck, with ``must_have_winner``); solitaire's payoff is the margin,
the other forms' half of it.

**Forms** (OpenSpiel names): ``cardhall_yamiro_2p`` (zero-sum), ``cardhall_yamiro_partner``
(four players in two teams; each seat gets its team's payoff, zero-sum),
``cardhall_yamiro_solitaire`` (one player, the margin). ``cardhall_yamiro`` keeps every
player count and is general-sum (because of solitaire).

**Stopped game** (only with an explicit cap): the capture totals so far.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any, ClassVar

import numpy as np

from cardhall.engine import Event, State
from cardhall.games.yamiro import Yamiro, YamiroObservation
from cardhall.interop.spec import Form, Research, Spec, mean_centred, register_spec, view_of
from cardhall.interop.tensor import RAILOG_CARD, Encoder, KeptRun, card_labels, cells, fixed

__all__ = ["YamiroEncoder", "YamiroSpec", "parse_result_text"]


@register_spec
class YamiroSpec(Spec):
    """Yamiro's bounds and forms (see the module docstring)."""

    game_name = "yamiro"
    forms = (
        Form("2p", 2, "zero_sum", "Yamiro (two players)"),
        Form("partner", 4, "zero_sum", "Yamiro (partners)"),
        Form("solitaire", 1, "general_sum", "Yamiro (solitaire)"),
    )

    @property
    def yamiro(self) -> Yamiro:
        assert isinstance(self.game, Yamiro)
        return self.game

    def rule_decisions(self) -> int | None:
        return self.yamiro.max_game_length()

    def default_cap(self) -> int:
        return self.yamiro.max_game_length()

    def chance_cards(self, decisions: int) -> int:
        o = self.game.options
        if o["must_have_winner"] and o["reshuffle_discards"]:
            return 96 * (4 if self.game.players == 4 else 8)
        return 96

    def encoder(self, research: Research) -> Encoder:
        return YamiroEncoder(research)

    def payoff_range(self) -> tuple[float, float]:
        low, high = self.yamiro.payoff_bounds()
        return float(low), float(high)

    def standing_payoffs(self, state: State) -> tuple[float, ...]:
        if state.is_over:
            outcome = state.outcome()
            assert outcome is not None
            return tuple(outcome.payoffs)
        totals = [side["capture_total"] for side in view_of(state)["sides"]]
        if self.game.players == 1:
            return (float(totals[0] - totals[1]),)
        return mean_centred([totals[s & 1] for s in range(self.game.players)])


# --------------------------------------------------------------------------- tensors

_SHOW = r"(\d+)(?: \((\d+) x(\d)\))?"
_VALUE_TEXT = re.compile(rf"^(?:tie: value {_SHOW} against {_SHOW}|value {_SHOW} beats {_SHOW})$")
_ARLAS_TEXT = re.compile(
    r"^arlas at play (\d+) wins: "
    r"(?:not cancelled|the arlas at plays? ([\d, ]+) (?:was|were) cancelled)$"
)
_STOPPED_TEXT = "stopped: a side had no card to play; tie"


def parse_result_text(
    text: str, winner: int | None, arlas: int = -1
) -> tuple[list[int], list[int], list[int], bool]:
    """Read back what a hand result's sentence (``explain``) says beyond the record's
    other fields: each side's number total and multiplier (value wins and ties), the
    plays of the arlas cancelled before the winning one, and whether play stopped.

    >>> parse_result_text("value 16 (8 x2) beats 6", 1)
    ([6, 8], [1, 2], [], False)
    >>> parse_result_text("arlas at play 6 wins: the arlas at plays 1, 3 were cancelled", 0, 5)
    ([0, 0], [0, 0], [1, 3], False)
    """
    if text == _STOPPED_TEXT:
        return [0, 0], [0, 0], [], True
    m = _ARLAS_TEXT.match(text)
    if m:
        if int(m.group(1)) != arlas + 1:
            raise ValueError(f"{text!r} does not name the winning arlas (play {arlas + 1})")
        cancelled = [int(x) for x in m.group(2).split(", ")] if m.group(2) else []
        return [0, 0], [0, 0], cancelled, False
    m = _VALUE_TEXT.match(text)
    if m is None:
        raise ValueError(f"unknown yamiro result text {text!r}")
    g = m.groups()
    first, second = (g[0:3], g[3:6]) if g[0] is not None else (g[6:9], g[9:12])
    shown = []
    for value, total, mult in (first, second):
        shown.append((int(total), int(mult)) if total is not None else (int(value), 1))
    if winner == 1:  # "value W beats L": the winner is shown first
        shown.reverse()
    return [shown[0][0], shown[1][0]], [shown[0][1], shown[1][1]], [], False


class YamiroEncoder(Encoder):
    """Yamiro's tensors (layout in ``docs/interop.md``), read from the typed
    :class:`~cardhall.games.yamiro.YamiroObservation`."""

    DERIVED: ClassVar[tuple[str, ...]] = (
        # the configuration: constant
        "game",
        "players",
        "options",
        "options.*",
        "form",
        "dealer",
        "hands_total",
        # the seat's own: the private header and the side it belongs to
        "seat",
        "side",
        # in the history
        "events",
        "events.*",
        # the game's functions of what is encoded
        "to_move",
        "outcome",
        "outcome.*",
        "standing",
        "standing.*",
        "results.*.hand",
        "results.*.form",
        "results.*.starter",
        "results.*.points",
    )
    UNORDERED: ClassVar[tuple[str, ...]] = (
        "hand",
        "results.*.captured",
    )  # sorted; in the order of the captures

    def __init__(self, research: Research) -> None:
        super().__init__(research)
        game = self.game
        n = self.players
        solo = n == 1
        mhw = bool(game.options["must_have_winner"])
        self.hands = 4 if n == 4 else 8
        #: Plays of one hand at most (the order scale).
        self.per_hand = 96 if mhw else (8 if solo else 4 * n)
        #: Seats in ``played.seat``: the players, and the deck in solitaire.
        self.slots = 2 if solo else n
        cards = card_labels()
        seats = [*range(n), *(["deck"] if solo else [])]
        p = self.public
        self.add_common()
        p.add("hand_number")
        p.add("starter", range(n))
        p.add("hand_sizes", range(n))
        p.add("pile")
        p.add("played.on_table", cards)
        p.add("played.order", cards)
        for s in seats:
            p.add(f"played.by_{s}", cards)
        p.add("captures.side_0", cards)
        p.add("captures.side_1", cards)
        p.add("captures.order", cards)
        p.add("captures.hand", cards)
        p.add("discards.in", cards)
        p.add("discards.order", cards)
        for k in range(self.hands):
            p.add(
                f"results[{k}]",
                [
                    "done",
                    "winner_0",
                    "winner_1",
                    "tie",
                    "arlas",
                    "value_0",
                    "value_1",
                    "total_0",
                    "total_1",
                    "multiplier_0",
                    "multiplier_1",
                    "cards",
                    "stopped",
                    *(f"cancelled_{i}" for i in range(8)),
                ],
            )
        q = self.private
        q.add("seat", range(n))
        q.add("hand", cards)
        #: Offsets the hot path writes at (the blocks above, looked up once).
        self._by_slot = [p[f"played.by_{s}"].start for s in seats]
        self._side_start = [p["captures.side_0"].start, p["captures.side_1"].start]
        self._result_start = [p[f"results[{k}]"].start for k in range(self.hands)]
        self._hand_number = p["hand_number"].start
        self._hand_sizes = p["hand_sizes"].start
        self._pile = p["pile"].start
        self._played = (p["played.on_table"].start, p["played.order"].start)
        self._captures = (p["captures.order"].start, p["captures.hand"].start)
        self._discards = (p["discards.in"].start, p["discards.order"].start)
        #: The captures, discards and finished hands change only when a hand ends: the run
        #: of blocks they fill (from the captures to the last result), and the last of them
        #: encoded with that run's values.
        self._piles = KeptRun(p["captures.side_0"].start, p[f"results[{self.hands - 1}]"].stop)
        #: A finished hand's result row, by what the observation tells of it (results never
        #: change once told, and their sentences are read back with regular expressions).
        self._result_rows: dict[tuple[Any, ...], np.ndarray] = {}
        decisions = research.bounds.max_decisions
        self.steps = 4 * decisions + self.hands if solo else 2 * decisions
        h = self.history
        h.add("dealt", cards)
        for i in range(self.steps):
            h.add(
                f"step[{i}]",
                ["play", "turn", "draw", *(f"by_{s}" for s in seats), "card", "drawn", "drew"],
            )

    def seen(self, state: State, seat: int | None) -> YamiroObservation:
        obs = state.observe(seat)
        assert isinstance(obs, YamiroObservation)
        return obs

    def encode_public(self, view: YamiroObservation, out: np.ndarray) -> None:
        p = self.public
        mv = cells(out)
        n = self.players
        self.encode_common(view, mv)
        mv[self._hand_number] = view.hand_number / self.hands
        if view.starter is not None:
            p.set(out, "starter", view.starter)
        at = self._hand_sizes
        for s, size in enumerate(fixed(view.hand_sizes, n, "hand_sizes")):
            mv[at + s] = size / 5
        mv[self._pile] = view.pile / 96
        on, order = self._played
        by_slot = self._by_slot
        deck_slot = len(by_slot) - 1
        per_hand = self.per_hand
        played_by = fixed(view.played_by, len(view.played), "played_by")
        for i, card in enumerate(view.played):
            c = int(card)
            mv[on + c] = 1.0
            mv[order + c] = (i + 1) / per_hand
            who = played_by[i]
            if who is None:  # the deck's play, in solitaire
                if n != 1:
                    raise KeyError("played.by_deck")
                who = deck_slot
            elif not 0 <= who < n:
                raise KeyError(f"played.by_{who}")
            mv[by_slot[who] + c] = 1.0
        captures = fixed(view.captures, 2, "captures")
        piles = (captures[0], captures[1], view.discards, view.results)
        if self._piles.restore(piles, mv):  # no hand ended since: the same values
            return
        corder, chand = self._captures
        for side in (0, 1):
            base = self._side_start[side]
            for i, card in enumerate(captures[side]):
                c = int(card)
                mv[base + c] = 1.0
                mv[corder + c] = (i + 1) / 96
        din, dorder = self._discards
        for i, card in enumerate(view.discards):
            c = int(card)
            mv[din + c] = 1.0
            mv[dorder + c] = (i + 1) / 96
        rows = self._result_rows
        for k, result in enumerate(view.results):
            at_hand = (k + 1) / self.hands
            for text in result["captured"]:
                mv[chand + RAILOG_CARD[text]] = at_hand
            v0, v1 = fixed(result["values"], 2, "values")
            key = (result["text"], result["winner"], result["arlas"], v0, v1, result["cards"])
            row = rows.get(key)
            if row is None:
                if len(rows) >= 4096:  # a bound on the memory kept
                    rows.clear()
                row = rows[key] = self._result_row(*key)
            base = self._result_start[k]
            mv[base : base + len(row)] = cells(row)
        # kept with plain dicts (a mappingproxy does not pickle; they compare equal)
        self._piles.keep((*piles[:3], tuple([dict(r) for r in view.results])), out)

    def _result_row(
        self, text: str, winner: int | None, arlas: int, v0: int, v1: int, cards: int
    ) -> np.ndarray:
        """The values of one finished hand's result."""
        totals, mults, cancelled, stopped = parse_result_text(text, winner, arlas)
        row = [
            1.0,
            float(winner == 0),
            float(winner == 1),
            float(winner is None),
            (arlas + 1) / self.per_hand,
            v0 / 1152,
            v1 / 1152,
            totals[0] / 288,
            totals[1] / 288,
            mults[0] / 4,
            mults[1] / 4,
            cards / 96,
            float(stopped),
            *(x / self.per_hand for x in cancelled),
        ]
        return np.array(row, dtype=np.float32)

    def encode_private(self, view: YamiroObservation, seat: int, out: np.ndarray) -> None:
        q = self.private
        mv = cells(out)
        q.set(out, "seat", seat)
        base = q["hand"].start
        if view.hand is None:
            raise ValueError("a spectator's observation has no private part")
        for card in view.hand:
            mv[base + int(card)] = 1.0

    def encode_history(
        self, events: Sequence[Event], own: Sequence[Any], seat: int, out: np.ndarray
    ) -> None:
        h = self.history
        mv = cells(out)
        solo = self.players == 1
        kinds = {"play": 0, "turn": 1, "draw": 2}
        i = 0
        for e in events:
            kind = e.kind
            if kind == "deal":
                if e.seat == seat:
                    for text in e.data["cards"]:
                        mv[h["dealt"].start + RAILOG_CARD[text]] = 1.0
                continue
            k = kinds.get(kind)
            if k is None:
                continue  # hands, results, tiebreaks, reshuffles: fixed by the plays
            base = h[f"step[{i}]"].start
            i += 1
            mv[base + k] = 1.0
            assert e.seat is not None
            who = 1 if solo and e.seat == -1 else e.seat
            mv[base + 3 + who] = 1.0
            card = e.data.get("card")
            rest = base + 3 + self.slots
            if card is not None:
                mv[rest] = (RAILOG_CARD[card] + 1) / 96
            drew = e.data.get("drew")
            if isinstance(drew, str):
                mv[rest + 1] = (RAILOG_CARD[drew] + 1) / 96
                mv[rest + 2] = 1.0
            elif drew:
                mv[rest + 2] = 1.0
