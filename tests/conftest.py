"""Marks by place: the browser tests are ``e2e``, the PostgreSQL ones ``postgres``.

The default run (``make test``) leaves them out; ``make test-all`` (CI) runs them with the
slow and Ray suites. Marking here, by path, keeps every file of those folders in its suite
without a marker line in each test.
"""

from __future__ import annotations

from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        path = Path(str(item.path)).resolve()
        if HERE / "e2e" in path.parents:
            item.add_marker(pytest.mark.e2e)
        elif path.parent == HERE / "server" and path.name.startswith("test_postgres"):
            item.add_marker(pytest.mark.postgres)
