"""End-to-end: the rules panel's Markdown (web/markdown.js: markdown-it, then DOMPurify)
leaves no way into the page: raw HTML is shown as text, a link cannot break out of its
attribute (the hand-written renderer it replaced did not escape quotes), and only web
addresses stay links, opening in a new tab."""

from __future__ import annotations

from typing import Any

from tests.e2e.conftest import open_page

HOSTILE = ('# Title\n\n<script>window.hit = 1</script> <img src=x onerror="window.hit = 2">\n\n'
           '[a](https://example.org/" onmouseover="window.hit = 3) [b](javascript:window.hit=4) '
           '[c](docs/records.md) [d](https://pagat.com/climbing/kaphai.html)\n\n| x | y |\n|---|---|\n| 1 | 2 |\n')


def test_markdown_is_rendered_safely(server: str, browser: Any) -> None:
    page = open_page(browser, server + "/")
    try:
        page.wait_for_selector("#game option", state="attached")
        html = page.evaluate("async (text) => (await import('/static/markdown.js')).renderMarkdown(text)", HOSTILE)
        page.evaluate("(html) => { const d = document.createElement('div'); d.id = 'probe'; d.innerHTML = html; document.body.append(d); }", html)
        assert page.evaluate("() => window.hit") is None
        assert page.locator("#probe script, #probe img, #probe [onmouseover], #probe [onerror]").count() == 0
        assert "<script>" in page.inner_text("#probe")  # raw HTML is shown as text
        links = page.eval_on_selector_all("#probe a[href]", "els => els.map((e) => [e.getAttribute('href'), e.target])")
        assert links == [["https://pagat.com/climbing/kaphai.html", "_blank"]] or all(
            h.startswith("https://") and t == "_blank" for h, t in links), links
        assert not any("javascript" in h or "onmouseover" in h.replace("%22", '"').split('"')[0] for h, _ in links), links
        assert page.inner_text("#probe h2") == "Title" and page.locator("#probe table td").count() == 2
    finally:
        page.close()
