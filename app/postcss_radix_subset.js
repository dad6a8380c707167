// PostCSS plugin (copied into .web by app/radix_theme.py): drops the Radix Themes rules that no
// element of this app can match. A selector that needs a component class (`rt-Card`) which none
// of the app's Radix components ever sets, or a breakpoint class (`md:rt-r-size-2`) when no
// compiled page passes a responsive prop, matches nothing; its rule is removed. The components
// are those the compiled pages import from "@radix-ui/themes"; their classes are read from
// Radix's own modules (and the modules they import), beside any the pages name themselves and
// those the server writes into its HTML (radix-subset-keep.json, app/radix_theme.py).
// Component classes in parentheses (:where(.rt-A, .rt-B), :not(.rt-A)) are left alone: a
// selector stays whenever it could match.
import { readFileSync, readdirSync, statSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const WEB_DIR = dirname(fileURLToPath(import.meta.url));
const SCANNED = ["app", "app_components", "components", "utils"];
const COMPONENTS = join(WEB_DIR, "node_modules/@radix-ui/themes/dist/esm/components");
const IMPORT = /import\s*\{([^}]*)\}\s*from\s*["']@radix-ui\/themes["']/g;
const RESPONSIVE_PROP = /\[\s*"(?:xs|sm|md|lg|xl)"\s*\]\s*:/;
const COMPONENT_CLASS = /rt-[A-Z][A-Za-z]*/g;
const RESPONSIVE_CLASS = /(?:xs|sm|md|lg|xl)\\:rt-/;
const RELATIVE_IMPORT = /from\s*"(\.[^"]+\.js)"/g;
const KEEP_FILE = join(WEB_DIR, "radix-subset-keep.json");

function* sources(dir) {
  let names;
  try {
    names = readdirSync(dir);
  } catch {
    return;
  }
  for (const name of names) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) yield* sources(path);
    else if (/\.(jsx?|tsx?)$/.test(name)) yield readFileSync(path, "utf8");
  }
}

function compiledApp() {
  const components = new Set();
  const named = new Set(JSON.parse(readFileSync(KEEP_FILE, "utf8")));
  let responsive = false;
  for (const dir of SCANNED) {
    for (const source of sources(join(WEB_DIR, dir))) {
      for (const [, names] of source.matchAll(IMPORT)) {
        for (const name of names.split(",")) {
          const imported = name.trim().split(/\s+as\s+/)[0];
          if (imported) components.add(imported);
        }
      }
      for (const [found] of source.matchAll(COMPONENT_CLASS)) named.add(found);
      responsive ||= RESPONSIVE_PROP.test(source);
    }
  }
  return { components, named, responsive };
}

const kebab = (name) => name.replace(/(?<!^)([A-Z])/g, "-$1").toLowerCase();

function componentClasses(components, named) {
  const classes = new Set(named);
  const seen = new Set();
  const pending = [...components].map((name) => join(COMPONENTS, `${kebab(name)}.js`));
  while (pending.length) {
    const path = pending.pop();
    if (seen.has(path)) continue;
    seen.add(path);
    let source;
    try {
      source = readFileSync(path, "utf8");
    } catch {
      continue; // not a component module (Theme's helpers, a type-only export)
    }
    for (const [found] of source.matchAll(COMPONENT_CLASS)) classes.add(found);
    for (const [, relative] of source.matchAll(RELATIVE_IMPORT)) {
      const imported = resolve(dirname(path), relative);
      if (imported.startsWith(COMPONENTS)) pending.push(imported);
    }
  }
  return classes;
}

// The selector without what parentheses hold (keep: "outside"), or without what :not() holds.
function strip(selector, keep) {
  let depth = 0;
  let negated = 0;
  let kept = "";
  for (let i = 0; i < selector.length; i++) {
    const char = selector[i];
    if (char === "(") {
      depth++;
      if (negated === 0 && selector.endsWith(":not", i)) negated = depth;
    } else if (char === ")") {
      if (negated === depth) negated = 0;
      depth--;
    } else if (keep === "outside" ? depth === 0 : negated === 0) kept += char;
  }
  return kept;
}

// Radix puts breakpoint classes in :where() (`.rt-Button:where(.md\:rt-r-size-2)`), alone.
function canMatch(selector, classes, responsive) {
  if (!responsive && RESPONSIVE_CLASS.test(strip(selector, "unnegated"))) return false;
  const required = strip(selector, "outside");
  return [...required.matchAll(COMPONENT_CLASS)].every(([found]) => classes.has(found));
}

function removeEmptyAtRules(root) {
  root.walkAtRules((atRule) => {
    if (atRule.nodes && atRule.nodes.length === 0) atRule.remove();
  });
}

export default function radixSubset() {
  return {
    postcssPlugin: "radix-subset",
    Once(root) {
      const { components, named, responsive } = compiledApp();
      const classes = componentClasses(components, named);
      root.walkRules((rule) => {
        if (rule.parent?.type === "atrule" && /keyframes$/i.test(rule.parent.name)) return;
        const kept = rule.selectors.filter((s) => canMatch(s, classes, responsive));
        if (kept.length === 0) rule.remove();
        else if (kept.length < rule.selectors.length) rule.selectors = kept;
      });
      removeEmptyAtRules(root);
    },
  };
}
radixSubset.postcss = true;
