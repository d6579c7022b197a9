"""``folkdeck serve``: the web app on this machine (needs the ``server`` extra)."""

from __future__ import annotations

import argparse

from folkdeck.engine.errors import InvalidConfigError


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser], *,
               serve_summary: str = "play in the browser: start the web app",
               loadtest_summary: str = "load benchmark: simulated players over WebSockets on loopback") -> None:
    """The ``serve`` and ``loadtest`` commands (the summaries: their lines in ``folkdeck --help``)."""
    serve = sub.add_parser("serve", help=serve_summary)
    serve.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1)")
    serve.add_argument("--port", type=int, default=8000, help="port (default 8000; 0 picks a free one)")
    serve.add_argument("--db", default="folkdeck.sqlite3",
                       help="SQLite file (default ./folkdeck.sqlite3) or a postgresql:// URL")
    serve.add_argument("--bot-delay", type=float, default=0.6, help="seconds a bot waits before acting")
    serve.add_argument("--deal-pause", type=float, default=3.0, help="seconds between deals")
    load = sub.add_parser("loadtest", help=loadtest_summary)
    from folkdeck.server.loadtest import add_arguments  # the standard library only at import

    add_arguments(load)


def serve(args: argparse.Namespace) -> int:
    try:
        import uvicorn

        from folkdeck.server.collector import tune_collector
        from folkdeck.server.config import Settings
        from folkdeck.server.main import create_app
        from folkdeck.server.store import redact
    except ImportError as exc:  # the same coded error as every missing extra
        raise InvalidConfigError("needs_extra", option="serve", feature="web app",
                                 module=exc.name or "fastapi", extra="server") from exc
    settings = Settings(db=args.db, bot_delay=args.bot_delay, deal_pause=args.deal_pause)
    app = create_app(settings)
    config = uvicorn.Config(app, host=args.host, port=args.port, log_level="warning", ws_max_size=65536)
    server = uvicorn.Server(config)
    tune_collector()  # this process is a server from here on (its tables are loaded, and frozen with the modules)

    import socket

    family = socket.AF_INET6 if ":" in args.host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind((args.host, args.port))
    # Listening before the app starts (restoring the tables can take a while): a request
    # that comes early waits in the backlog instead of being refused.
    sock.listen(2048)
    port = sock.getsockname()[1]
    host = "localhost" if args.host in ("127.0.0.1", "0.0.0.0", "::") else args.host
    print(f"folkdeck: playing at http://{host}:{port}/  (tables in {redact(args.db)}; Ctrl-C stops)", flush=True)
    try:
        server.run(sockets=[sock])  # uvicorn's event loop: uvloop where it is installed
    except KeyboardInterrupt:
        pass
    finally:
        app.state.tables.store.close()  # every action was committed already; this frees the connection
    return 0
