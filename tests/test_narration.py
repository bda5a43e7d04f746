"""The narration of every game, against seeded playouts across each game's configs: every
event has a sentence in the game's words (no field names, Python values or seats counted
from 0), no seat is told about a card it may not see, every hand has its summary and the
end its score table, every seat being asked gets a prompt, and a feed told from the start
of its hand reads as when told from the beginning (what the web server relies on)."""

from __future__ import annotations

import json
import random
import re
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cardhall.cards import SuitNames
from cardhall.conformance import configs
from cardhall.engine import AmountRange, Game, State, choose_uniform
from cardhall.narration import (
    Context,
    amount_labels,
    annotate,
    board,
    context_start,
    describe,
    hand_summaries,
    labels,
    narrate,
    prompt,
    score_table,
    status,
    story,
)
from cardhall.narration.common import default_names
from cardhall.registry import game_class, game_names, make_game

NAMES = ("Ann", "Bob", "Cy", "Dee", "Eve", "Fay", "Gus", "Hal")
#: Longer games than the conformance configs, so that rarer events occur.
EXTRA: dict[str, list[tuple[int, dict[str, Any]]]] = {
    "abstrac": [],
    "getha": [(3, {"chips": 20, "max_deals": 8}), (4, {"chips": 6, "allin_mode": "whole_pot"})],
    "somachi": [
        (3, {"gambling": True, "chips": 20, "hands_per_game": 2}),
        (4, {"hands_per_game": 1}),
        (2, {"gambling": True, "chips": 30, "hands_per_game": 2, "seed_discard": True}),
    ],
    "yamiro": [(2, {"must_have_winner": True}), (1, {"must_have_winner": True})],
}

#: Words that are field names or identifiers, never English.
RAW = re.compile(
    r"_|\b(True|False|None|null|undefined|NaN|bringin|allin|seq|kind)\b|[{}\[\]]|\[object|\bS0\b"
    r"|\b(?:[1-8]|alak|arl|deiskatun|arlas)/S[1-8]\b"  # a card's notation
)
#: "you" with a verb in the third person ("you folds").
YOU_AGREES = re.compile(r"\byou (?!pass\b|miss\b)[a-z]+[^s]s\b|\byou (is|has|was|does|goes)\b")
#: A Railog card as the narration names it (plain suit names): "alak of S3".
CARD = re.compile(r"\b([1-8]|alak|arl|deiskatun|arlas) of S([1-8])\b")


def game_configs() -> Iterator[tuple[str, int, dict[str, Any]]]:
    for name in game_names():
        for players, options in [*configs(game_class(name)), *EXTRA.get(name, [])]:
            yield name, players, options


CASES = [
    pytest.param(name, players, options, id=f"{name}-{players}-{json.dumps(options)}")
    for name, players, options in game_configs()
]


def check_words(text: str, players: int) -> None:
    assert text.strip() == text and text, repr(text)
    assert not RAW.search(text), f"raw identifier or value in {text!r}"
    assert not YOU_AGREES.search(text), f"'you' with a third-person verb in {text!r}"
    assert "  " not in text and ".." not in text, repr(text)
    assert not re.search(r"\b\d{4,}\b", text), f"a number without separators in {text!r}"
    for line in text.split("\n"):
        assert line[0].isupper() or line[0].isdigit(), f"line starts in lower case: {line!r}"
    for n in re.findall(r"\bseat (\d+)", text, flags=re.IGNORECASE):
        assert 1 <= int(n) <= players, f"seat {n} of {players} in {text!r}"


def play(game: Game, seed: int, each: Any = None) -> State:
    state = game.new_state(seed=seed)
    rng = random.Random(seed)
    if each is not None:
        each(state, None)
    while not state.is_over:
        seat = min(state.actors())
        action = choose_uniform(rng, state.legal_actions(seat))
        state.apply(seat, action)
        if each is not None:
            each(state, seat)
    return state


HIDDEN_ZONES = re.compile(r"(hand|played|reserve|folded|dead|pool)(\d+)$|deck$|pile$|extra\d+$")


