// What every page is: a title for the document, its content, and what to stop when it is left.
export type Page = { title: string; content: HTMLElement; dispose?: () => void };
