"""``cardhall serve``: the web app (lobby, tables, play in the browser)."""

from __future__ import annotations

from typing import Annotated

import typer

from cardhall.web.settings import Settings

_DEFAULT = Settings()


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
        ] = _DEFAULT.bot_delay,
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
        forwarded_allow_ips: Annotated[
            str,
            typer.Option(
                help="addresses of reverse proxies whose X-Forwarded-For is trusted "
                "(comma-separated, '*' for any); per-address limits count that client"
            ),
        ] = "127.0.0.1",
        requests_per_second: Annotated[
            float,
            typer.Option(help="requests and WebSocket connections one address may make a second"),
        ] = _DEFAULT.requests_per_second,
        tables_per_minute: Annotated[
            int, typer.Option(help="tables one client address may create per minute")
        ] = _DEFAULT.tables_per_minute,
        open_tables: Annotated[
            int, typer.Option(help="tables one client address may have open at once")
        ] = _DEFAULT.open_tables,
        seats_per_address: Annotated[
            int, typer.Option(help="seats of one public table one client address may hold")
        ] = _DEFAULT.seats_per_address,
        sockets_per_seat: Annotated[
            int, typer.Option(help="WebSockets one seat may hold open (the next is refused)")
        ] = _DEFAULT.sockets_per_seat,
        sockets_per_address: Annotated[
            int, typer.Option(help="WebSockets one client address may hold open at once")
        ] = _DEFAULT.sockets_per_address,
        actions_per_second: Annotated[
            float, typer.Option(help="actions one seat may send a second (all its sockets)")
        ] = _DEFAULT.actions_per_second,
        flood_cooldown: Annotated[
            float,
            typer.Option(
                help="seconds an address whose socket flooded may not open one, and a "
                "request answered 429 is refused again before any route (0: never)"
            ),
        ] = _DEFAULT.flood_cooldown,
        refusal_pause: Annotated[
            float,
            typer.Option(
                help="seconds a refusal for going too fast waits (429, 4429), and a socket "
                "over its rate goes unread"
            ),
        ] = _DEFAULT.refusal_pause,
        max_message: Annotated[
            int, typer.Option(help="bytes a WebSocket message may hold")
        ] = _DEFAULT.max_message,
        cached_tables: Annotated[
            int, typer.Option(help="tables whose game state the process keeps in memory")
        ] = _DEFAULT.cached_tables,
        messages_per_second: Annotated[
            float, typer.Option(help="WebSocket messages one socket may send a second")
        ] = _DEFAULT.rate,
        replay_actions_per_second: Annotated[
            float,
            typer.Option(help="record actions one address may have replayed a second"),
        ] = _DEFAULT.replay_actions_per_second,
        queue_bytes: Annotated[
            int, typer.Option(help="bytes queued for a slow reader before it is dropped")
        ] = _DEFAULT.queue_bytes,
        header_timeout: Annotated[
            float, typer.Option(help="seconds a client has to send a request's headers")
        ] = _DEFAULT.header_timeout,
        body_timeout: Annotated[
            float, typer.Option(help="seconds a client has to send a request's body")
        ] = _DEFAULT.body_timeout,
        max_body: Annotated[
            int, typer.Option(help="bytes a request body may hold")
        ] = _DEFAULT.max_body,
        max_connections: Annotated[
            int, typer.Option(help="connections served at once (more are closed)")
        ] = _DEFAULT.max_connections,
        bot_only_tables: Annotated[
            int, typer.Option(help="tables with no person seated whose bots play at once")
        ] = _DEFAULT.bot_only_tables,
        bot_only_seconds: Annotated[
            float, typer.Option(help="seconds a table with no person seated is played")
        ] = _DEFAULT.bot_only_seconds,
        lobby_seconds: Annotated[
            float, typer.Option(help="seconds a table may wait in the lobby")
        ] = _DEFAULT.lobby_seconds,
        idle_seconds: Annotated[
            float, typer.Option(help="seconds a table in play may go without a person acting")
        ] = _DEFAULT.idle_seconds,
    ) -> None:
        """Serve the web app: create a table, invite friends, add bots, play."""
        import uvicorn

        from cardhall.web.app import create_app, freeze_start_up
        from cardhall.web.limits import connection_budget, guarded_http, guarded_ws

        web = create_app(
            database_url,
            bot_delay=bot_delay,
            origins=tuple(origin or ()),
            bot_workers=bot_workers,
            requests_per_second=requests_per_second,
            tables_per_minute=tables_per_minute,
            open_tables=open_tables,
            seats_per_address=seats_per_address,
            sockets_per_seat=sockets_per_seat,
            sockets_per_address=sockets_per_address,
            actions_per_second=actions_per_second,
            rate=messages_per_second,
            max_message=max_message,
            flood_cooldown=flood_cooldown,
            refusal_pause=refusal_pause,
            cached_tables=cached_tables,
            replay_actions_per_second=replay_actions_per_second,
            queue_bytes=queue_bytes,
            header_timeout=header_timeout,
            body_timeout=body_timeout,
            max_body=max_body,
            max_connections=max_connections,
            bot_only_tables=bot_only_tables,
            bot_only_seconds=bot_only_seconds,
            lobby_seconds=lobby_seconds,
            idle_seconds=idle_seconds,
        )
        typer.echo(f"cardhall: http://{host}:{port}  (database: {database_url.split('@')[-1]})")
        cap, files = connection_budget(max_connections)
        if cap < max_connections:
            typer.echo(
                f"cardhall: serving at most {cap} connections at once, not {max_connections}: "
                f"this process may open {files} files (raise `ulimit -n`)"
            )
        freeze_start_up()
        uvicorn.run(
            web,
            host=host,
            port=port,
            log_level=log_level,
            http=guarded_http(header_timeout, cap, web.state.limits),
            ws=guarded_ws(),
            proxy_headers=True,
            forwarded_allow_ips=forwarded_allow_ips,
            ws_max_size=65536,
            ws_per_message_deflate=False,  # small JSON frames: latency over bandwidth
            timeout_graceful_shutdown=5,
        )