def hidden(state: State, seat: int | None) -> set[str]:
    """The cards in places ``seat`` may not look into (other seats' hands, the deck...)."""
    out: set[str] = set()
    for zone, cards in state.zones().items():
        m = HIDDEN_ZONES.match(zone)
        if m and not (m.group(2) is not None and seat is not None and int(m.group(2)) == seat):
            out.update(str(c) for c in cards)
    return out


def contexts(game: Game, viewers: list[int | None]) -> Iterator[Context]:
    names = NAMES[: game.players]
    for i, viewer in enumerate(viewers):
        suits = SuitNames.get("omyr") if i % 2 else SuitNames.default()
        yield Context(game.name, names, suits=suits, viewer=viewer, options=game.options)


@pytest.mark.parametrize(("name", "players", "options"), CASES)
def test_every_event_has_a_sentence_in_the_games_words(
    name: str, players: int, options: dict[str, Any]
) -> None:
    game = make_game(name, players, **options)
    kinds: set[str] = set()
    for seed in range(2):
        state = play(game, seed)
        for ctx in contexts(game, [*range(players), None]):
            feed = state.events_for(ctx.viewer)
            for event, text in zip(feed, narrate(feed, ctx), strict=True):
                assert text, f"no sentence for {event}"
                check_words(text, players)
                kinds.add(event["kind"])
            # seats counted from 1 when only numbers are given
            plain = Context(name, default_names(players), viewer=ctx.viewer, options=game.options)
            for text in narrate(feed, plain):
                assert text is not None
                check_words(text, players)
                assert "Seat 0" not in text and "seat 0" not in text
    assert kinds


@pytest.mark.parametrize(("name", "players", "options"), CASES)
def test_no_sentence_names_a_card_the_seat_may_not_see(
    name: str, players: int, options: dict[str, Any]
) -> None:
    """A card a seat's new sentences name after an action (or the cards of a showdown
    step, or its prompt, status line and button words) is in that seat's view just
    before or just after it (its own hand, the table, the showdown...), or in no place
    hidden from it: never in another seat's hand, played or reserve cards, or the deck."""
    game = make_game(name, players, **options)
    viewers: list[int | None] = [*range(players), None]
    tellers = {
        v: story(Context(name, NAMES[:players], viewer=v, options=game.options)) for v in viewers
    }
    seen = dict.fromkeys(viewers, 0)
    before: dict[int | None, str] = {}
    named = 0

    def each(state: State, _seat: int | None) -> None:
        nonlocal named
        for v in viewers:
            view = state.view(v)
            now = json.dumps(view)
            feed = state.events_for(v)
            secret = hidden(state, v)
            told: list[tuple[str, list[str]]] = []  # a text, and the cards it is about
            for event in feed[seen[v] :]:
                told.append((tellers[v].tell(event) or "", []))
                for step in tellers[v].steps() or []:  # what the web steps through
                    told.append((step["text"], list(step["cards"])))
            # what the seat reads about its own decision: why, the status, the buttons
            ctx = tellers[v].ctx
            for text in [prompt(view, ctx) or "", status(view, ctx), *labels(view, ctx)]:
                told.append((text, []))
            for text, cards in told:
                for card in [f"{rank}/S{suit}" for rank, suit in CARD.findall(text)] + cards:
                    named += 1
                    assert card in before.get(v, "") or card in now or card not in secret, (
                        f"seat {v} is told about {card}, which it may not see: {text!r}"
                    )
            seen[v] = len(feed)
            before[v] = now

    play(game, 3, each)
    if not game.perfect_information and name != "abstrac":
        assert named > 0


