"""The ``cardhall`` command's common commands: games, replay, play."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from typer.testing import CliRunner

from cardhall.cli import app
from cardhall.conformance import random_playout
from cardhall.record import Record, load_record
from cardhall.registry import game_names, make_game

runner = CliRunner()


def write_record(path: Path, seed: int = 2) -> Record:
    state = make_game("abstrac").new_state(seed=seed)
    random_playout(state, random.Random(seed))
    record = Record.from_state(state)
    record.save(path)
    return record


def test_games_json_lists_every_game_with_players_and_options() -> None:
    result = runner.invoke(app, ["games", "--json"])
    assert result.exit_code == 0, result.output
    games = json.loads(result.output)
    assert [g["name"] for g in games] == game_names()
    abstrac = next(g for g in games if g["name"] == "abstrac")
    assert abstrac["players"] == [2]
    assert {"name": "target", "default": 500}.items() <= next(
        o for o in abstrac["options"] if o["name"] == "target"
    ).items()


def test_games_table() -> None:
    result = runner.invoke(app, ["games"])
    assert result.exit_code == 0
    out = result.output
    assert "abstrac" in out and "target" in out
    # Values as they are typed on the command line, never Python's.
    for raw in ("True", "False", "None", "{'min'", "['side_pots'"):
        assert raw not in out, raw
    assert "a whole number" in out and "true or false" in out
    assert "side_pots," in out and "players 2-8" in out  # (cells wrap on a narrow terminal)
    assert "Yamiro (yamiro), players 1, 2 or 4" in out


def test_replay_json_prints_over_and_outcome(tmp_path: Path) -> None:
    record = write_record(tmp_path / "r.json")
    result = runner.invoke(app, ["replay", str(tmp_path / "r.json"), "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["over"] is True
    assert record.result is not None
    assert data["outcome"]["scores"] == record.result["scores"]
    assert data["outcome"]["winners"] == record.result["winners"]
    assert data["state"]["row"] == []


def test_replay_of_an_unfinished_game(tmp_path: Path) -> None:
    record = write_record(tmp_path / "r.json")
    record.actions = record.actions[:3]
    record.result = None
    record.save(tmp_path / "part.json")
    result = runner.invoke(app, ["replay", str(tmp_path / "part.json"), "--json"])
    assert result.exit_code == 0
    data = json.loads(result.output)
    assert data["over"] is False and data["outcome"] is None and data["moves"] == 3


def test_replay_names_the_first_illegal_action(tmp_path: Path) -> None:
    record = write_record(tmp_path / "r.json")
    record.actions[4] = (record.actions[4][0], "take 9")
    record.result = None
    record.save(tmp_path / "bad.json")
    result = runner.invoke(app, ["replay", str(tmp_path / "bad.json"), "--json"])
    assert result.exit_code == 1
    data = json.loads(result.stdout.splitlines()[0])
    assert data["index"] == 4
    assert "take 9" in data["error"]


def test_replay_of_a_malformed_file(tmp_path: Path) -> None:
    (tmp_path / "x.json").write_text('{"game": "abstrac"}')
    result = runner.invoke(app, ["replay", str(tmp_path / "x.json")])
    assert result.exit_code == 1
    assert "no 'deck'" in result.output


def test_play_rejects_bad_options() -> None:
    result = runner.invoke(app, ["play", "abstrac", "-o", "target=-5"])
    assert result.exit_code == 1
    assert "'target' must be >= 1" in result.output
    result = runner.invoke(app, ["play", "abstrac", "--partner"])
    assert result.exit_code == 1 and "Yamiro" in result.output
    result = runner.invoke(app, ["play", "nogame"])
    assert result.exit_code == 1 and "unknown game" in result.output


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["play", "abstrac", "--seat", "5"],
         "--seat must be 1 to 2 (seats are counted from 1); got 5"),
        (["play", "abstrac", "--seat", "0"],
         "--seat must be 1 to 2 (seats are counted from 1); got 0"),
        (["play", "getha", "-o", "allin_mode=all"],
         "option 'allin_mode' must be one of side_pots, whole_pot; got 'all'"),
        (["play", "abstrac", "-o", "target=null"],
         "option 'target' may not be null; it must be a whole number >= 1"),
        (["play", "yamiro", "-p", "3"], "yamiro is played by 1, 2 or 4 players, not 3"),
        (["play", "abstrac", "--solitaire"],
         "--partner and --solitaire are Yamiro's forms; got the game 'abstrac'"),
    ],
)  # fmt: skip
def test_play_errors_name_option_value_and_what_is_allowed(args: list[str], message: str) -> None:
    result = runner.invoke(app, args)
    assert result.exit_code == 1, result.output
    assert message in " ".join(result.output.split())


def test_play_a_whole_game_from_the_terminal(tmp_path: Path) -> None:
    save = tmp_path / "game.json"
    # the human (seat 1, the default) always answers "1": the first legal action
    result = runner.invoke(
        app,
        ["play", "abstrac", "--bot", "random", "--seed", "11", "--save", str(save)],
        input="1\n" * 40,
    )
    assert result.exit_code == 0, result.output
    assert "Game over." in result.output
    record = load_record(save)
    assert record.result is not None
    assert record.actions[0] == (0, "first")


def test_play_seat_is_counted_from_one(tmp_path: Path) -> None:
    save = tmp_path / "game.json"
    # --seat 2 is the second seat: the bot holds seat 1 and chooses to move first
    result = runner.invoke(
        app,
        ["play", "abstrac", "--bot", "random", "--seed", "11", "--seat", "2", "--save", str(save)],
        input="1\n" * 40,
    )
    assert result.exit_code == 0, result.output
    assert "Random Rita chooses to move first." in result.output
    record = load_record(save)
    # the first choice was the bot's (seat index 0); the human answered as seat index 1
    assert record.actions[0] == (0, "first")
    assert any(seat == 1 for seat, _ in record.actions)


def _record(**changes: object) -> dict[str, object]:
    state = make_game("abstrac").new_state(seed=2)
    random_playout(state, random.Random(2))  # a finished game: its result is checked
    data = Record.from_state(state).to_dict()
    data.update(changes)
    return data


HOSTILE_RECORDS = {
    "options players": json.dumps(_record(options={"players": 2})),
    "options name": json.dumps(_record(options={"name": "abstrac"})),
    "scores as text": json.dumps(_record(result={"scores": "ten", "winners": [0]})),
    "scores null": json.dumps(_record(result={"scores": None, "winners": [0]})),
    "scores a number": json.dumps(_record(result={"scores": 7, "winners": [0]})),
    "score text items": json.dumps(_record(result={"scores": ["a", "b"], "winners": [0]})),
    "mixed winners": json.dumps(
        _record(result={"scores": _record()["result"]["scores"], "winners": [0, "a"]})  # type: ignore[index]
    ),
    "nested deep": "[" * 100_000 + "]" * 100_000,
    "nested deep object": '{"game": ' * 50_000 + "1" + "}" * 50_000,
}


@pytest.mark.parametrize("case", sorted(HOSTILE_RECORDS))
def test_replay_answers_a_hostile_record_with_one_line(tmp_path: Path, case: str) -> None:
    path = tmp_path / "hostile.json"
    path.write_text(HOSTILE_RECORDS[case], encoding="utf-8")
    result = runner.invoke(app, ["replay", str(path)])
    assert result.exit_code == 1 and isinstance(result.exception, SystemExit), result.output
    assert result.output.startswith("error: record") and result.output.count("error") == 1
    assert "Traceback" not in result.output


def test_replay_answers_invalid_utf8_with_one_line(tmp_path: Path) -> None:
    path = tmp_path / "bytes.json"
    path.write_bytes(b'{"game": "abstrac", "deck": ["\xff\xfe"], "actions": []}')
    result = runner.invoke(app, ["replay", str(path)])
    assert result.exit_code == 1 and isinstance(result.exception, SystemExit), result.output
    assert result.output.startswith("error: record") and result.output.count("error") == 1
    assert "not UTF-8" in " ".join(result.output.split())


def test_bench_only_matching_nothing_names_the_benchmarks() -> None:
    result = runner.invoke(app, ["bench", "--only", "nosuch"])
    assert result.exit_code == 1
    said = " ".join(result.output.split())
    assert "--only nosuch matches no benchmark; known: " in said and "playouts" in said


def test_serve_has_an_option_for_every_limit_of_the_server() -> None:
    """Every limit of :class:`cardhall.web.settings.Settings` is a ``cardhall serve``
    option with the same default (the settings that are not limits are named here)."""
    import dataclasses

    import typer.main

    from cardhall.web.settings import Settings

    command = typer.main.get_command(app).commands["serve"]  # type: ignore[attr-defined]
    options = {p.name: p.default for p in command.params}
    renamed = {"rate": "messages_per_second", "origins": "origin"}
    not_limits = {"poll_interval", "timer_interval", "run_migrations"}
    missing = []
    for field in dataclasses.fields(Settings):
        if field.name in not_limits:
            continue
        name = renamed.get(field.name, field.name)
        if name not in options:
            missing.append(name)
        elif field.name not in ("origins", "bot_workers", "database_url"):
            assert options[name] == field.default, name
    assert missing == []


def test_serve_sets_its_start_up_objects_aside_from_the_collector(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """``cardhall serve`` freezes what start-up made before it serves, so the
    collector's full passes (a pause an honest player's action waits out) walk only
    what the server makes later; in a fresh process that is tens of thousands of
    objects fewer."""
    import subprocess
    import sys

    import uvicorn

    from cardhall.web import app as web_app

    calls: list[str] = []
    monkeypatch.setattr(web_app, "freeze_start_up", lambda: calls.append("freeze") or 1)
    monkeypatch.setattr(uvicorn, "run", lambda *a, **kw: calls.append("run"))
    url = f"sqlite:///{tmp_path / 's.db'}"
    result = runner.invoke(app, ["serve", "--database-url", url, "--port", "1"])
    assert result.exit_code == 0, result.output
    assert calls == ["freeze", "run"]
    code = (
        "import gc, cardhall.cli, cardhall.web.app as a; gc.collect(); "
        "before = len(gc.get_objects()); frozen = a.freeze_start_up(); "
        "print(before, frozen, len(gc.get_objects()))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    before, frozen, walked = map(int, out.stdout.split())
    assert frozen >= before > 20_000 and walked < before // 10


# what a server under abuse makes and keeps a while: containers (connections, frames,
# tasks) that outlive the young passes; counts the collector's full passes meanwhile
CHURN = (
    "import gc{setup}\n"
    "kept = []\n"
    "full = gc.get_stats()[2]['collections']\n"
    "for i in range(300):\n"
    "    kept.append([[] for _ in range(1000)])\n"
    "    if len(kept) > 50: kept.pop(0)\n"
    "print(gc.get_threshold(), gc.get_stats()[2]['collections'] - full)\n"
)


def test_serve_makes_the_collectors_full_passes_rare_under_churn() -> None:
    """After :func:`freeze_start_up` (which ``cardhall serve`` calls), 300,000 objects
    made and kept a while (as abusive clients' sockets and frames are) bring no full
    collection, each a pause of the event loop that walks everything the server holds;
    with Python's own thresholds the same churn brings two or more."""
    import subprocess
    import sys

    from cardhall.web.app import COLLECTOR_THRESHOLDS

    def run(setup: str) -> tuple[str, int]:
        code = CHURN.format(setup=setup)
        out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
        assert out.returncode == 0, out.stderr
        thresholds, passes = out.stdout.rsplit(" ", 1)
        return thresholds, int(passes)

    served = run("; import cardhall.web.app as a; a.freeze_start_up()")
    assert served == (str(COLLECTOR_THRESHOLDS), 0)
    thresholds, passes = run("; gc.collect(); gc.freeze()")
    assert thresholds == "(700, 10, 10)" and passes >= 2
