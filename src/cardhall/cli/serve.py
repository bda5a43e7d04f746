"""``cardhall serve``: the web app (lobby, tables, play in the browser)."""

from __future__ import annotations

from typing import Annotated

import typer


def register(app: typer.Typer) -> None:
    @app.command()
    def serve(
        host: Annotated[str, typer.Option(help="interface to listen on")] = "127.0.0.1",
        port: Annotated[int, typer.Option(help="TCP port")] = 8000,
        database_url: Annotated[
            str,
            typer.Option(
                "--database-url",
                envvar="CARDHALL_DATABASE_URL",
                help="sqlite:///FILE.db (default) or postgresql://USER@HOST/DB",
            ),
        ] = "sqlite:///cardhall.db",
        bot_delay: Annotated[
            float, typer.Option(help="seconds a bot waits before it acts (for watchers)")
        ] = 0.4,
        origin: Annotated[
            list[str] | None,
            typer.Option(help="extra allowed WebSocket Origin (e.g. behind a proxy)"),
        ] = None,
        log_level: Annotated[str, typer.Option(help="uvicorn log level")] = "info",
        bot_workers: Annotated[
            int | None,
            typer.Option(
                help="processes in which searching (ismcts) bots think; default one per CPU, "
                "0: in the server process"
            ),
        ] = None,
    ) -> None:
        """Serve the web app: create a table, invite friends, add bots, play."""
        import uvicorn

        from cardhall.web.app import create_app

        web = create_app(
            database_url,
            bot_delay=bot_delay,
            origins=tuple(origin or ()),
            bot_workers=bot_workers,
        )
        typer.echo(f"cardhall: http://{host}:{port}  (database: {database_url.split('@')[-1]})")
        uvicorn.run(
            web,
            host=host,
            port=port,
            log_level=log_level,
            ws_max_size=65536,
            ws_per_message_deflate=False,  # small JSON frames: latency over bandwidth
            timeout_graceful_shutdown=5,
        )