@pytest.mark.parametrize(("name", "players", "options"), CASES)
def test_hand_summaries_and_the_score_table(
    name: str, players: int, options: dict[str, Any]
) -> None:
    game = make_game(name, players, **options)
    state = play(game, 1)
    ctx = Context(name, NAMES[:players], viewer=0, options=game.options)
    feed = state.events_for(0)
    summaries = hand_summaries(feed, ctx)
    assert summaries, "a finished game has at least one hand"
    assert [s.number for s in summaries] == list(range(1, len(summaries) + 1))
    for s in summaries:
        assert s.title and s.lines
        for line in s.lines:
            check_words(line, players)
    table = score_table(feed, ctx)
    assert table is not None
    assert len(table.rows) >= len(summaries)
    assert all(len(row) == len(table.columns) for row in table.rows)
    check_words(table.result, players)
    for cell in [*table.columns, *(c for row in table.rows for c in row)]:
        assert not RAW.search(cell), cell
    # before the end there is no score table
    assert score_table(feed[:-1], ctx) is None or name == "abstrac"
    # annotate: the closing events carry their summary, the last one the table
    annotated = annotate(feed, ctx)
    marked = [e["summary"] for e in annotated if "summary" in e]
    assert [m["title"] for m in marked if m["lines"]] == [s.title for s in summaries]
    assert marked[-1]["table"] == table.to_json()
    assert all("text" in e for e in annotated)


@pytest.mark.parametrize(("name", "players", "options"), CASES)
def test_every_seat_being_asked_gets_a_prompt(
    name: str, players: int, options: dict[str, Any]
) -> None:
    game = make_game(name, players, **options)
    asked = 0

    def each(state: State, _seat: int | None) -> None:
        nonlocal asked
        actors = state.actors()
        for seat in range(players):
            view = state.view(seat)
            ctx = Context(name, NAMES[:players], viewer=seat, options=game.options)
            text = prompt(view, ctx)
            if seat in actors:
                asked += 1
                assert text, (
                    f"no prompt for seat {seat} in {view.get('phase') or view.get('pending')}"
                )
                check_words(text, players)
            else:
                assert text is None
        assert (
            prompt(state.view(None), Context(name, NAMES[:players], options=game.options)) is None
        )

    play(game, 2, each)
    assert asked


@pytest.mark.parametrize(("name", "players", "options"), CASES)
def test_a_feed_told_from_the_start_of_its_hand_reads_the_same(
    name: str, players: int, options: dict[str, Any]
) -> None:
    game = make_game(name, players, **options)
    state = play(game, 4)
    kinds = [e.kind for e in state.events]
    rng = random.Random(0)
    for viewer in (0, None):
        ctx = Context(name, NAMES[:players], viewer=viewer, options=game.options)
        feed = state.events_for(viewer)
        full = {e["seq"]: e for e in annotate(feed, ctx)}
        starts = sorted([*rng.sample(range(len(kinds)), min(25, len(kinds))), len(kinds) - 1])
        for start in starts:
            stop = min(len(kinds), start + rng.randint(1, 6))
            begin = context_start(name, kinds, start, stop)
            assert 0 <= begin <= start
            part = [e for e in feed if begin <= e["seq"] < stop]
            skip = sum(1 for e in part if e["seq"] < start)
            for event in annotate(part, ctx, start=skip):
                assert event == full[event["seq"]], (start, begin, event["kind"])


def test_describe_uses_what_came_before() -> None:
    ctx = Context("yamiro", ("Ann", "Bob"), viewer=None)
    hand = {"seq": 0, "kind": "hand", "seat": 0, "hand": 1}
    arlas = {"seq": 1, "kind": "play", "seat": 0, "card": "arlas/S1", "drew": True}
    deis = {"seq": 2, "kind": "play", "seat": 1, "card": "deiskatun/S3", "drew": True}
    assert describe(deis, ctx, [hand, arlas]) == (
        "Bob plays the deiskatun of S3 and draws a card: it cancels Ann's arlas of S1 (play 1)."
    )
    assert describe(deis, ctx, [hand]) == (
        "Bob plays the deiskatun of S3 and draws a card: it will cancel Ann's next arlas."
    )


def test_names_are_made_distinct_and_seats_count_from_one() -> None:
    ctx = Context("getha", ("random bot", "", "random bot"))
    assert ctx.names == ("random bot (seat 1)", "Seat 2", "random bot (seat 3)")
    view = {"game": "getha", "players": 3, "seat": 2, "options": {}}
    assert Context.for_view(view).names == ("Seat 1", "Seat 2", "Seat 3")
    assert Context.for_view(view).viewer == 2


