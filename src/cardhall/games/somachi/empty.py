"""The shared empty list of cards (:data:`~cardhall.games.somachi.actions.NO_CARDS`), in a
module of its own that stays interpreted: its class subclasses ``list``, which a compiled
module cannot."""

from __future__ import annotations

from typing import Any


class NoCards(list[Any]):
    """An empty list that every state shares and none changes; pickled (and deep-copied)
    as a reference to the one instance, so that a state unpickled still shares it (a
    pickle would otherwise make one new list of the several places that held it, and a
    card put in one of them would appear in all).

    >>> import pickle
    >>> pickle.loads(pickle.dumps(NO_CARDS)) is NO_CARDS, NO_CARDS == []
    (True, True)
    """

    __slots__ = ()

    def __reduce__(self) -> str | tuple[Any, ...]:
        return "NO_CARDS"

    def _refuse(self, *args: Any, **kwargs: Any) -> Any:
        """Every way to change a list raises here: a card put into the shared list would
        appear in every state. The Python rules (and the tests, which run them) call these
        methods; compiled code changes a list natively, and ``check_invariants`` catches
        that.

        >>> NO_CARDS.append(1)
        Traceback (most recent call last):
        ...
        TypeError: NO_CARDS is shared by every state: give the seat its own list first
        """
        raise TypeError("NO_CARDS is shared by every state: give the seat its own list first")

    append = extend = insert = remove = pop = clear = sort = reverse = _refuse
    __setitem__ = __delitem__ = __iadd__ = __imul__ = _refuse


NO_CARDS = NoCards()
