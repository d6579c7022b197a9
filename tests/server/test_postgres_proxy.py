"""The deployment of docs/web.md ("Several processes"): nginx with the repository's own
configuration (deploy/nginx.conf) in front of two ``folkdeck serve`` processes on one
PostgreSQL database, on loopback: the lobby, a table made and played through the proxy, its
WebSocket proxied, and play going on through the proxy after the owner is killed."""

from __future__ import annotations

import contextlib
import os
import re
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.server.conftest import REQUIRE_POSTGRES, free_port
from tests.server.multi import Player, Process, check_acks_stored, create_table, owner_pid, start, wait_for

ROOT = Path(__file__).resolve().parents[2]


def _nginx() -> str:
    found = shutil.which("nginx") or ("/usr/sbin/nginx" if os.path.exists("/usr/sbin/nginx") else None)
    if found is None:
        if REQUIRE_POSTGRES:  # CI installs it (.ci/run): here it must run
            pytest.fail("no nginx (FOLKDECK_REQUIRE_POSTGRES=1: the deployment test must run)", pytrace=False)
        pytest.skip("no nginx: install Debian's nginx package")
    return found


class Proxy:
    """nginx on a free loopback port with deploy/nginx.conf, its upstreams the given processes."""

    name = "proxy"

    def __init__(self, folder: Path, processes: list[Process]) -> None:
        site = (ROOT / "deploy" / "nginx.conf").read_text()
        ports = iter(p.port for p in processes)
        site = re.sub(r"server 127\.0\.0\.1:\d+", lambda m: f"server 127.0.0.1:{next(ports)}", site)
        self.port = free_port()
        site = site.replace("listen 8000;", f"listen 127.0.0.1:{self.port};")
        (folder / "folkdeck.conf").write_text(site)
        user = "user root;" if os.geteuid() == 0 else ""
        temp = " ".join(f"{kind}_temp_path {folder}/{kind};" for kind in ("client_body", "proxy", "fastcgi",
                                                                             "uwsgi", "scgi"))
        (folder / "nginx.conf").write_text(
            f"{user} worker_processes 1; pid {folder}/nginx.pid; error_log {folder}/error.log;"
            f" events {{ worker_connections 256; }}"
            f" http {{ access_log off; {temp} include {folder}/folkdeck.conf; }}")
        self.folder = folder
        self.proc = subprocess.Popen([_nginx(), "-p", str(folder), "-c", str(folder / "nginx.conf"),
                                      "-g", "daemon off;"], stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT)
        self.http = httpx.Client(base_url=f"http://127.0.0.1:{self.port}", timeout=30)
        wait_for(self._up, 20, "nginx to listen")

    def _up(self) -> bool:
        if self.proc.poll() is not None:
            raise AssertionError((self.folder / "error.log").read_text(errors="replace"))
        with contextlib.suppress(httpx.HTTPError):
            return self.http.get("/api/games").status_code == 200
        return False

    def ws(self, table: str, token: str) -> Any:
        from tests.server.multi import ws_client

        return ws_client.connect(f"ws://127.0.0.1:{self.port}/ws/{table}?k={token}", open_timeout=30)

    def stop(self) -> None:
        self.proc.terminate()
        self.proc.wait(timeout=30)
        self.http.close()


@pytest.fixture
def deployment(pg_url: str, tmp_path: Path) -> Iterator[tuple[Proxy, list[Process]]]:
    processes = start(pg_url, tmp_path, "A", "B", FOLKDECK_TRUST_FORWARDED="1")
    proxy = None
    try:
        proxy = Proxy(tmp_path, processes)
        yield proxy, processes
    finally:
        if proxy is not None:
            proxy.stop()
        for process in processes:
            process.stop()


def test_a_table_is_made_and_played_through_nginx_and_survives_its_owner(
        deployment: tuple[Proxy, list[Process]], pg_url: str) -> None:
    proxy, processes = deployment
    lobby = proxy.http.get("/")
    assert lobby.status_code == 200 and "<html" in lobby.text.lower()
    t = create_table(proxy, humans=1, deals=2)  # type: ignore[arg-type]  # it has .http like a process
    assert proxy.http.get("/api/tables/" + t["id"]).json()["id"] == t["id"]
    player = Player(proxy, t["id"], t["seats"][0]["token"])  # type: ignore[arg-type]  # the WebSocket, proxied
    acked = [ack["line"] for ack in (player.play(), player.play(), player.play()) if ack]
    owner = next(p for p in processes if p.proc.pid == owner_pid(pg_url, t["id"]))
    owner.kill()
    for _ in range(4):  # through the proxy still: a dropped socket opens again to the other process
        ack = player.play(fallback=lambda: proxy)  # type: ignore[arg-type, return-value]
        acked += [ack["line"]] if ack else []
    assert len(acked) == 7
    check_acks_stored(pg_url, t["id"], acked)
    survivor = next(p for p in processes if p is not owner)
    assert owner_pid(pg_url, t["id"]) == survivor.proc.pid
    player.close()


def test_the_haproxy_configuration_is_valid() -> None:
    """deploy/haproxy.cfg, the other proxy docs/web.md offers, as HAProxy itself checks it."""
    found = shutil.which("haproxy") or ("/usr/sbin/haproxy" if os.path.exists("/usr/sbin/haproxy") else None)
    if found is None:
        if REQUIRE_POSTGRES:  # CI installs it (.ci/run): here it must run
            pytest.fail("no haproxy (FOLKDECK_REQUIRE_POSTGRES=1: the deployment check must run)", pytrace=False)
        pytest.skip("no haproxy: install Debian's haproxy package")
    check = subprocess.run([found, "-c", "-f", str(ROOT / "deploy" / "haproxy.cfg")], capture_output=True,
                           text=True, timeout=60, check=False)
    assert check.returncode == 0, check.stdout + check.stderr
