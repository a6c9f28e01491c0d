/**
 * Syntax highlighting for code in the reader (fenced blocks, tool input and output), loaded
 * lazily: lowlight (highlight.js's grammars producing a syntax tree, not HTML) comes in its own
 * chunk on the first block that needs it, and each grammar in its own chunk on the first block in
 * that language. Results are cached by language and text, so scrolling back is free. The tree is
 * rendered as React elements by the caller (CodeBlock), never as HTML.
 */
import type { Root } from 'hast';

type Lowlighter = ReturnType<typeof import('lowlight').createLowlight>;
type GrammarModule = { default: import('lowlight').LanguageFn };
type Loader = () => Promise<GrammarModule>;

/** Grammar chunks by highlight.js name (explicit imports, so the bundler makes one chunk each). */
const GRAMMARS: Record<string, Loader> = {
  bash: () => import('highlight.js/lib/languages/bash'),
  c: () => import('highlight.js/lib/languages/c'),
  cpp: () => import('highlight.js/lib/languages/cpp'),
  csharp: () => import('highlight.js/lib/languages/csharp'),
  css: () => import('highlight.js/lib/languages/css'),
  diff: () => import('highlight.js/lib/languages/diff'),
  dockerfile: () => import('highlight.js/lib/languages/dockerfile'),
  go: () => import('highlight.js/lib/languages/go'),
  ini: () => import('highlight.js/lib/languages/ini'),
  java: () => import('highlight.js/lib/languages/java'),
  javascript: () => import('highlight.js/lib/languages/javascript'),
  json: () => import('highlight.js/lib/languages/json'),
  kotlin: () => import('highlight.js/lib/languages/kotlin'),
  lua: () => import('highlight.js/lib/languages/lua'),
  makefile: () => import('highlight.js/lib/languages/makefile'),
  markdown: () => import('highlight.js/lib/languages/markdown'),
  php: () => import('highlight.js/lib/languages/php'),
  python: () => import('highlight.js/lib/languages/python'),
  ruby: () => import('highlight.js/lib/languages/ruby'),
  rust: () => import('highlight.js/lib/languages/rust'),
  scss: () => import('highlight.js/lib/languages/scss'),
  sql: () => import('highlight.js/lib/languages/sql'),
  swift: () => import('highlight.js/lib/languages/swift'),
  typescript: () => import('highlight.js/lib/languages/typescript'),
  xml: () => import('highlight.js/lib/languages/xml'),
  yaml: () => import('highlight.js/lib/languages/yaml'),
};

/** Names and file extensions people write, to the grammar's name. */
const ALIASES: Record<string, string> = {
  sh: 'bash',
  shell: 'bash',
  zsh: 'bash',
  console: 'bash',
  shellsession: 'bash',
  h: 'c',
  cc: 'cpp',
  cxx: 'cpp',
  hpp: 'cpp',
  'c++': 'cpp',
  cs: 'csharp',
  patch: 'diff',
  docker: 'dockerfile',
  golang: 'go',
  toml: 'ini',
  cfg: 'ini',
  conf: 'ini',
  js: 'javascript',
  jsx: 'javascript',
  mjs: 'javascript',
  cjs: 'javascript',
  jsonl: 'json',
  jsonc: 'json',
  json5: 'json',
  kt: 'kotlin',
  kts: 'kotlin',
  mk: 'makefile',
  make: 'makefile',
  md: 'markdown',
  py: 'python',
  python3: 'python',
  rb: 'ruby',
  rs: 'rust',
  ts: 'typescript',
  tsx: 'typescript',
  mts: 'typescript',
  cts: 'typescript',
  html: 'xml',
  htm: 'xml',
  svg: 'xml',
  xhtml: 'xml',
  vue: 'xml',
  yml: 'yaml',
};

/** The grammar for a fence's language or a file extension; undefined when none is known. */
export function grammarName(lang: string | undefined): string | undefined {
  if (!lang) return undefined;
  const l = lang.trim().toLowerCase();
  const name = ALIASES[l] ?? l;
  return Object.hasOwn(GRAMMARS, name) ? name : undefined;
}

/** The grammar for a file by its name (`src/a.ts` → typescript; `Dockerfile` → dockerfile). */
export function grammarForPath(path: string | undefined): string | undefined {
  if (!path) return undefined;
  const base = path.split(/[\\/]/).pop() ?? '';
  if (/^dockerfile/i.test(base)) return 'dockerfile';
  if (/^(gnu)?makefile$/i.test(base)) return 'makefile';
  const dot = base.lastIndexOf('.');
  return dot > 0 ? grammarName(base.slice(dot + 1)) : undefined;
}

/** Past this, a block is shown plain: highlighting it would hold the page up for little. */
export const MAX_HIGHLIGHT_CHARS = 100_000;

let lowlight: Promise<Lowlighter> | undefined;
const registered = new Map<string, Promise<boolean>>();
const cache = new Map<string, Root | null>();
const CACHE_MAX = 500;

function ensureGrammar(name: string): Promise<boolean> {
  let p = registered.get(name);
  if (!p) {
    lowlight ??= import('lowlight').then((m) => m.createLowlight());
    const load = GRAMMARS[name]!;
    p = Promise.all([lowlight, load()]).then(
      ([ll, g]) => {
        ll.register(name, g.default);
        return true;
      },
      (e: unknown) => {
        console.warn(`grammar ${name} did not load`, e);
        return false;
      },
    );
    registered.set(name, p);
  }
  return p;
}

function cacheKey(name: string, code: string): string {
  return `${name}\u0000${code}`;
}

/** A cached tree for `code`, without waiting: undefined when not highlighted yet. */
export function cachedHighlight(lang: string | undefined, code: string): Root | null | undefined {
  const name = grammarName(lang);
  if (!name || code.length > MAX_HIGHLIGHT_CHARS) return null;
  return cache.get(cacheKey(name, code));
}

/**
 * `code` highlighted as `lang` (a fence's language or alias): its syntax tree, or null when the
 * language is unknown, the block too long or the grammar failed to load.
 */
export async function highlight(lang: string | undefined, code: string): Promise<Root | null> {
  const name = grammarName(lang);
  if (!name || code.length > MAX_HIGHLIGHT_CHARS) return null;
  const key = cacheKey(name, code);
  const hit = cache.get(key);
  if (hit !== undefined) return hit;
  if (!(await ensureGrammar(name))) return null;
  const ll = await lowlight!;
  let tree: Root | null;
  try {
    tree = ll.highlight(name, code);
  } catch (e) {
    console.warn(`highlighting as ${name} failed`, e);
    tree = null;
  }
  if (cache.size >= CACHE_MAX) cache.delete(cache.keys().next().value!);
  cache.set(key, tree);
  return tree;
}
