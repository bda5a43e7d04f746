"""Terminal play for every game: one loop over the engine protocol, a renderer per game.

The loop shows the human seat's view (through the game's renderer in
``cardhall.terminal.<game>``), what happened since its last turn, and its legal actions,
numbered. The player answers with a number, an action's notation, ``h`` for a hint (where
the game offers one) or ``q`` to stop. Bots take the other seats. The record is saved at
the end (and on ``q``), so every terminal game can be replayed with ``cardhall replay``.

A game's renderer module may define:

* ``render(view, names) -> rich renderable`` (required for a nice display; a generic
  table is used otherwise);
* ``describe_event(event, names) -> str | None``: one line per event the seat sees;
* ``hint(state, seat) -> str | None``: advice for the human (e.g. solver values);
* ``why(state, seat) -> str | None``: why the seat is being asked now (out-of-turn windows);
  it may take an optional ``names`` keyword to name suits as the player chose;
* ``summary(outcome, seat_names) -> str``: the closing line, where "scores and winners"
  says it badly (a solitaire margin, a game against the deck).
"""

from __future__ import annotations

import inspect
import json
from collections.abc import Callable, Sequence
from pathlib import Path
from types import ModuleType
from typing import Any

from rich.console import Console, RenderableType
from rich.panel import Panel
from rich.pretty import Pretty

from cardhall.bots import Bot, make_bot
from cardhall.cards import SuitNames
from cardhall.engine import Action, Game, State
from cardhall.errors import CardhallError
from cardhall.record import Record
from cardhall.registry import import_modules

__all__ = ["MENU_LIMIT", "TerminalGame", "menu", "renderer_for"]


#: A kind with more legal actions than this is summarised instead of numbered.
MENU_LIMIT = 12


def menu(legal: list[Action]) -> tuple[list[Action], list[str]]:
    """Split legal actions into a numbered menu and one summary line per kind that has too
    many actions to list (e.g. Getha's 247 discards, or every bet size): such a kind shows
    its first three and its last action numbered, and the rest are typed.

    >>> from cardhall.engine import Action
    >>> numbered, lines = menu([Action("fold")] + [Action("bet", t) for t in range(1, 40)])
    >>> [str(a) for a in numbered]
    ['fold', 'bet 1', 'bet 2', 'bet 3', 'bet 39']
    >>> lines
    ["bet: 35 more between 'bet 3' and 'bet 39' (type one)"]
    """
    by_kind: dict[str, list[Action]] = {}
    for action in legal:
        by_kind.setdefault(action.kind, []).append(action)
    numbered: list[Action] = []
    lines: list[str] = []
    for kind, actions in by_kind.items():
        if len(actions) > MENU_LIMIT:
            numbered.extend(actions[:3])
            numbered.append(actions[-1])
            lines.append(
                f"{kind}: {len(actions) - 4} more between {str(actions[2])!r} and "
                f"{str(actions[-1])!r} (type one)"
            )
        else:
            numbered.extend(actions)
    return numbered, lines


def renderer_for(game: Game | str) -> ModuleType | None:
    name = game if isinstance(game, str) else game.name
    found = import_modules((f"cardhall.terminal.{name}",))
    return found[0] if found else None


