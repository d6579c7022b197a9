"""End-to-end, several processes (docs/web.md, "Several processes"): the table page played
by clicks through nginx (deploy/nginx.conf) in front of two ``folkdeck serve`` processes on
one PostgreSQL database; the table's owner is killed with SIGKILL, and the same page, never
reloaded, plays on: its next click is stored once, by the process that adopted the table."""

from __future__ import annotations

from typing import Any

from tests.server.conftest import pg_url, postgres  # noqa: F401  # the PostgreSQL fixtures
from tests.server.multi import Process, create_table, owner_pid, stored_lines, wait_for
from tests.server.test_postgres_proxy import Proxy, deployment  # noqa: F401  # nginx before two processes


def test_the_page_plays_on_through_the_proxy_after_the_owner_is_killed(
        deployment: tuple[Proxy, list[Process]], pg_url: str, browser: Any) -> None:  # noqa: F811
    proxy, processes = deployment
    t = create_table(proxy, humans=1, deals=2)  # type: ignore[arg-type]  # it has .http like a process
    page = browser.new_page(viewport={"width": 1200, "height": 860})

    def stored() -> int:
        return len(stored_lines(pg_url, t["id"]))

    def click_a_move() -> int:
        """Click the first legal play; once it is stored, wait until the page has drawn it
        (no click on the chips of a position already left)."""
        page.wait_for_selector("#legal button[data-legal]", timeout=30_000)
        before, shown = stored(), page.inner_text("#history")
        page.locator("#legal button[data-legal]").first.click()
        page.click("#play")
        wait_for(lambda: stored() > before, 30, "the move to be stored")
        page.wait_for_function("(old) => document.querySelector('#history').innerText !== old", arg=shown,
                               timeout=30_000)
        return before

    try:
        page.goto(f"http://127.0.0.1:{proxy.port}" + t["seats"][0]["link"])
        page.wait_for_selector("#hand .card")
        for _ in range(2):
            click_a_move()
        owner = next(p for p in processes if p.proc.pid == owner_pid(pg_url, t["id"]))
        owner.kill()
        for _ in range(2):  # the same page, not reloaded
            click_a_move()
        page.wait_for_function("() => !document.body.classList.contains('offline')", timeout=30_000)
        survivor = next(p for p in processes if p is not owner)
        assert owner_pid(pg_url, t["id"]) == survivor.proc.pid
        rows = stored_lines(pg_url, t["id"])
        assert len({(d, i) for d, i, _ in rows}) == len(rows)
        people = [line for _, _, line in rows if line.startswith("0: ")]
        assert len(people) == 4  # four clicks, four moves: none lost, none doubled
    finally:
        page.close()
