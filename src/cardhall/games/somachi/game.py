"""The game of Somachi: its options (with their rulings), the players it takes, the
configurations the conformance suite plays, and the fixed ids of its actions.

The rules themselves run in :class:`~cardhall.games.somachi.state.SomachiState` and the
modules beside it (see the package docstring).
"""

from __future__ import annotations

from cardhall.cards import ALAK, RailogCard
from cardhall.engine import Action, Chance, Game, OptionSpec, arg_card, arg_int
from cardhall.errors import NotationError, OptionError
from cardhall.games.somachi.actions import (
    ADD_A,
    ATTACK_A,
    BASE_ADD,
    BASE_ATTACK,
    BASE_COLLECT,
    BASE_DISCARD,
    BASE_OPEN,
    BASE_PLAY,
    CARD_OF,
    COLLECT_A,
    DISCARD_A,
    NUM_IDS,
    OPEN_A,
    PLAY_A,
    RANK,
    SIMPLE,
    SIMPLE_ID,
    SUIT_INDEX,
    TARGET_POINTS,
    arg_add,
    arg_attack,
)
from cardhall.games.somachi.state import SomachiState
from cardhall.registry import register


class Somachi(Game):
    name = "somachi"
    title = "Somachi"
    player_counts = (2, 3, 4, 5, 6, 7, 8)
    card_type = RailogCard
    amount_kinds = ("bet", "raise", "challenge")
    #: Records of format version 1 were played before S-40 and S-41.
    legacy_options = {1: {"stay_in_order": "turn", "gambling_winner": "chips"}}
    option_specs = (
        OptionSpec(
            "all_cards_count",
            False,
            "every face card on the table scores 8, not only the alak",
            label="All face cards count",
        ),
        OptionSpec(
            "thousand_points",
            False,
            f"play hands until a tally reaches {TARGET_POINTS} (888 octal)",
            label="Play to 888",
        ),
        OptionSpec(
            "any_face_opens",
            False,
            "any face card may open a pile that takes adds",
            label="Any face opens",
        ),
        OptionSpec(
            "seed_discard",
            False,
            "turn the deck's top card onto the discard pile after the "
            "opening round and after every reshuffle (which then uses the whole pile)",
            label="Seed the discard pile",
        ),
        OptionSpec(
            "gambling",
            False,
            "play for chips: bring-in, stay-in bets, challenges, folding",
            label="Play for chips",
        ),
        OptionSpec(
            "chips", 100, "starting chips per seat when gambling", minimum=1, label="Starting chips"
        ),
        OptionSpec(
            "collect_to",
            "hand",
            "where an arl's takings go",
            choices=("hand", "pile"),
            label="Arl's takings go to",
            choice_labels=(("hand", "the hand"), ("pile", "the pile")),
        ),
        OptionSpec(
            "arl_tableau_collect",
            True,
            "an arl may later collect its suit from other tableaus",
            label="Arl collects from tableaus",
        ),
        OptionSpec(
            "bring_in_binds_earlier",
            True,
            "seats that stood before the bring-in must still pay it",
            label="Bring-in binds earlier seats",
        ),
        OptionSpec(
            "allin_mode",
            "side_pots",
            "all-in: side pots, or one pot for everyone still in",
            choices=("side_pots", "whole_pot"),
            label="All-in",
            choice_labels=(("side_pots", "side pots"), ("whole_pot", "one whole pot")),
        ),
        OptionSpec(
            "stay_in_order",
            "left",
            "who is asked first to match stay-in bets: the left neighbour of the seat whose "
            "turn it is, that seat last (S-40), or that seat first (records before S-40)",
            choices=("left", "turn"),
            label="Stay-in bets are matched from",
            choice_labels=(("left", "the left of the player"), ("turn", "the player")),
        ),
        OptionSpec(
            "gambling_winner",
            "tally",
            "with gambling, who wins the game: the highest tally (S-41), or the most chips "
            "(records before S-41)",
            choices=("tally", "chips"),
            label="With chips, the winner has",
            choice_labels=(("tally", "the highest tally"), ("chips", "the most chips")),
        ),
        OptionSpec(
            "challenge_stack",
            True,
            "each declined challenge doubles again (else at most x2)",
            label="Challenges stack",
        ),
        OptionSpec(
            "clear_discard_between_hands",
            True,
            "the discard pile is removed after each hand",
            label="Clear the discards between hands",
        ),
        OptionSpec(
            "hands_per_game",
            None,
            "hands in a game (default: one per seat)",
            minimum=1,
            nullable=True,
            label="Hands",
        ),
        OptionSpec(
            "max_turns_per_hand",
            1000,
            "engine safety limit: a hand stops and is scored after "
            "this many regular turns (not a rule)",
            minimum=1,
            label="Turn limit per hand",
        ),
    )
    action_args = {
        "draw": None,
        "take": None,
        "stand": None,
        "pass": None,
        "claim": None,
        "check": None,
        "pay": None,
        "fold": None,
        "meet": None,
        "decline": None,
        "defend": None,
        "open": arg_card(RailogCard),
        "play": arg_card(RailogCard),
        "discard": arg_card(RailogCard),
        "collect": arg_card(RailogCard),
        "attack": arg_attack,
        "add": arg_add,
        "bet": arg_int,
        "raise": arg_int,
        "challenge": arg_int,
    }
    # Kept short (one or two hands, a low turn cap) because the deep conformance checks
    # cost grows with the square of a game's length; full-length games are played by
    # tests/test_somachi.py and the benchmarks.
    conformance_configs = (
        (2, {"hands_per_game": 2, "max_turns_per_hand": 5}),
        (2, {"gambling": True, "chips": 4, "hands_per_game": 2, "max_turns_per_hand": 5}),
        (
            3,
            {
                "max_turns_per_hand": 5,
                "hands_per_game": 1,
                "all_cards_count": True,
                "seed_discard": True,
            },
        ),
        (
            4,
            {
                "gambling": True,
                "chips": 3,
                "hands_per_game": 1,
                "max_turns_per_hand": 4,
                "allin_mode": "whole_pot",
                "challenge_stack": False,
            },
        ),
        (
            5,
            {
                "hands_per_game": 1,
                "max_turns_per_hand": 4,
                "any_face_opens": True,
                "collect_to": "pile",
                "clear_discard_between_hands": False,
            },
        ),
        (
            6,
            {
                "gambling": True,
                "chips": 3,
                "hands_per_game": 1,
                "max_turns_per_hand": 3,
                "bring_in_binds_earlier": False,
                "any_face_opens": True,
            },
        ),
        (
            7,
            {
                "hands_per_game": 1,
                "max_turns_per_hand": 3,
                "arl_tableau_collect": False,
                "seed_discard": True,
            },
        ),
        (
            8,
            {
                "gambling": True,
                "chips": 2,
                "hands_per_game": 1,
                "max_turns_per_hand": 3,
                "collect_to": "pile",
                "all_cards_count": True,
            },
        ),
    )
    conformance_weight = 40

    n_hands: int
    # The options as the states read them, read once per game (a state copies them).
    acc: bool
    thousand: bool
    afo: bool
    seed_discard: bool
    gambling: bool
    to_pile: bool
    w2: bool
    binds_earlier: bool
    stack: bool
    clear_discard: bool
    max_turns: int
    chips: int
    allin_mode: str

    def _check_options(self) -> None:
        o = self.options
        if o["hands_per_game"] is None:
            self.n_hands = self.players
        else:
            self.n_hands = int(o["hands_per_game"])
        if o["gambling"] and o["chips"] < 1:
            raise OptionError("somachi: chips must be >= 1 when gambling")
        self.acc = bool(o["all_cards_count"])
        self.thousand = bool(o["thousand_points"])
        self.afo = bool(o["any_face_opens"])
        self.seed_discard = bool(o["seed_discard"])
        self.gambling = bool(o["gambling"])
        self.to_pile = o["collect_to"] == "pile"
        self.w2 = bool(o["arl_tableau_collect"])
        self.binds_earlier = bool(o["bring_in_binds_earlier"])
        self.stack = bool(o["challenge_stack"])
        self.clear_discard = bool(o["clear_discard_between_hands"])
        self.max_turns = int(o["max_turns_per_hand"])
        self.chips = int(o["chips"])
        self.allin_mode = str(o["allin_mode"])

    def _initial_state(self, chance: Chance) -> SomachiState:
        return SomachiState(self, chance)

    @property
    def num_distinct_actions(self) -> int:
        return NUM_IDS

    def action_id(self, action: Action) -> int:
        kind, arg = action
        if kind in SIMPLE_ID:
            return SIMPLE_ID[kind]
        if kind == "open":
            return BASE_OPEN + int(arg)
        if kind == "play":
            return BASE_PLAY + int(arg)
        if kind == "discard":
            return BASE_DISCARD + int(arg)
        if kind == "collect":
            return BASE_COLLECT + SUIT_INDEX[arg]
        if kind == "attack":
            return BASE_ATTACK + SUIT_INDEX[arg[0]] * 8 + int(arg[1])
        if kind == "add":
            n, f = int(arg[0]), int(arg[1])
            return BASE_ADD + SUIT_INDEX[n] * 32 + (RANK[n] - 1) * 4 + (RANK[f] - ALAK)
        if kind in self.amount_kinds:
            raise NotationError(f"{action} has no fixed id (amounts are ranges: see amount_sizes)")
        raise NotationError(f"not a somachi action: {action!r}")

    def action_from_id(self, action_id: int) -> Action:
        i = action_id
        if not 0 <= i < NUM_IDS:
            raise NotationError(f"no somachi action has id {action_id}")
        if i < BASE_OPEN:
            return SIMPLE[i]
        if i < BASE_PLAY:
            return OPEN_A[i - BASE_OPEN]
        if i < BASE_DISCARD:
            return PLAY_A[i - BASE_PLAY]
        if i < BASE_COLLECT:
            return DISCARD_A[i - BASE_DISCARD]
        if i < BASE_ATTACK:
            return COLLECT_A[i - BASE_COLLECT]
        if i < BASE_ADD:
            s, t = divmod(i - BASE_ATTACK, 8)
            return ATTACK_A[s][t]
        s, rest = divmod(i - BASE_ADD, 32)
        n, f = divmod(rest, 4)
        return ADD_A[CARD_OF[s][n + 1]][f]


# A call, not a decorator: mypyc compiles only undecorated classes natively.
register(Somachi)