def test_unknown_games_say_nothing() -> None:
    ctx = Context("nosuchgame", ("Ann",))
    assert narrate([{"seq": 0, "kind": "deal", "seat": None}], ctx) == [None]


@pytest.mark.parametrize("name", ["abstrac", "getha", "somachi", "yamiro"])
def test_the_terminal_prints_the_same_sentences(name: str) -> None:
    import io

    from rich.console import Console

    from cardhall.terminal import TerminalGame

    out = io.StringIO()
    options = {"getha": {"chips": 8, "max_deals": 2}, "somachi": {"hands_per_game": 1}}
    game = make_game(name, **options.get(name, {}))
    tg = TerminalGame(
        game,
        bot_level="random",
        seed=2,
        console=Console(file=out, width=2000),
        ask=lambda _prompt: "1",
        seat_names=NAMES[: game.players],
    )
    state = tg.play()
    assert state.is_over
    printed = out.getvalue()
    ctx = Context(name, NAMES[: game.players], viewer=0, options=game.options)
    position = 0
    for text in narrate(state.events_for(0), ctx):
        assert text is not None
        for line in text.split("\n"):
            found = printed.find(f"· {line}\n", position)
            assert found >= 0, f"the terminal did not print {line!r}"
            position = found
    table = score_table(state.events_for(0), ctx)
    assert table is not None and f"Game over. {table.result}" in printed


#: Events of kinds seeded playouts rarely reach, each with the sentence it must get.
RARE = {
    "somachi": [
        (
            {"seq": 1, "kind": "defend", "seat": 1, "card": "deiskatun/S4", "attacker": 0},
            "Bob defends with the deiskatun of S4.",
        ),
        (
            {"seq": 1, "kind": "negated", "seat": 0, "card": "arlas/S4", "target": 1},
            "Bob has the deiskatun of S4 on the table: the arlas of S4 is negated and goes "
            "under the deck.",
        ),
        (
            {"seq": 1, "kind": "no_draw", "seat": 2},
            "Cy has nothing to draw: the deck and the discard pile are empty.",
        ),
        (
            {
                "seq": 1,
                "kind": "removed",
                "seat": 0,
                "target": 1,
                "cards": ["alak/S4", "5/S4"],
                "arlas": "arlas/S4",
            },
            "Bob loses alak of S4 and 5 of S4 from the tableau; they go under the deck with "
            "the arlas of S4.",
        ),
    ],
    "yamiro": [
        (
            {"seq": 1, "kind": "reshuffle", "seat": None, "count": 40},
            "The pile ran out: 40 discards are shuffled into a new pile.",
        ),
    ],
}
#: Event kinds a game emits through a variable rather than a literal.
DYNAMIC = {
    "getha": {"bet", "raise", "allin"},
    "somachi": {"sweep", "claim", "collect", "draw"},
}


@pytest.mark.parametrize("name", ["abstrac", "getha", "somachi", "yamiro"])
def test_every_event_kind_a_game_emits_has_a_sentence(name: str) -> None:
    """Each kind the game's source emits is told: seen in the seeded playouts above, or
    one of the rare ones here (a new kind in a game fails this test until it is told)."""
    import importlib
    import inspect

    source = inspect.getsource(importlib.import_module(game_class(name).__module__))
    emitted = set(re.findall(r'_emit(?:_private)?\(\s*"(\w+)"', source))
    emitted |= set(re.findall(r'Event, \("(\w+)"', source)) | DYNAMIC.get(name, set())
    ctx = Context(name, NAMES[:4], viewer=None)
    for event, said in RARE.get(name, []):
        assert describe(event, ctx) == said
        check_words(said, 4)
    told = {e["kind"] for e, _ in RARE.get(name, [])}
    for players, options in [*configs(game_class(name)), *EXTRA.get(name, [])]:
        game = make_game(name, players, **options)
        for seed in range(2):
            state = play(game, seed)
            feed = state.events_for(None)
            ctx = Context(name, NAMES[:players], options=game.options)
            told |= {e["kind"] for e, t in zip(feed, narrate(feed, ctx), strict=True) if t}
    assert emitted, "no event kinds found in the game's source"
    assert emitted <= told, f"kinds without a sentence: {sorted(emitted - told)}"


