"""Terminal play for every game: one loop over the engine protocol, a renderer per game.

The loop shows the human seat's view (through the game's renderer in
``cardhall.terminal.<game>``), what happened since its last turn and why it is asked now
(both in the words of :mod:`cardhall.narration`, the same sentences the browser shows),
and its legal actions, numbered. The player answers with a number, an action's notation,
``h`` for a hint (where the game offers one) or ``q`` to stop. Bots take the other seats.
After each hand its summary is printed, and at the end the score table. The record is
saved at the end (and on ``q``), so every terminal game can be replayed with
``cardhall replay``.

A game's renderer module may define:

* ``render(view, names, ctx=None) -> rich renderable`` (required for a nice display; a
  generic table is used otherwise); ``ctx`` is the narration context (seat names, viewer);
* ``hint(state, seat) -> str | None``: advice for the human (e.g. solver values).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from pathlib import Path
from types import ModuleType
from typing import Any

from rich.console import Console, RenderableType
from rich.markup import escape
from rich.panel import Panel
from rich.pretty import Pretty
from rich.table import Table

from cardhall import narration
from cardhall.bots import Bot, make_bot
from cardhall.cards import SuitNames
from cardhall.engine import Action, AmountRange, Game, Legal, State
from cardhall.errors import CardhallError
from cardhall.narration.names import seat_names as names_of_seats
from cardhall.record import Record
from cardhall.registry import import_modules

__all__ = ["MENU_LIMIT", "TerminalGame", "menu", "renderer_for"]


#: A kind with more legal actions than this is summarised instead of numbered.
MENU_LIMIT = 12


def menu(
    legal: Sequence[Legal], words: Callable[[AmountRange], str] | None = None
) -> tuple[list[Action], list[str]]:
    """Split legal actions into a numbered menu and summary lines: a range of amounts is
    one line (any amount is typed) and its smallest amount is numbered, and a kind with
    too many actions to list (e.g. Getha's 219 discards) shows its first three and its
    last action numbered, the rest typed. ``words`` gives a range's words (the
    narration's label, as the browser's bet box reads it).

    >>> from cardhall.engine import Action, AmountRange
    >>> numbered, lines = menu([Action("fold"), AmountRange("bet", 2, 1_000_000)])
    >>> [str(a) for a in numbered], lines
    (['fold', 'bet 2'], ["Bet between 2 and 1,000,000: type 'bet' and the amount"])
    >>> menu([AmountRange("bet", 2, 9)], lambda r: "Bet between 2 and 9 chips")[1]
    ["Bet between 2 and 9 chips: type 'bet' and the amount"]
    >>> numbered, lines = menu([Action("fold")] + [Action("take", t) for t in range(1, 40)])
    >>> [str(a) for a in numbered]
    ['fold', 'take 1', 'take 2', 'take 3', 'take 39']
    >>> lines
    ["take: 35 more between 'take 3' and 'take 39' (type one)"]
    """
    by_kind: dict[str, list[Action]] = {}
    lines: list[str] = []
    for entry in legal:
        if isinstance(entry, AmountRange):
            by_kind.setdefault(entry.kind, []).append(entry.first)
            if len(entry) > 1:
                lines.append(_range_line(entry, words))
        else:
            by_kind.setdefault(entry.kind, []).append(entry)
    numbered: list[Action] = []
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


def _range_line(amounts: AmountRange, words: Callable[[AmountRange], str] | None) -> str:
    if words is not None:
        said = words(amounts)
    else:
        step = f", in steps of {amounts.step:,}" if amounts.step != 1 else ""
        said = f"{amounts.kind.capitalize()} between {amounts.min:,} and {amounts.max:,}{step}"
    return f"{said}: type '{amounts.kind}' and the amount"


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
            else list(names_of_seats(game.players, self.humans, self.bot_level))
        )
        self.renderer = renderer_for(game)
        self._seen_events: dict[int, int] = {s: 0 for s in self.humans}
        self.contexts = {s: self.context(s) for s in self.humans}
        self.stories = {s: narration.story(self.contexts[s]) for s in self.humans}

    def context(self, seat: int | None) -> narration.Context:
        """The narration context of ``seat``: the seat names, the suit names, the options."""
        return narration.Context(
            self.game.name,
            tuple(self.seat_names),
            suits=self.names,
            viewer=seat,
            options=self.game.options,
        )

    # -- display ---------------------------------------------------------------------------

    def _render(self, seat: int) -> RenderableType:
        view = self.state.view(seat)
        if self.renderer is not None and hasattr(self.renderer, "render"):
            rendered: RenderableType = self.renderer.render(
                view, self.names, ctx=self.contexts.get(seat) or self.context(seat)
            )
            return rendered
        shown = {k: v for k, v in view.items() if k not in ("options", "legal")}
        return Panel(Pretty(shown), title=self.game.title)

    def _describe(self, seat: int, event: dict[str, Any]) -> str | None:
        if self.game.name in narration.STORIES:
            return self.stories[seat].tell(event)
        data = {k: v for k, v in event.items() if k not in ("seq", "kind", "seat")}
        who = "" if event["seat"] is None else f"seat {event['seat'] + 1} "
        return f"{who}{event['kind']} {json.dumps(data)}"

    def _show_news(self, seat: int) -> None:
        events = self.state.events_for(seat)
        start = self._seen_events.get(seat, 0)
        for event in events[start:]:
            text = self._describe(seat, event)
            if text:
                for line in text.split("\n"):
                    self.console.print(f"  [dim]·[/dim] {line}")
            summary = self.stories[seat].closes(event) if seat in self.stories else None
            if summary is not None:
                self.console.print(
                    Panel("\n".join(summary.lines), title=summary.title, expand=False)
                )
        self._seen_events[seat] = len(events)

    def _score_table(self, seat: int | None) -> tuple[RenderableType, str] | None:
        """The end of the game as the narration tells it: a row per hand, and the result."""
        events = self.state.events_for(seat)
        table = narration.score_table(events, self.context(seat))
        if table is None:
            return None
        shown = Table(title="Scores")
        for column in table.columns:
            shown.add_column(column)
        for row in table.rows:
            shown.add_row(*row)
        return shown, table.result

    # -- loop ------------------------------------------------------------------------------

    def play(self) -> State:
        """Play to the end (or until the human quits); returns the final state."""
        state = self.state
        self.console.print(
            f"[bold]{self.game.title}[/bold] — seed {self.seed}, "
            f"{len(self.humans)} human seat(s), opponents: "
            + (", ".join(self.seat_names[s] for s in sorted(self.bots)) or "none")
        )
        while not state.is_over:
            actors = state.actors()
            human = sorted(s for s in actors if s in self.humans)
            if human:
                if not self._human_turn(human[0]):
                    break
            else:
                seat = min(actors)
                # the bot gets what its seat may know, never the state
                action = self.bots[seat].choose(state, seat)
                state.apply(seat, action)
        for seat in sorted(self.humans):
            self._show_news(seat)
        outcome = state.outcome()
        if outcome is not None:
            viewer = min(self.humans) if self.humans else None
            if viewer is not None:
                self.console.print(self._render(viewer))
            scored = self._score_table(viewer)
            if scored is not None:
                table, line = scored
                self.console.print(table)
            else:
                scores = ", ".join(
                    f"{self.seat_names[s]}: {outcome.scores[s]:g}" for s in range(self.game.players)
                )
                won = ", ".join(self.seat_names[w] for w in outcome.winners) or "nobody (a draw)"
                line = f"{scores}. Winner: {won}."
            self.console.print(f"[bold]Game over.[/bold] {line}")
        self._save()
        return state

    def _human_turn(self, seat: int) -> bool:
        state = self.state
        self._show_news(seat)
        self.console.print(self._render(seat))
        view = state.view(seat)
        reason = narration.prompt(view, self.contexts[seat])
        if reason:
            self.console.print(f"[yellow]{reason}[/yellow]")
        legal = state.legal_actions(seat)
        numbered, summaries = menu(
            legal, lambda r: narration.label(r.to_json(), view, self.contexts[seat])
        )
        # each choice in the narration's words, as the browser's buttons read
        words = [narration.label(str(a), view, self.contexts[seat]) for a in numbered]
        while True:
            for i, said in enumerate(words, 1):
                self.console.print(f"  [cyan]{i:>2}[/cyan]  {escape(said)}")
            for line in summaries:
                self.console.print(f"  [cyan] …[/cyan]  {line}")
            extra = ", h for a hint" if self._can_hint() else ""
            who = self.seat_names[seat]
            answer = self.ask(f"{who}, your move (number or notation{extra}, q to quit): ")
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
