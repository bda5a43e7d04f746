"""Somachi bots.

* ``random`` (overrides the generic one for Somachi): uniform among the legal actions,
  except that all the amounts of one kind (``bet k``, ``raise k``, ``challenge k``) count as
  one choice, made with a small amount (1 to 3 chips). Without that, the hundred amounts a
  seat may name would drown every other action.
* ``heuristic``: a hand-written policy. It opens an alak (else an arl), takes the discard
  only when it fits one of its own piles, claims and collects whatever its arls may take,
  adds numbers to its own piles, plays alaks at once and arls when the sweep gains cards,
  attacks the richest suit on another table, keeps a deiskatun in hand for defence (and
  defends whenever it can), discards its least useful card (never one an opponent's arl may
  claim if it can help it), and adds to other seats' piles or empties its hand only when it
  leads the hand. When gambling it bets small when it leads, pays small amounts, meets
  challenges only when it is not behind, and challenges when it leads clearly.

* ISMCTS knowledge (bottom of the module, see ``docs/bots.md``): a playout policy
  (:func:`search_playout`), tree actions (:func:`search_tree_actions`), an evaluator after
  20 playout actions (:func:`search_evaluator`) and silenced search worlds.

Honesty: the heuristic decides from its legal actions and its seat's
:class:`~cardhall.games.somachi.SomachiObservation` (the pending decision, its own hand,
the tableaus, the whole discard pile, the arl owners and the chip counts); it samples no
world. The bot tests check that its choices do not change when the hidden cards are dealt
otherwise.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from operator import itemgetter
from typing import cast

from cardhall.bots import Bot, register_bot
from cardhall.bots.ismcts import SearchKnowledge, provisional, register_search
from cardhall.cards import ALAK, ARL, ARLAS, DEISKATUN, RailogCard
from cardhall.engine import (
    Action,
    AmountRange,
    Legal,
    Observation,
    Outcome,
    Sampler,
    State,
    legal_at,
    legal_count,
)
from cardhall.games.somachi import (
    CHECK,
    CLAIM,
    DECLINE,
    DEFEND,
    DRAW,
    FOLD,
    K_BRINGIN,
    K_CHAL,
    K_DRAW,
    K_MAIN,
    K_OPEN,
    K_OWE,
    K_RAISE,
    K_STAY,
    K_W1,
    K_W2,
    MEET,
    NEED_NAMES,
    PASS,
    PAY,
    STAND,
    TAKE,
    SomachiObservation,
    SomachiState,
    tableau_score,
)
from cardhall.games.somachi.actions import CARD_OF, RANK, SUIT_INDEX

__all__ = ["SomachiHeuristicBot", "SomachiRandomBot"]


def _count_numbers_of_suit(cards: Sequence[RailogCard], suit: int) -> int:
    """How many number cards of ``suit`` are among ``cards``."""
    return sum(1 for d in cards if RANK[d] <= 8 and SUIT_INDEX[d] == suit)


def _attack_value(pile: Sequence[RailogCard], suit: int) -> int:
    """What an attack of ``suit`` on ``pile`` takes: numbers at face value, an alak 8."""
    return sum(
        RANK[d] if RANK[d] <= 8 else 8 if RANK[d] == ALAK else 0
        for d in pile
        if SUIT_INDEX[d] == suit
    )


@register_bot("somachi", "random")
class SomachiRandomBot(Bot):
    """Uniform over the legal actions, with each kind of amount counted once (small)."""

    level = "random"

    def decide(self, observation: Observation, legal: Sequence[Legal], sampler: Sampler) -> Action:
        if not legal:
            raise ValueError(f"seat {sampler.seat} has no legal action")
        # each range is one choice; then one of its three smallest amounts
        pick = self.rng.choice(legal)
        if isinstance(pick, AmountRange):
            return pick.at(self.rng.randrange(min(3, len(pick))))
        return pick


def _plain(legal: list[Legal]) -> list[Action]:
    """A legal list of a decision that names no amount (every entry is an action)."""
    return cast(list[Action], legal)


#: A pending decision's name -> its ``K_*`` kind.
_KIND = {name: kind for kind, name in enumerate(NEED_NAMES)}


def _flat(piles: Sequence[Sequence[RailogCard]]) -> list[RailogCard]:
    """A tableau's cards (its piles one after another)."""
    return [c for pile in piles for c in pile]


