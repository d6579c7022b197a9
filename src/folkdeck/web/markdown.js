// The rules panel's Markdown: rendered by markdown-it with raw HTML off, then sanitised by
// DOMPurify (both vendored and pinned: vendor/README.md). A link leaves the page only to a
// web address (in a new tab); a link to a repository file is kept as its text.
import "./vendor/markdown-it.min.js";
import "./vendor/purify.min.js";

const markdown = globalThis.markdownit({ html: false, linkify: false });
// A document's "#" title is the panel's heading (h2) and its sections h3...: one level down,
// under the page's own h1.
markdown.core.ruler.push("panel_headings", (state) => {
  for (const token of state.tokens) {
    if (token.type === "heading_open" || token.type === "heading_close") token.tag = `h${Math.min(6, Number(token.tag[1]) + 1)}`;
  }
});
const purify = globalThis.DOMPurify;

purify.addHook("afterSanitizeAttributes", (node) => {
  if (node.tagName !== "A") return;
  if (/^https?:\/\//.test(node.getAttribute("href") || "")) {
    node.setAttribute("target", "_blank"); node.setAttribute("rel", "noopener");
  } else {
    node.removeAttribute("href");
  }
});

/** Safe HTML for ``text`` (Markdown). */
export function renderMarkdown(text) {
  return purify.sanitize(markdown.render(text));
}