@pytest.mark.parametrize(("name", "players", "options"), CASES)
def test_every_view_has_a_status_and_words_for_each_button(
    name: str, players: int, options: dict[str, Any]
) -> None:
    """For every seat and a spectator, after every action: the status says "Your turn"
    (or the game's words) only to a seat being asked, names whom the table waits for to
    the others, "Game over" at the end; each legal entry has its own words."""
    game = make_game(name, players, **options)

    def each(state: State, _seat: int | None) -> None:
        actors = state.actors()
        for viewer in [*range(players), None]:
            view = state.view(viewer)
            ctx = Context(name, NAMES[:players], viewer=viewer, options=game.options)
            text = status(view, ctx)
            if state.is_over:
                assert text == "Game over"
            elif viewer in actors:
                assert not text.startswith("Waiting"), text
                assert text.startswith(("Your ", "Not your turn: ", "You owe ")) or (
                    " challenges you for " in text
                ), text
            else:
                assert text.startswith("Waiting for "), text
                for s in actors:
                    assert NAMES[s] in text
            if text:
                check_words(text, players)
            words = labels(view, ctx)
            assert len(words) == len(view.get("legal") or []) == len(set(words)), words
            for word in words:
                check_words(word, players)
            check_board(view, ctx)

    play(game, 5, each)


def check_board(view: dict[str, Any], ctx: Context) -> None:
    """The words written on the table (``board``) and an amount range's button words: in
    words (as :func:`check_words`, a badge may start in lower case), one entry per seat,
    the amount's place marked once."""
    players = int(view["players"])
    told = board(view, ctx)
    assert len(told["seats"]) == players
    for seat in told["seats"]:
        assert set(seat) == {"stats", "badges", "note", "out"} and isinstance(seat["out"], bool)
        assert all(len(pair) == 2 for pair in seat["stats"])

    def strings(value: Any) -> Iterator[str]:
        if isinstance(value, str):
            yield value
        elif isinstance(value, list | tuple):
            for v in value:
                yield from strings(v)
        elif isinstance(value, dict):
            for v in value.values():
                yield from strings(v)

    for text in strings(told):
        if text:
            check_words(text[0].upper() + text[1:], players)
    for entry, words in zip(view.get("legal") or [], amount_labels(view, ctx), strict=True):
        assert (words is None) == isinstance(entry, str)
        if words is not None:
            assert words["many"].count("{amount}") == 1, words
            check_words(words["many"].replace("{amount}", "250"), players)
            check_words(words["one"], players)


def test_the_table_s_words_per_game() -> None:
    """What the table writes at each seat and in the centre, in each game's words."""
    getha = make_game("getha", 3, max_deals=4)
    state = getha.new_state(seed=2)
    ctx = Context("getha", NAMES[:3], viewer=0, options=getha.options)
    told = board(state.view(0), ctx)
    assert (told["title"], told["phase"]) == ("Deal 1 of 4", "Bring-in")
    assert told["seats"][1] == {
        "stats": [["Stack", "49"], ["In the pot", "1"]],
        "badges": [],
        "note": None,
        "out": False,
    }
    state.apply(0, "bringin 2")
    state.apply(1, "decline")
    told = board(state.view(0), ctx)
    assert told["seats"][1]["note"] == "Folded" and told["seats"][1]["out"]
    assert told["phase"] == "Answering the bring-in" and "bring-in 2" in told["facts"]
    somachi = make_game("somachi", 3, gambling=True, chips=1_000_000, hands_per_game=2)
    told = board(somachi.new_state(seed=1).view(None), Context("somachi", NAMES[:3]))
    assert told["title"] == "Hand 1 of 2"
    assert ["Chips", "1,000,000"] in told["seats"][0]["stats"]
    assert told["piles"]["deck"].startswith("Deck · ")
    partner = make_game("yamiro", 4).new_state(seed=1)
    told = board(partner.view(2), Context("yamiro", NAMES[:4], viewer=2))
    assert [s["members"] for s in told["sides"]] == ["you and Ann", "Bob and Dee"]
    assert told["title"] == "Hand 1 of 4" and told["facts"][0].endswith(" cards in the pile")
    match = make_game("abstrac", match=True, target=300)
    told = board(
        match.new_state(seed=1).view(0), Context("abstrac", NAMES[:2], options=match.options)
    )
    assert told["phase"] == "match to 300"
    assert [p[0] for p in told["seats"][0]["stats"]] == [
        "Cards taken",
        "Combinations",
        "Match total",
    ]