@register_bot("somachi", "heuristic")
class SomachiHeuristicBot(Bot):
    """The hand-written Somachi policy described in the module docstring."""

    level = "heuristic"

    def decide(self, observation: Observation, legal: Sequence[Legal], sampler: Sampler) -> Action:
        seat = sampler.seat
        if not legal:
            raise ValueError(f"seat {seat} has no legal action")
        legal = list(legal)
        obs = observation
        assert isinstance(obs, SomachiObservation) and obs.pending is not None
        kind = _KIND[obs.pending.kind]
        if kind in (K_BRINGIN, K_RAISE, K_STAY, K_OWE, K_CHAL):
            return self._money(obs, seat, kind, legal)
        plain = _plain(legal)
        if kind == K_OPEN:
            return self._open(obs, plain)
        if kind == K_DRAW:
            return self._draw(obs, plain)
        if kind == K_MAIN:
            return self._main(obs, seat, legal)
        if kind == K_W1:
            return CLAIM
        if kind == K_W2:
            return plain[0]
        return DEFEND if DEFEND in legal else PASS  # K_W3

    # -- helpers ---------------------------------------------------------------------

    def _lead(self, obs: SomachiObservation, seat: int) -> int:
        """My tableau score minus the best other active seat's."""
        acc = bool(obs.options["all_cards_count"])
        scores = [tableau_score(_flat(t), acc) for t in obs.tableaus]
        others = [scores[s] for s in range(obs.players) if s != seat and obs.active[s]]
        return scores[seat] - max(others, default=0)

    def _my_piles(self, obs: SomachiObservation, seat: int) -> set[int]:
        """Suits of the piles in my tableau that take adds."""
        afo = bool(obs.options["any_face_opens"])
        return {
            SUIT_INDEX[face]
            for face, *_numbers in obs.tableaus[seat]
            if RANK[face] in (ALAK, ARL) or afo
        }

    # -- decisions -------------------------------------------------------------------

    def _open(self, obs: SomachiObservation, legal: list[Action]) -> Action:
        assert obs.hand is not None
        counts = [0] * 8
        for c in obs.hand:
            if RANK[c] <= 8:
                counts[SUIT_INDEX[c]] += 1
        best: Action = STAND
        best_v = -1.0
        for a in legal:
            if a.kind != "open":
                continue
            c = a.arg
            r = RANK[c]
            if r == ALAK:
                v = 10.0 + counts[SUIT_INDEX[c]]
            elif r == ARL:
                v = 5.0 + counts[SUIT_INDEX[c]]
            else:
                continue  # keep a deiskatun (defence) and an arlas (attack) in hand
            if v > best_v:
                best, best_v = a, v
        return best

    def _draw(self, obs: SomachiObservation, legal: list[Action]) -> Action:
        seat = obs.seat
        assert seat is not None
        if TAKE in legal and obs.discard:
            top = obs.discard[-1]
            r = RANK[top]
            if r <= 8 and SUIT_INDEX[top] in self._my_piles(obs, seat) and r >= 3:
                return TAKE
            if r == ALAK or (r == ARL and obs.arl_owner[SUIT_INDEX[top]] is None):
                return TAKE
        return DRAW if DRAW in legal else legal[0]

    def _main(self, obs: SomachiObservation, seat: int, everything: list[Legal]) -> Action:
        legal = [a for a in everything if isinstance(a, Action)]
        if CLAIM in legal:
            return CLAIM
        for a in legal:
            if a.kind == "collect":
                return a
        hand = obs.hand
        assert hand is not None
        lead = self._lead(obs, seat)
        mine = self._my_piles(obs, seat)
        adds = [a for a in legal if a.kind == "add"]
        my_faces = {pile[0] for pile in obs.tableaus[seat]}
        own_adds = [a for a in adds if a.arg[1] in my_faces]
        if own_adds:
            # the highest number first; never the add that empties the hand while behind
            own_adds.sort(key=lambda a: -RANK[a.arg[0]])
            for a in own_adds:
                if len(hand) > 1 or lead + RANK[a.arg[0]] >= 0:
                    return a
        if lead > 0 and adds and len(hand) <= 3:
            # racing to go out while ahead: dump numbers on other piles
            return min(adds, key=lambda a: RANK[a.arg[0]])
        if obs.chips is not None and lead >= 15:
            for entry in everything:
                if isinstance(entry, AmountRange):  # the challenge
                    return entry.first
        # the finishing action
        plays = {a.arg: a for a in legal if a.kind == "play"}
        for c, a in plays.items():
            if RANK[c] == ALAK:
                return a
        for c, a in plays.items():
            if RANK[c] == ARL:
                gain = self._sweep_gain(obs, seat, SUIT_INDEX[c])
                held = _count_numbers_of_suit(hand, SUIT_INDEX[c])
                if gain > 0 or held >= 2:
                    return a
        best_attack: Action | None = None
        best_v = 0
        for a in legal:
            if a.kind == "attack":
                c, target = a.arg
                v = _attack_value(_flat(obs.tableaus[target]), SUIT_INDEX[c])
                if v > best_v:
                    best_attack, best_v = a, v
        if best_attack is not None and best_v >= 8:
            return best_attack
        discards = [a for a in legal if a.kind == "discard"]
        if discards:
            # The first discard of least keep value (as min() with a key would choose).
            best = discards[0]
            best_keep = self._keep_value(obs, seat, best.arg, mine)
            for a in discards[1:]:
                keep = self._keep_value(obs, seat, a.arg, mine)
                if keep < best_keep:
                    best, best_keep = a, keep
            return best
        if plays:  # nothing to discard (only the taken card is left): play a face
            return next(iter(plays.values()))
        return legal_at(everything, legal_count(everything) - 1)

    def _sweep_gain(self, obs: SomachiObservation, seat: int, x: int) -> int:
        gain = 0
        for s, piles in enumerate(obs.tableaus):
            if s != seat:
                gain += sum(1 for pile in piles for d in pile if SUIT_INDEX[d] == x)
        for d in reversed(obs.discard):
            if SUIT_INDEX[d] != x:
                break
            gain += 1
        return gain

    def _keep_value(self, obs: SomachiObservation, seat: int, c: int, mine: set[int]) -> float:
        """How much we want to keep card ``c`` (the lowest is discarded)."""
        r = RANK[c]
        x = SUIT_INDEX[c]
        if r == DEISKATUN:
            return 50.0
        if r in (ALAK, ARL):
            return 40.0
        if r == ARLAS:
            return 20.0
        value = float(r)
        if x in mine:
            value += 15.0
        owner = obs.arl_owner[x]
        if owner is not None and owner != seat:
            value += 10.0  # a discard its arl could claim
        return value

    def _money(self, obs: SomachiObservation, seat: int, kind: int, legal: list[Legal]) -> Action:
        chips, pending = obs.chips, obs.pending
        assert chips is not None and pending is not None
        stack = chips[seat]
        lead = self._lead(obs, seat)
        if kind == K_OWE:
            assert pending.amount is not None
            if pending.amount <= max(2, stack // 3) or lead >= 0:
                return PAY
            return FOLD
        if kind == K_CHAL:
            assert pending.amount is not None
            return MEET if lead >= 0 and pending.amount <= max(2, stack // 2) else DECLINE
        if kind in (K_BRINGIN, K_STAY) and lead > 0 and stack > 4:
            return legal_at(legal, 0)  # bet 1
        return CHECK  # K_BRINGIN, K_STAY, K_RAISE


# --------------------------------------------------------------------------- ISMCTS knowledge


def search_evaluator(world: State, root: State) -> Outcome | None:
    """ISMCTS evaluator: the tallies so far plus what each active tableau would score now
    (the hand's multiplier included); with chips, the stacks. Reads the sampled world."""
    assert isinstance(world, SomachiState)
    if world.money is not None:
        return None if world.is_over else provisional([float(c) for c in world.money.stacks])
    mult = world.multiplier()
    acc = world.acc
    return provisional(
        [
            float(t + (tableau_score(tab, acc) * mult if active else 0))
            for t, tab, active in zip(world.tallies, world.tab, world.active, strict=True)
        ]
    )


#: Spread of the random noise added to the playout policy's action values.
_NOISE = 4.0


def _lead_of(world: SomachiState, seat: int) -> int:
    """``seat``'s tableau points minus the best other active seat's (multiplier aside)."""
    acc = world.acc
    mine = 0
    best = 0
    active = world.active
    for s, t in enumerate(world.tab):
        v = tableau_score(t, acc)
        if s == seat:
            mine = v
        elif active[s] and v > best:
            best = v
    return mine - best


def search_playout(
    world: State, actor: int, legal: list[Legal], rnd: Callable[[], float]
) -> Action:
    """ISMCTS playout policy: a cheap, slightly noisy cousin of the heuristic bot.

    Claims and collects whatever it may, takes the discard only when it fits one of its
    own piles (or is an alak, or an unowned arl), opens an alak before an arl, adds its
    numbers to its own piles, plays alaks and arls, attacks a suit worth 8 or more, and
    otherwise discards its least useful card; it adds to other seats' piles only to go out
    while ahead, never challenges, and checks, pays and meets when gambling. It reads only
    ``actor``'s hand and public facts of the sampled ``world``.
    """
    assert isinstance(world, SomachiState)
    need = world.need
    assert need is not None
    kind = need[0]
    if kind == K_MAIN:
        return _playout_main(world, actor, legal, rnd)
    if kind == K_CHAL:
        return MEET if _lead_of(world, actor) >= 0 else DECLINE
    if kind in (K_BRINGIN, K_RAISE, K_STAY):
        return CHECK
    plain = _plain(legal)  # the other decisions name no amounts
    if kind == K_DRAW:
        if len(plain) == 2:  # draw or take
            top = world.discard[-1]
            r = RANK[top]
            x = SUIT_INDEX[top]
            if r <= 8:
                if r >= 3:
                    loc = world.loc
                    row = CARD_OF[x]
                    if loc[row[ALAK]] == actor or loc[row[ARL]] == actor:
                        return TAKE
            elif r == ALAK or (r == ARL and world.arl_owner[x] < 0):
                return TAKE
        return plain[0]  # draw (or the only choice)
    if kind == K_OPEN:
        best = plain[-1]  # stand
        for a in plain:
            r = RANK[a.arg] if a.kind == "open" else 0
            if r == ALAK:
                return a
            if r == ARL and best is plain[-1]:
                best = a
        return best
    return plain[0]  # K_W1, K_W2, K_W3, K_OWE: claim, collect, defend (when held), pay


def _playout_main(
    world: SomachiState,
    actor: int,
    legal: list[Legal],
    rnd: Callable[[], float],
    scored: list[tuple[float, Action]] | None = None,
) -> Action:
    """The policy's turn decision; with ``scored``, also lists every action's value there
    (noise-free, challenges left out)."""
    loc = world.loc
    hand = world.hands[actor]
    short = len(hand) <= 3
    lead: int | None = None
    owner = world.arl_owner
    last = legal[-1]
    best = last if isinstance(last, Action) else last.last
    best_v = -1000.0
    # the card tables as locals (the compiled build reads a global from a dict)
    rank = RANK
    suit_of = SUIT_INDEX
    card_of = CARD_OF
    noise = _NOISE
    for a in legal:
        if isinstance(a, AmountRange):  # a challenge: the policy never challenges
            continue
        k = a.kind
        if k == "add":
            c, f = a.arg
            r = rank[c]
            if loc[f] == actor:
                if len(hand) == 1:  # going out: only when that leaves us ahead
                    if lead is None:
                        lead = _lead_of(world, actor)
                    v = 60.0 + r if lead + r >= 0 else -50.0
                else:
                    v = 60.0 + r
            elif short:
                if lead is None:
                    lead = _lead_of(world, actor)
                v = 30.0 - r if lead > 0 else -40.0 - r
            else:
                v = -40.0 - r
        elif k == "discard":
            c = a.arg
            r = rank[c]
            if r <= 8:
                row = card_of[suit_of[c]]
                v = 20.0 - r
                if loc[row[ALAK]] == actor or loc[row[ARL]] == actor:
                    v -= 15.0
                o = owner[suit_of[c]]
                if o >= 0 and o != actor:
                    v -= 10.0  # its arl would claim it
            elif r == DEISKATUN:
                v = -30.0
            elif r == ARLAS:
                v = 0.0
            else:
                v = -20.0
        elif k == "play":
            r = rank[a.arg]
            v = 45.0 if r == ALAK else 35.0 if r == ARL else -35.0 if r == DEISKATUN else -10.0
        elif k == "attack":
            c, target = a.arg
            x = suit_of[c]
            worth = 0
            for d in world.tab[target]:
                if suit_of[d] == x:
                    r = rank[d]
                    worth += r if r <= 8 else 8 if r == ALAK else 0
            v = 30.0 + worth if worth >= 8 else -5.0
        else:  # claim or collect
            if scored is None:
                return a
            v = 100.0
        if scored is not None:
            scored.append((v, a))
            continue
        v += rnd() * noise
        if v > best_v:
            best_v = v
            best = a
    return best


#: How many of its own turn actions the searching seat's tree considers.
TREE_WIDTH = 4


def _no_noise() -> float:
    return 0.0


def search_tree_actions(world: State, actor: int, legal: list[Legal], seat: int) -> list[Legal]:
    """The actions the ISMCTS tree considers.

    The other seats are modelled by the playout policy without its noise (one action,
    chosen from their cards in the sampled world), so the tree branches on the searching
    seat's own choices only. During its turn the searching seat considers the
    :data:`TREE_WIDTH` actions the policy values most (never a challenge): the search
    then refines the policy instead of spreading a small budget over every add and
    discard. What remains depends only on that seat's hand and the table, which every
    sampled world shares.
    """
    if actor != seat:
        return [search_playout(world, actor, legal, _no_noise)]
    assert isinstance(world, SomachiState)
    need = world.need
    if need is None or need[0] != K_MAIN or legal_count(legal) <= TREE_WIDTH:
        return legal
    scored: list[tuple[float, Action]] = []
    _playout_main(world, actor, legal, _no_noise, scored)
    if not scored:
        return legal
    scored.sort(key=itemgetter(0), reverse=True)  # stable: the legal order breaks ties
    top = {id(a) for _, a in scored[:TREE_WIDTH]}  # the very objects of ``legal``
    return [a for a in legal if id(a) in top]


register_search(
    "somachi",
    SearchKnowledge(
        iterations=600,  # the measured budget: 0.785 against the heuristic, 0.28 s a move
        policy=search_playout,
        evaluator=search_evaluator,
        horizon=20,
        tree_actions=search_tree_actions,
        prepare=State.silence,  # nobody reads a sampled world's events
    ),
)
