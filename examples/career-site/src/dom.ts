type TChild = Node | string | null | undefined | false;

/** A small element builder: attributes as properties or attributes, children as nodes or text (never parsed as HTML). */
export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attributes: Record<string, string | number | boolean | EventListener | undefined> = {},
  ...children: Array<TChild | TChild[]>
): HTMLElementTagNameMap[K] {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value === undefined || value === false) continue;
    if (typeof value === 'function') element.addEventListener(name.replace(/^on/, ''), value);
    else element.setAttribute(name, value === true ? '' : String(value));
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    element.append(child);
  }
  return element;
}

export function render(root: HTMLElement, ...children: Array<TChild | TChild[]>): void {
  root.replaceChildren(
    ...children
      .flat()
      .filter((child): child is Node | string => child !== null && child !== undefined && child !== false),
  );
}
