"""The adapters' integer actions (re-exported by :mod:`cardhall.interop`): a game's plain
actions by their stable ids, then a few sizes of each kind of amount.

Compiled with the engine (see :mod:`cardhall.build`): the PettingZoo, Gym and RLCard
environments list a seat's legal ids on every turn (Getha lists up to 255 discards).
"""

from __future__ import annotations

from typing import cast

from mypy_extensions import mypyc_attr

from cardhall.engine import Action, AmountRange, Game, Legal, State
from cardhall.errors import IllegalActionError

__all__ = ["AMOUNT_SIZES", "ActionSpace"]

#: The sizes adapters offer for each kind of amount, in id order (named by
#: :meth:`State.amount_sizes`): OpenSpiel's "fcpa" poker abstraction (fold, call, pot,
#: all-in) with half the pot and the minimum added.
AMOUNT_SIZES = ("min", "half_pot", "pot", "max")

#: At most this many lists kept by :meth:`ActionSpace.legal_ids` (then they start again).
_KEPT_LISTS = 512


# Compiled, a native class copied and pickled by Python's rules (the environments are),
# made from Python code (a class only serializable is not initialised when made there).
@mypyc_attr(allow_interpreted_subclasses=True, serializable=True)
class ActionSpace:
    """The adapters' integer actions for one game configuration: fixed and small, however
    many chips are at the table.

    Ids ``0 .. game.num_distinct_actions - 1`` are the game's plain actions
    (:meth:`Game.action_id`). Then each kind of :attr:`Game.amount_kinds`, in order, gets
    one id per name of :data:`AMOUNT_SIZES`: that size of the seat's legal range *now*
    (:meth:`State.amount_sizes`). Where two sizes name the same amount only the first is
    legal, so the legal ids of a state are different actions.

    >>> from cardhall.registry import make_game
    >>> game = make_game("getha", 3)
    >>> space = ActionSpace(game)
    >>> space.size, space.name(307)
    (318, 'bringin half_pot')
    >>> state = game.new_state(seed=4)  # antes: 3 chips in the pot
    >>> {i: str(a) for i, a in space.legal(state, 0).items()}
    {306: 'bringin 1', 308: 'bringin 3', 309: 'bringin 49'}
    """

    def __init__(self, game: Game) -> None:
        self.game = game
        self.plain = _plain_ids(game)
        self.kinds = game.amount_kinds
        self.size = self.plain + len(self.kinds) * len(AMOUNT_SIZES)
        #: The id of each plain action met so far (a game's plain actions are finitely
        #: many: one per id), so that listing the legal ids costs a look-up per action.
        self._ids: dict[Legal, int] = {}
        #: Lists of plain actions met lately, with their ids, by length, first and last
        #: action (the objects: kept alive here, so their ids name them): a game often lists
        #: the same actions again (Getha's 255 discards, its selections of each set of suits
        #: held), and comparing a list of the same objects costs less than looking each one up.
        self._last: dict[tuple[int, int, int], tuple[list[Legal], list[int]]] = {}

    def name(self, action_id: int) -> str:
        """A text for an id that needs no state: the notation of a plain action, or the
        kind and size of an amount (``"bet half_pot"``)."""
        if 0 <= action_id < self.plain:
            return str(self.game.action_from_id(action_id))
        if self.plain <= action_id < self.size:
            k, i = divmod(action_id - self.plain, len(AMOUNT_SIZES))
            return f"{self.kinds[k]} {AMOUNT_SIZES[i]}"
        return f"action {action_id}"

    def legal(self, state: State, seat: int) -> dict[int, Action]:
        """The legal ids of ``seat`` and their actions, in ascending id order."""
        ids, actions = self.legal_ids(state, seat)
        return dict(sorted(zip(ids, actions, strict=True)))

    def legal_ids(self, state: State, seat: int) -> tuple[list[int], list[Action]]:
        """The legal ids of ``seat`` and their actions, in the order of the game's legal
        list (:meth:`legal` sorts them): what an action mask needs, at less cost. The same
        actions listed again give the same list of ids (the same object: do not change it)."""
        legal = state.legal_actions(seat)
        key = (len(legal), id(legal[0]), id(legal[-1])) if legal else (0, 0, 0)
        last = self._last.get(key)
        if last is not None and last[0] == legal:  # the same list as lately (same objects)
            return last[1], cast(list[Action], legal)
        known = self._ids
        found: list[int] = []
        for entry in legal:
            if type(entry) is AmountRange:
                break
            got = known.get(entry)  # None: not met yet
            if got is None:
                break
            found.append(got)
        else:  # plain actions met before: the usual case
            if len(self._last) >= _KEPT_LISTS:
                self._last.clear()
            self._last[key] = (legal.copy(), found)
            return found, cast(list[Action], legal)
        out: dict[int, Action] = {}
        for entry in legal:
            if isinstance(entry, AmountRange):
                k = self.kinds.index(entry.kind)
                sizes = state.amount_sizes(seat, entry)
                seen: set[int] = set()
                for i, size in enumerate(AMOUNT_SIZES):
                    amount = sizes.get(size)
                    if amount is not None and amount not in seen and amount in entry:
                        seen.add(amount)
                        # the named tuple made from its fields (its own __new__ is Python)
                        out[self.plain + k * len(AMOUNT_SIZES) + i] = tuple.__new__(
                            Action, (entry.kind, amount)
                        )
            else:
                got = known.get(entry)
                if got is None:
                    got = known[entry] = self.game.action_id(entry)
                out[got] = entry
        return list(out), list(out.values())

    def action(self, state: State, seat: int, action_id: int) -> Action:
        """The action an id stands for in ``state`` (an amount id: that size of the seat's
        legal range now). Raises :class:`IllegalActionError` for an id that names no
        action here."""
        if not 0 <= action_id < self.size:
            raise IllegalActionError(seat, action_id, f"no such action id (0..{self.size - 1})")
        if action_id < self.plain:
            return self.game.action_from_id(action_id)
        action = self.legal(state, seat).get(action_id)
        if action is None:
            raise IllegalActionError(seat, action_id, f"{self.name(action_id)} is not legal now")
        return action


def _plain_ids(game: Game) -> int:
    try:
        return game.num_distinct_actions
    except NotImplementedError:
        return 0
