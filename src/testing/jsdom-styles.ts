import createCache, { type StylisPlugin } from '@emotion/cache';

/**
 * Drops the selectors that use `:has(…)` from the CSS that MUI writes into jsdom's document.
 *
 * jsdom answers getComputedStyle by matching every rule of the document against the element and
 * its ancestors; Testing Library's role queries, user-event's pointer-events check, DataGrid,
 * TextareaAutosize and notistack call it all the time. Its selector engine (nwsapi) parses a
 * `:has()` argument afresh on every match, with a regular expression that backtracks
 * exponentially on MUI's long class names: the select's `.MuiInputBase-root:has(> .css-…)` rules
 * alone took a third of the web suite's CPU time. Those rules only set custom properties
 * (`--_caret`, `--_endAdornment`) and a chart's grid areas, i.e. layout, which jsdom does not do:
 * nothing a test can observe in jsdom changes without them (colours, display, visibility and
 * pointer-events rules all stay). The app in a browser keeps every rule.
 */
const dropHasSelectors: StylisPlugin = (element) => {
  if (element.type !== 'rule' || !Array.isArray(element.props)) return;
  const kept = element.props.filter((selector) => !selector.includes(':has('));
  if (kept.length === element.props.length) return;
  element.props = kept;
  // A rule left without a selector is not written at all (stylis writes no rule without content).
  if (kept.length === 0) element.children = [];
};

/** The emotion cache renderApp gives MUI under jsdom: the default one, less the `:has()` selectors. */
export function jsdomEmotionCache() {
  return createCache({ key: 'css', stylisPlugins: [dropHasSelectors] });
}
