"""The web server: play every game in the browser (``folkdeck serve``, docs/web.md).

Needs the ``server`` extra (FastAPI, uvicorn, pydantic). The engine stays synchronous
and knows nothing of asyncio: :mod:`folkdeck.server.tables` drives it.
"""