class TerminalGame:
    """One game between humans at this terminal and bots.

    ``ask`` reads one line of input (default: the console's prompt), so tests can script
    the human.
    """

    def __init__(
        self,
        game: Game,
        humans: Sequence[int] = (0,),
        bot_level: str = "strongest",
        seed: int = 0,
        console: Console | None = None,
        ask: Callable[[str], str] | None = None,
        names: SuitNames | None = None,
        save: str | Path | None = None,
        seat_names: Sequence[str] | None = None,
    ) -> None:
        self.game = game
        self.humans = set(humans)
        self.seed = seed
        self.console = console or Console()
        self.ask = ask or (lambda prompt: self.console.input(prompt))
        self.names = names or SuitNames.default()
        self.save_path = Path(save) if save else None
        self.state: State = game.new_state(seed=seed)
        self.bots: dict[int, Bot] = {
            s: make_bot(game, bot_level, seed=f"{seed}:{s}")
            for s in range(game.players)
            if s not in self.humans
        }
        self.bot_level = self.bots[min(self.bots)].level if self.bots else "none"
        self.seat_names = (
            list(seat_names)
            if seat_names
            else [
                ("you" if s in self.humans else f"{self.bot_level} bot") + f" (seat {s})"
                for s in range(game.players)
            ]
        )
        self.renderer = renderer_for(game)
        self._seen_events: dict[int, int] = {s: 0 for s in self.humans}

    # -- display ---------------------------------------------------------------------------

    def _render(self, seat: int) -> RenderableType:
        view = self.state.view(seat)
        if self.renderer is not None and hasattr(self.renderer, "render"):
            rendered: RenderableType = self.renderer.render(view, self.names)
            return rendered
        shown = {k: v for k, v in view.items() if k not in ("options", "legal")}
        return Panel(Pretty(shown), title=self.game.title)

    def _describe(self, event: dict[str, Any]) -> str | None:
        if self.renderer is not None and hasattr(self.renderer, "describe_event"):
            text = self.renderer.describe_event(event, self.names)
            return None if text is None else str(text)
        data = {k: v for k, v in event.items() if k not in ("seq", "kind", "seat")}
        who = "" if event["seat"] is None else f"seat {event['seat']} "
        return f"{who}{event['kind']} {json.dumps(data)}"

    def _show_news(self, seat: int) -> None:
        events = self.state.events_for(seat)
        start = self._seen_events.get(seat, 0)
        for event in events[start:]:
            line = self._describe(event)
            if line:
                self.console.print(f"  [dim]·[/dim] {line}")
        self._seen_events[seat] = len(events)

    # -- loop ------------------------------------------------------------------------------

    def play(self) -> State:
        """Play to the end (or until the human quits); returns the final state."""
        state = self.state
        self.console.print(
            f"[bold]{self.game.title}[/bold] — seed {self.seed}, "
            f"{len(self.humans)} human seat(s), opponents: {self.bot_level}"
        )
        while not state.is_over:
            actors = state.actors()
            human = sorted(s for s in actors if s in self.humans)
            if human:
                if not self._human_turn(human[0]):
                    break
            else:
                seat = min(actors)
                state.apply(seat, self.bots[seat].choose(state, seat))
        for seat in sorted(self.humans):
            self._show_news(seat)
        outcome = state.outcome()
        if outcome is not None:
            if self.humans:
                self.console.print(self._render(min(self.humans)))
            scores = ", ".join(
                f"{self.seat_names[s]}: {outcome.scores[s]:g}" for s in range(self.game.players)
            )
            won = ", ".join(self.seat_names[w] for w in outcome.winners) or "nobody (a draw)"
            line = f"{scores}. Winner: {won}."
            if self.renderer is not None and hasattr(self.renderer, "summary"):
                line = str(self.renderer.summary(outcome, self.seat_names))
            self.console.print(f"[bold]Game over.[/bold] {line}")
        self._save()
        return state

    def _human_turn(self, seat: int) -> bool:
        state = self.state
        self._show_news(seat)
        self.console.print(self._render(seat))
        if self.renderer is not None and hasattr(self.renderer, "why"):
            why = self.renderer.why
            # a renderer's why() may take the suit names (optional ``names`` parameter)
            takes_names = "names" in inspect.signature(why).parameters
            reason = why(state, seat, names=self.names) if takes_names else why(state, seat)
            if reason:
                self.console.print(f"[yellow]{reason}[/yellow]")
        legal = state.legal_actions(seat)
        numbered, summaries = menu(legal)
        while True:
            for i, action in enumerate(numbered, 1):
                self.console.print(f"  [cyan]{i:>2}[/cyan]  {action}")
            for line in summaries:
                self.console.print(f"  [cyan] …[/cyan]  {line}")
            extra = ", h for a hint" if self._can_hint() else ""
            answer = self.ask(f"seat {seat}, your move (number or notation{extra}, q to quit): ")
            answer = answer.strip()
            if answer.lower() in ("q", "quit", "exit"):
                return False
            if answer.lower() in ("h", "hint", "?"):
                self.console.print(self._hint(seat))
                continue
            choice = self._parse_choice(answer, numbered)
            if choice is None:
                continue
            try:
                state.apply(seat, choice)
            except CardhallError as exc:
                self.console.print(f"[red]{exc}[/red]")
                continue
            return True

    def _parse_choice(self, answer: str, legal: list[Action]) -> Action | None:
        if answer.isdigit():
            n = int(answer)
            if 1 <= n <= len(legal):
                return legal[n - 1]
            self.console.print(f"[red]choose 1..{len(legal)}[/red]")
            return None
        try:
            return self.game.parse_action(answer)
        except CardhallError as exc:
            self.console.print(f"[red]{exc}[/red]")
            return None

    def _can_hint(self) -> bool:
        return self.renderer is not None and hasattr(self.renderer, "hint")

    def _hint(self, seat: int) -> str:
        if not self._can_hint():
            return "no hints for this game"
        assert self.renderer is not None
        return str(self.renderer.hint(self.state, seat) or "no hint here")

    def _save(self) -> None:
        if self.save_path is None:
            return
        record = Record.from_state(self.state, seats=self.seat_names, meta={"bots": self.bot_level})
        record.save(self.save_path)
        self.console.print(f"record saved to {self.save_path}")
