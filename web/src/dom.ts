// A small element builder instead of a framework: text is always set as text (never parsed as
// HTML), and the one place that inserts HTML is the sanitised markdown of web/src/markdown.ts.

type Child = Node | string | number | null | undefined | false | Child[];
type Props = Record<string, string | number | boolean | null | undefined | ((event: Event) => void)>;

/**
 * h("a", { href: "#/", class: "brand" }, "Markets"): attributes by name, `on<event>` listeners,
 * booleans as present or absent attributes, null and undefined left out.
 */
export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  props?: Props | null,
  ...children: Child[]
): HTMLElementTagNameMap[K] {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(props ?? {})) {
    if (value === null || value === undefined || value === false) continue;
    if (typeof value === "function") element.addEventListener(name.slice(2), value);
    else element.setAttribute(name, value === true ? "" : String(value));
  }
  append(element, children);
  return element;
}

export function append(parent: Node, children: Child[]) {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    if (Array.isArray(child)) append(parent, child);
    else parent.appendChild(child instanceof Node ? child : document.createTextNode(String(child)));
  }
}

/** Replaces an element's content. */
export function fill(parent: Element, ...children: Child[]) {
  parent.replaceChildren();
  append(parent, children);
}

/** A notice for a failed read or write, announced to screen readers. */
export const failure = (error: unknown) =>
  h("p", { class: "error", role: "alert" }, error instanceof Error ? error.message : String(error));

export const loading = (what: string) => h("p", { class: "loading", "aria-busy": "true" }, `Loading ${what}…`);

/** A table whose rows are built from items; an empty list says so instead. */
export function table<T>(options: {
  caption?: string;
  columns: { label: string; numeric?: boolean; cell: (item: T) => Child }[];
  items: T[];
  empty: string;
  rowKey?: (item: T) => string;
}): HTMLElement {
  if (options.items.length === 0) return h("p", { class: "empty" }, options.empty);
  return h(
    "div",
    { class: "table-wrap" },
    h(
      "table",
      null,
      options.caption ? h("caption", null, options.caption) : null,
      h(
        "thead",
        null,
        h(
          "tr",
          null,
          ...options.columns.map((column) =>
            h("th", { scope: "col", class: column.numeric ? "num" : null }, column.label),
          ),
        ),
      ),
      h(
        "tbody",
        null,
        ...options.items.map((item) =>
          h(
            "tr",
            { "data-key": options.rowKey?.(item) },
            ...options.columns.map((column) => h("td", { class: column.numeric ? "num" : null }, column.cell(item))),
          ),
        ),
      ),
    ),
  );
}
