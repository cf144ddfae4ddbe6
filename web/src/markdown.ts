// A journal post's markdown as safe HTML (marked, then DOMPurify; loaded only when a post opens).
// The API keeps bodies exactly as their authors sent them, raw HTML included, so everything here
// is untrusted: scripts, event handlers, inline styles, forms and frames are removed, and links
// open without a referrer or a handle on this page. The page's Content-Security-Policy would
// block what got through anyway; the sanitiser is the first line, not the only one.
import DOMPurify from "dompurify";
import { marked } from "marked";

const purifier = DOMPurify(window);
purifier.addHook("afterSanitizeAttributes", (node) => {
  if (node.tagName === "A" && node.getAttribute("href")) {
    node.setAttribute("rel", "noopener noreferrer nofollow ugc");
    node.setAttribute("target", "_blank");
  }
  if (node.tagName === "IMG") {
    node.setAttribute("loading", "lazy");
    node.setAttribute("referrerpolicy", "no-referrer");
  }
});

/** Sanitised HTML of a post's markdown, as a fragment ready to insert. */
export function renderMarkdown(markdown: string): DocumentFragment {
  const html = marked.parse(markdown, { async: false, gfm: true });
  return purifier.sanitize(html, {
    RETURN_DOM_FRAGMENT: true,
    FORBID_TAGS: ["style", "form", "input", "button", "textarea", "select", "iframe", "object", "embed"],
    FORBID_ATTR: ["style"],
  });
}
