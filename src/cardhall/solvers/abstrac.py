"""The exact Abstrac solver.

Abstrac is a two-player game of perfect information, so every position has an exact
value. A *position* is the remaining row (top end first), the cards the side to move
has taken and the cards the other side has taken; the side to move takes 1, 2 or 3 cards.

Sign conventions (all values are whole numbers of points):

* :func:`solve_position`, :func:`position_value`, :func:`exhaustive_value` and
  :class:`Analysis` speak for the **side to move**: the value is the side to move's final
  deal score minus the other side's under perfect play by both, and ``takes[k]`` is that
  same difference after the side to move takes ``k`` (then perfect play).
* :func:`solve_layout` and :class:`LayoutSolution` (and ``cardhall solve abstrac``) speak
  for the **first mover** of a fresh deal: ``value`` is the first mover's final deal score
  minus the second mover's, and ``takes[k]`` is that value after a first take of ``k``.
  The nondealer, who chooses, goes ``first`` when the value is positive, ``second`` when
  it is negative, and is indifferent (``either``) at zero.

The algorithm (see docs/solver.md): a fail-soft negamax alpha-beta search over
(position, side to move's cards, other side's cards), with

* cards as bits of one integer per player holding two encodings, suit-major (for runs)
  and rank-major (for sets), so combos are four table lookups (the game's own
  :func:`~cardhall.games.abstrac.combos_of_mask`, which scores every deal);
* bounds from monotonicity: combos never fall when cards are added, so each player's
  final combos lie between the combos of what he holds and of what he holds plus the
  whole remaining row. These bound the deal value (misère included) and cut the search;
* an exact shortcut when neither player's combos can change any more: what is left is a
  pure card-count game (both want fewer cards, or under misère both want more), solved
  by two small tables;
* move ordering ``take 3, take 2, take 1``, which is close to perfect ordering here.

A fresh deal takes about 2,000-3,000 nodes instead of the 1.4 million leaves of the plain
minimax (:func:`exhaustive_value`, kept as the reference the tests compare against).

>>> from cardhall.cards import FrenchCard
>>> row = FrenchCard.parse_many("AS KS QS AH AD AC")
>>> analysis = solve_position(row)
>>> analysis.takes      # taking the spade run lets the opponent force a misère
{1: -6, 2: -4, 3: -6}
>>> analysis.value, analysis.pv
(-4, (2, 1, 2, 1))
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from cardhall.cards import FRENCH_DECK, FrenchCard
from cardhall.errors import NotationError
from cardhall.games.abstrac import _BIT, _RUN2, _SET3, combos_of_mask, deal_scores, mask_of

__all__ = [
    "Analysis",
    "LayoutSolution",
    "combos_of_mask",
    "exhaustive_takes",
    "exhaustive_value",
    "mask_of",
    "parse_layout",
    "position_value",
    "solve_layout",
    "solve_position",
    "state_position",
]

_INF = 1 << 30

# Count games: when no combination can change any more, only card counts matter. With r
# cards left, FEW[r] is how many the side to move ends up with when both sides want as few
# cards as possible, MANY[r] when both want as many as possible.
_FEW = [0] * 25
_MANY = [0] * 25
for _r in range(1, 25):
    _FEW[_r] = min(_r - _FEW[_r - k] for k in range(1, min(3, _r) + 1))
    _MANY[_r] = max(_r - _MANY[_r - k] for k in range(1, min(3, _r) + 1))


# --------------------------------------------------------------------------- the search


class _Search:
    """Alpha-beta search over one remaining row (the row never changes; masks do)."""

    __slots__ = ("add", "best", "n", "nodes", "rest")

    def __init__(self, row: Sequence[int]) -> None:
        n = len(row)
        self.n = n
        # add[pos][k]: mask of the k cards from pos; rest[pos]: mask of row[pos:].
        self.add = [[0, 0, 0, 0] for _ in range(n + 1)]
        self.rest = [0] * (n + 1)
        for p in range(n):
            m = 0
            for k in (1, 2, 3):
                if p + k <= n:
                    m |= _BIT[row[p + k - 1]]
                    self.add[p][k] = m
        for p in range(n - 1, -1, -1):
            self.rest[p] = self.rest[p + 1] | _BIT[row[p]]
        self.nodes = 0
        # best[(m_x << 5) | pos]: the last take that raised alpha at that node. Along the
        # principal variation of a full-window search those are the best takes. The key
        # names one node: the row's first card always goes to the root's mover, and the
        # mover's cards spell out every take made, so no two lines reach the same key.
        self.best: dict[int, int] = {}

    def value(self, pos: int, m_x: int, n_x: int, m_y: int, n_y: int, alpha: int, beta: int) -> int:
        """Fail-soft negamax value for X, the side to move, at ``pos``.

        If the true value v is in (alpha, beta) the result is v; if v <= alpha the result
        is an upper bound u with v <= u <= alpha; if v >= beta a lower bound >= beta.
        """
        n = self.n
        add = self.add
        rest = self.rest
        run2 = _RUN2
        set3 = _SET3
        few = _FEW
        many = _MANY
        best_take = self.best
        counter = [0]

        def search(
            pos: int, m_x: int, n_x: int, c_xl: int, m_y: int, n_y: int, alpha: int, beta: int
        ) -> int:
            # c_xl is X's combos now (the parent computed it as its opponent's).
            counter[0] += 1
            r = n - pos
            rr = rest[pos]
            c_yl = (
                run2[m_y & 4095]
                + run2[(m_y >> 12) & 4095]
                + set3[(m_y >> 24) & 4095]
                + set3[m_y >> 36]
            )
            h = m_x | rr
            c_xh = run2[h & 4095] + run2[(h >> 12) & 4095] + set3[(h >> 24) & 4095] + set3[h >> 36]
            h = m_y | rr
            c_yh = run2[h & 4095] + run2[(h >> 12) & 4095] + set3[(h >> 24) & 4095] + set3[h >> 36]
            if c_xl == c_xh and c_yl == c_yh:
                # Nothing left can change a combination: a pure card-count game.
                if c_xl:
                    if c_yl:
                        f = few[r]
                        return c_xl * (n_y + r - f) - c_yl * (n_x + f)
                    return -c_xl * (n_y + r - many[r])
                if c_yl:
                    return c_yl * (n_x + many[r])
                return 0
            # Bounds. X ends with between n_x + 1 and n_x + r cards, Y with n_y .. n_y + r - 1.
            # Upper bound for X over the four scoring cases (both score, X misère,
            # Y misère, neither scores), each with the most favourable combos and counts.
            ub = 0 if (c_xl == 0 and c_yl == 0) else -_INF
            if c_xh and c_yh:
                v = c_xh * (n_y + r - 1) - (c_yl or 1) * (n_x + 1)
                if v > ub:
                    ub = v
            if c_xl == 0 and c_yh:
                v = c_yh * (n_x + r)
                if v > ub:
                    ub = v
            if c_yl == 0 and c_xh:
                v = -(c_xl or 1) * n_y
                if v > ub:
                    ub = v
            if ub <= alpha:
                return ub
            # Lower bound for X: minus Y's upper bound, computed the same way.
            lb = 0 if (c_xl == 0 and c_yl == 0) else -_INF
            if c_yh and c_xh:
                v = c_yh * (n_x + r) - (c_xl or 1) * n_y
                if v > lb:
                    lb = v
            if c_yl == 0 and c_xh:
                v = c_xh * (n_y + r - 1)
                if v > lb:
                    lb = v
            if c_xl == 0 and c_yh:
                v = -(c_yl or 1) * (n_x + 1)
                if v > lb:
                    lb = v
            lb = -lb
            if lb >= beta:
                return lb
            best = -_INF
            ap = add[pos]
            # Move ordering: take 3 first (near-perfect ordering for this game).
            k = 3 if r >= 3 else r
            while k:
                left = r - k
                h = m_x | ap[k]
                if left > 1:
                    v = -search(pos + k, m_y, n_y, c_yl, h, n_x + k, -beta, -alpha)
                else:
                    # The last one or two plies, scored here rather than in a call: X
                    # takes the rest, or leaves one card that Y must take.
                    c_x = (
                        run2[h & 4095]
                        + run2[(h >> 12) & 4095]
                        + set3[(h >> 24) & 4095]
                        + set3[h >> 36]
                    )
                    f_x = n_x + k
                    if left:
                        g = m_y | add[pos + k][1]
                        c_y = (
                            run2[g & 4095]
                            + run2[(g >> 12) & 4095]
                            + set3[(g >> 24) & 4095]
                            + set3[g >> 36]
                        )
                        f_y = n_y + 1
                    else:
                        c_y = c_yl
                        f_y = n_y
                    if c_x:
                        v = c_x * f_y - c_y * f_x if c_y else -c_x * f_y
                    else:
                        v = c_y * f_x if c_y else 0
                if v > best:
                    best = v
                    if v > alpha:
                        alpha = v
                        if alpha >= beta:
                            break
                        best_take[(m_x << 5) | pos] = k
                k -= 1
            return best

        result = search(pos, m_x, n_x, combos_of_mask(m_x), m_y, n_y, alpha, beta)
        self.nodes += counter[0]
        return result


# --------------------------------------------------------------------------- public API


@dataclass(frozen=True)
class Analysis:
    """The exact analysis of a position, for the **side to move**.

    ``value``: the side to move's final deal score minus the other side's, under perfect
    play. ``takes[k]``: the same difference after the side to move takes ``k`` cards and
    both play perfectly after that. ``pv``: a principal variation, the numbers of cards
    taken turn by turn starting with the side to move, to the end of the row.
    """

    value: int
    takes: dict[int, int]
    pv: tuple[int, ...]
    nodes: int = field(default=0, compare=False)

    @property
    def best_takes(self) -> list[int]:
        """Every take that achieves the value, smallest first."""
        return [k for k, v in sorted(self.takes.items()) if v == self.value]


@dataclass(frozen=True)
class LayoutSolution:
    """The exact solution of a fresh layout, for the **first mover**.

    ``value``: the first mover's final deal score minus the second mover's under perfect
    play; ``takes[k]``: that value after a first take of ``k``; ``nondealer``: the
    nondealer's best choice, ``"first"``, ``"second"`` or ``"either"``; ``pv``: the takes
    of a principal variation, the first mover's first.
    """

    layout: tuple[FrenchCard, ...]
    value: int
    takes: dict[int, int]
    nondealer: str
    pv: tuple[int, ...]
    nodes: int = field(default=0, compare=False)

    def to_json(self) -> dict[str, Any]:
        """The pinned JSON form of ``cardhall solve abstrac --json``."""
        return {
            "value": self.value,
            "takes": {str(k): v for k, v in sorted(self.takes.items())},
            "nondealer": self.nondealer,
            "pv": list(self.pv),
        }


def _check_cards(row: Sequence[int], mine: Sequence[int], theirs: Sequence[int]) -> None:
    seen: set[int] = set()
    for c in (*row, *mine, *theirs):
        if isinstance(c, bool) or not isinstance(c, int) or not 0 <= c < 24:
            raise NotationError(f"not an Abstrac card: {c!r}")
        if c in seen:
            raise NotationError(f"card {FRENCH_DECK[c]} appears twice in the position")
        seen.add(c)


def position_value(
    row: Sequence[int], mover_taken: Sequence[int] = (), other_taken: Sequence[int] = ()
) -> int:
    """The exact value of a position for the side to move (see :class:`Analysis`)."""
    _check_cards(row, mover_taken, other_taken)
    if not row:
        return _leaf(mover_taken, other_taken)
    search = _Search(row)
    return search.value(
        0,
        mask_of(mover_taken),
        len(mover_taken),
        mask_of(other_taken),
        len(other_taken),
        -_INF,
        _INF,
    )


def _leaf(mine: Sequence[int], theirs: Sequence[int]) -> int:
    a, b = deal_scores(
        combos_of_mask(mask_of(mine)), len(mine), combos_of_mask(mask_of(theirs)), len(theirs)
    )
    return a - b


def solve_position(
    row: Sequence[int], mover_taken: Sequence[int] = (), other_taken: Sequence[int] = ()
) -> Analysis:
    """Exact value, value of each take and a principal variation, for the side to move.

    ``row`` is the remaining row, top end first; ``mover_taken`` and ``other_taken`` the
    cards each side has taken so far (cards are ``FrenchCard`` or their indexes).
    """
    _check_cards(row, mover_taken, other_taken)
    if not row:
        return Analysis(_leaf(mover_taken, other_taken), {}, ())
    search = _Search(row)
    m_x, n_x = mask_of(mover_taken), len(mover_taken)
    m_y, n_y = mask_of(other_taken), len(other_taken)
    takes: dict[int, int] = {}
    for k in range(min(3, len(row)), 0, -1):
        takes[k] = -search.value(k, m_y, n_y, m_x | search.add[0][k], n_x + k, -_INF, _INF)
    value = max(takes.values())
    first = next(k for k in takes if takes[k] == value)  # in search order: 3, 2, 1
    pv = [first, *_follow(search, first, m_y, n_y, m_x | search.add[0][first], n_x + first)]
    return Analysis(value, dict(sorted(takes.items())), tuple(pv), search.nodes)


def _follow(search: _Search, pos: int, m_x: int, n_x: int, m_y: int, n_y: int) -> list[int]:
    """The principal variation from a node searched with a full window.

    Nodes on it recorded their best take during the search, except those the search
    solved as a pure count game (no combination can change): there the takes that keep
    the count game's value are found from the count tables.
    """
    pv: list[int] = []
    n = search.n
    while pos < n:
        k = search.best.get((m_x << 5) | pos, 0) if n - pos > 1 else 1
        if not k:
            k = _count_game_take(search, pos, m_x, m_y)
        pv.append(k)
        m_x, n_x, m_y, n_y = m_y, n_y, m_x | search.add[pos][k], n_x + k
        pos += k
    return pv


def _count_game_take(search: _Search, pos: int, m_x: int, m_y: int) -> int:
    """A best take in a position where no combination can change any more."""
    rr = search.rest[pos]
    c_x, c_y = combos_of_mask(m_x), combos_of_mask(m_y)
    if c_x != combos_of_mask(m_x | rr) or c_y != combos_of_mask(m_y | rr):
        raise AssertionError("principal variation lost: not a count game")  # pragma: no cover
    r = search.n - pos
    if c_x and c_y:  # both want as few cards as possible
        return next(k for k in (3, 2, 1) if k <= r and r - _FEW[r - k] == _FEW[r])
    if c_x or c_y:  # misère: both want as many as possible
        return next(k for k in (3, 2, 1) if k <= r and r - _MANY[r - k] == _MANY[r])
    return min(3, r)  # nobody can score: every take is worth 0


def solve_layout(layout: Sequence[int] | str) -> LayoutSolution:
    """Solve a fresh deal: ``layout`` is the row (24 cards, or fewer for a short game),
    top end first, as cards or notation text. Values are for the first mover.

    >>> sol = solve_layout("AS KS QS JS 10S 9S AH KH QH JH 10H 9H "
    ...                    "AD KD QD JD 10D 9D AC KC QC JC 10C 9C")
    >>> sol.value, sol.takes, sol.nondealer      # threes: 12 each in runs, 24 in sets
    (0, {1: -36, 2: -36, 3: 0}, 'either')
    """
    cards = parse_layout(layout, exact=None) if isinstance(layout, str) else list(layout)
    analysis = solve_position(cards)
    v = analysis.value
    return LayoutSolution(
        layout=tuple(FRENCH_DECK[c] for c in cards),
        value=v,
        takes=analysis.takes,
        nondealer="first" if v > 0 else "second" if v < 0 else "either",
        pv=analysis.pv,
        nodes=analysis.nodes,
    )


def parse_layout(text: str, exact: int | None = 24) -> list[FrenchCard]:
    """Parse a layout (card notations separated by spaces or commas, top end first).

    Raises :class:`~cardhall.errors.NotationError` naming the problem: a bad card, a
    duplicate, or (with ``exact``) the wrong number of cards.

    >>> [str(c) for c in parse_layout("AS 10h 9C", exact=None)]
    ['AS', '10H', '9C']
    """
    tokens = text.replace(",", " ").split()
    cards = []
    for i, token in enumerate(tokens, 1):
        try:
            cards.append(FrenchCard.parse(token))
        except NotationError as exc:
            raise NotationError(f"card {i} of the layout: {exc}") from None
    seen: dict[int, int] = {}
    for i, c in enumerate(cards, 1):
        if c in seen:
            raise NotationError(f"{c} appears twice in the layout (cards {seen[c]} and {i})")
        seen[c] = i
    if exact is not None and len(cards) != exact:
        raise NotationError(f"a layout has {exact} cards, got {len(cards)}")
    return cards


def state_position(state: Any) -> tuple[list[int], list[int], list[int]] | None:
    """(remaining row, side to move's cards, other side's cards) of an Abstrac state in
    its taking phase, or ``None`` (before the choice, or when the game is over)."""
    if state.is_over or state.to_move < 0:
        return None
    seat = state.to_move
    return list(state.row[state.pos :]), list(state.taken[seat]), list(state.taken[1 - seat])


# --------------------------------------------------------------------------- reference


def exhaustive_value(
    row: Sequence[int], mover_taken: Sequence[int] = (), other_taken: Sequence[int] = ()
) -> int:
    """The plain exhaustive minimax (no pruning): every line of play to the end, scored
    with the game's own :func:`~cardhall.games.abstrac.deal_scores`. The reference the
    solver is tested and benchmarked against; about 1.4 million leaves for a fresh deal.
    Value for the side to move, as :func:`position_value`."""
    _check_cards(row, mover_taken, other_taken)
    n = len(row)
    add = _Search(row).add

    def rec(pos: int, m_x: int, n_x: int, m_y: int, n_y: int) -> int:
        if pos == n:
            s_x, s_y = deal_scores(combos_of_mask(m_x), n_x, combos_of_mask(m_y), n_y)
            return s_x - s_y
        best = -_INF
        ap = add[pos]
        for k in (1, 2, 3):
            if pos + k > n:
                break
            v = -rec(pos + k, m_y, n_y, m_x | ap[k], n_x + k)
            if v > best:
                best = v
        return best

    return rec(0, mask_of(mover_taken), len(mover_taken), mask_of(other_taken), len(other_taken))


def exhaustive_takes(
    row: Sequence[int], mover_taken: Sequence[int] = (), other_taken: Sequence[int] = ()
) -> dict[int, int]:
    """The value of each take by the plain exhaustive minimax (side to move's view)."""
    out = {}
    for k in range(1, min(3, len(row)) + 1):
        out[k] = -exhaustive_value(row[k:], other_taken, [*mover_taken, *row[:k]])
    return out
