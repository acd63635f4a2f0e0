/**
 * A ref that focuses its element once it is in the page. For controls that appear later (a
 * dialog, an inline form): the HTML `autofocus` attribute acts only at page load.
 */
export function focusOnMount(el: HTMLElement | null): void {
  el?.focus()
}