#: Games with amounts in the millions (numbers as people read them: 1,000,000).
BIG = [
    ("getha", 3, {"chips": 1_000_000, "max_deals": 2}),
    ("somachi", 3, {"gambling": True, "chips": 1_000_000, "hands_per_game": 1}),
    ("somachi", 2, {"thousand_points": True}),
]
#: The players of the property test: a seeded random choice, always the first legal entry,
#: always the last (the largest amounts).
POLICIES = ("random", "lowest", "highest")


@settings(
    max_examples=40, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow]
)
@given(
    case=st.sampled_from([*game_configs(), *BIG]),
    seed=st.integers(0, 10**6),
    policy=st.sampled_from(POLICIES),
    viewer_pick=st.integers(0, 7),
)
def test_no_python_value_field_name_or_seat_from_zero_in_any_text(
    case: tuple[str, int, dict[str, Any]], seed: int, policy: str, viewer_pick: int
) -> None:
    """Property: over seeded games played by random, always-lowest and always-highest
    policies, every sentence, prompt, status line, button label, summary and score table
    is in words (checked as above), for the players and a spectator."""
    check_all_text(case, seed, policy, viewer_pick)


@pytest.mark.parametrize("policy", POLICIES)
@pytest.mark.parametrize("case", BIG, ids=[c[0] for c in BIG])
def test_amounts_in_the_millions_read_as_people_write_them(
    case: tuple[str, int, dict[str, Any]], policy: str
) -> None:
    check_all_text(case, 11, policy, 0)


def check_all_text(
    case: tuple[str, int, dict[str, Any]], seed: int, policy: str, viewer_pick: int
) -> None:
    name, players, options = case
    game = make_game(name, players, **options)
    viewer = viewer_pick if viewer_pick < players else None
    ctx = Context(name, NAMES[:players], viewer=viewer, options=game.options)
    plain = Context(name, default_names(players), viewer=viewer, options=game.options)
    state = game.new_state(seed=seed)
    rng = random.Random(seed)
    tellers = (story(ctx), story(plain))
    told = 0
    for _ in range(400):  # a cap: some games are long under a fixed policy
        feed = state.events_for(viewer)
        for event in feed[told:]:
            for teller in tellers:
                text = teller.tell(event)
                if text:
                    check_words(text, players)
                for step in teller.steps() or []:
                    check_words(step["text"], players)
        told = len(feed)
        if state.is_over:
            break
        for c in (ctx, plain):
            view = state.view(viewer)
            for text in [prompt(view, c), status(view, c), *labels(view, c)]:
                if text:
                    check_words(text, players)
            check_board(view, c)
        seat = min(state.actors())
        legal = state.legal_actions(seat)
        if policy == "random":
            action = choose_uniform(rng, legal)
        else:  # the first or last entry; of an amount range, its smallest or largest amount
            entry = legal[0] if policy == "lowest" else legal[-1]
            if isinstance(entry, AmountRange):
                entry = entry.first if policy == "lowest" else entry.last
            action = entry
        state.apply(seat, action)
    for c in (ctx, plain):
        feed = state.events_for(viewer)
        for summary in hand_summaries(feed, c):
            for line in summary.lines:
                check_words(line, players)
        table = score_table(feed, c)
        if table is not None:
            check_words(table.result, players)
            for cell in [*table.columns, *(x for row in table.rows for x in row)]:
                assert not RAW.search(cell), cell


