// Preloaded with `node --import` by tests that check what a process loads: appends to the file
// named by CT_TEST_LOAD_LOG every ES module resolved (through a resolve hook) and, at exit, every
// CommonJS module loaded (require's cache), one absolute URL or path a line.
import { appendFileSync } from 'node:fs';
import { createRequire, register } from 'node:module';

const file = process.env.CT_TEST_LOAD_LOG;
if (file) {
  const hooks = `
    import { appendFileSync } from 'node:fs';
    let file;
    export function initialize(data) { file = data.file; }
    export async function resolve(specifier, context, next) {
      const found = await next(specifier, context);
      appendFileSync(file, found.url + '\\n');
      return found;
    }`;
  register(`data:text/javascript,${encodeURIComponent(hooks)}`, { data: { file } });
  const cache = createRequire(import.meta.url).cache;
  process.on('exit', () =>
    appendFileSync(
      file,
      Object.keys(cache)
        .map((p) => `${p}\n`)
        .join(''),
    ),
  );
}