@pytest.mark.parametrize("name", ["abstrac", "getha", "somachi", "yamiro"])
def test_a_record_tells_the_same_story_as_the_game(name: str) -> None:
    """The narration is a function of the record: a game saved as a record, read back
    and replayed is told in the same words, event by event, for every seat."""
    from cardhall.record import Record, replay

    options = {"getha": {"chips": 10, "max_deals": 3}, "somachi": {"hands_per_game": 1}}
    game = make_game(name, **options.get(name, {}))
    state = play(game, 6)
    record = Record.from_dict(
        json.loads(json.dumps(Record.from_state(state, seats=NAMES[: game.players]).to_dict()))
    )
    again = replay(record)
    assert again.is_over
    for viewer in [*range(game.players), None]:
        ctx = Context(name, tuple(record.seats or ()), viewer=viewer, options=again.game.options)
        assert ctx.names == NAMES[: game.players]
        told = annotate(again.events_for(viewer), ctx)
        assert told == annotate(state.events_for(viewer), ctx)
        assert all("text" in e for e in told)


@pytest.mark.parametrize("name", ["abstrac", "getha", "somachi", "yamiro"])
def test_a_game_saved_by_the_terminal_reads_the_same_in_the_web_viewer(
    name: str, tmp_path: Any
) -> None:
    """One narration, two surfaces: a game played in the terminal and saved, opened in
    the web's replay viewer from the same seat, gives the same sentences in the same
    order, and the viewer's status lines are the narration's."""
    import io

    from rich.console import Console

    from cardhall.record import load_record
    from cardhall.terminal import TerminalGame
    from cardhall.web.replayer import replay_frames

    out = io.StringIO()
    options = {"getha": {"chips": 8, "max_deals": 2}, "somachi": {"hands_per_game": 1}}
    game = make_game(name, **options.get(name, {}))
    TerminalGame(
        game,
        bot_level="random",
        seed=8,
        console=Console(file=out, width=2000),
        ask=lambda _prompt: "1",
        seat_names=NAMES[: game.players],
        save=tmp_path / "game.json",
    ).play()
    printed = out.getvalue()
    record = load_record(tmp_path / "game.json")
    frames = replay_frames(record.to_dict(), "0")["frames"]
    position = 0
    lines = 0
    for frame in frames:
        for event in frame["events"]:
            for line in event.get("text", "").split("\n") if event.get("text") else []:
                found = printed.find(f"· {line}\n", position)
                assert found >= 0, f"the terminal did not print {line!r}"
                position = found
                lines += 1
    assert lines > 5
    ctx = Context(name, NAMES[: game.players], viewer=0, options=game.options)
    assert [f["status"] for f in frames] == [status(f["view"], ctx) for f in frames]
    assert frames[-1]["status"] == "Game over"


def test_the_replay_viewer_face_up_tells_every_card() -> None:
    """After the game, the viewer's "every hand face up" side tells each event as the
    seats it concerns saw it (the cards dealt, the suits chosen); a spectator's side
    does not."""
    from cardhall.record import Record
    from cardhall.web.replayer import replay_frames

    game = make_game("getha", 3, chips=10, max_deals=2)
    state = play(game, 2)
    data = Record.from_state(state, seats=NAMES[:3]).to_dict()
    said = {}
    for side in ("all", "watch"):
        frames = replay_frames(data, side)["frames"]
        said[side] = [e["text"] for f in frames for e in f["events"] if e.get("text")]
    dealt = [t for t in said["all"] if " is dealt " in t]
    assert dealt and all(CARD.search(t) for t in dealt)
    assert any(" chooses to play " in t for t in said["all"])
    assert not any(CARD.search(t) for t in said["watch"] if " is dealt " in t)
    assert not any(" chooses to play " in t for t in said["watch"])


def test_a_score_table_cell_names_the_reader_you_capitalised() -> None:
    """A match's score table names its dealer per deal; the reader's cell reads "You"
    (a table cell starts a line), as its column does."""
    game = make_game("abstrac", match=True, target=250)
    state = play(game, 3)
    for viewer in (0, 1):
        ctx = Context("abstrac", NAMES[:2], viewer=viewer, options=game.options)
        table = score_table(state.events_for(viewer), ctx)
        assert table is not None and len(table.rows) >= 2
        dealers = {row[1] for row in table.rows if row[0].startswith("Deal")}
        assert "You" in dealers and "you" not in dealers, table.rows
        assert table.columns[2 + viewer] == "You"
