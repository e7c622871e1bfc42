// The web app's files, bundled from src/web/ by Bun (TSX + CSS, no other build tool).
//
// `import index from "../web/index.html"` is a Bun HTML import. In `bun build --compile`, Bun bundles
// the page and its scripts and styles at build time and embeds them in the binary; at run time
// `index.files` lists them. Run from source (npm start, bun test) the import only names the HTML
// file, so we bundle it once, in memory, with Bun.build and the same settings.
//
// Elysia 1.4 could hand the HTMLBundle to Bun.serve's static routes instead, but then the files are
// served at the site root, with none of our headers (CSP, frame-ancestors, immutable caching), and
// outside app.handle(), where tests could not see them. So we serve them ourselves under
// /app/assets/: both modes produce the same `/chunk-<hash>.js` references in the HTML, which we
// point at /app/assets/.
import index from "../web/index.html";

export const ASSETS_PATH = "/app/assets/";

type Bytes = Uint8Array<ArrayBuffer>;

export interface WebAsset {
  body: Bytes;
  gzip: Bytes;
  type: string;
}

export interface WebAssets {
  html: WebAsset;
  /** By file name (`chunk-1mq4nvrt.js`), served at ASSETS_PATH + name. */
  files: Map<string, WebAsset>;
}

interface BuiltFile {
  name: string;
  bytes: Bytes;
  type: string;
  html: boolean;
}

/**
 * One bundled page (an HTML import) with its files served under `assetsPath`. Build output is the
 * same for every app in the process, and building costs ~100 ms: each loader keeps one. The
 * website chat's page (src/widget) is a second bundle, served the same way.
 */
export function assetsLoader(bundle: typeof index, assetsPath: string): () => Promise<WebAssets> {
  let loading: Promise<WebAssets> | null = null;
  return () => {
    loading ??= load(bundle, assetsPath).catch((error) => {
      loading = null; // a failed source build (a typo in src/web) is retried on the next request
      throw error;
    });
    return loading;
  };
}

export const webAssets = assetsLoader(index, ASSETS_PATH);

async function load(bundle: typeof index, assetsPath: string): Promise<WebAssets> {
  const built = bundle.files?.length ? await embedded(bundle.files) : await bundleFromSource(bundle.index);
  const page = built.find((f) => f.html);
  if (!page) throw new Error(`the bundle of ${bundle.index} has no HTML page`);
  const files = new Map<string, WebAsset>();
  let html = new TextDecoder().decode(page.bytes);
  for (const f of built) {
    if (f.html) continue;
    files.set(f.name, asset(f.bytes, f.type));
    html = html.replaceAll(`"/${f.name}"`, `"${assetsPath}${f.name}"`);
  }
  return { html: asset(new TextEncoder().encode(html), page.type), files };
}

export function asset(body: Bytes, type: string): WebAsset {
  return { body, gzip: Bun.gzipSync(body, { level: 9 }), type };
}

async function embedded(files: NonNullable<(typeof index)["files"]>): Promise<BuiltFile[]> {
  return Promise.all(
    files.map(async (f) => ({
      name: baseName(f.path),
      bytes: await Bun.file(f.path).bytes(),
      type: f.headers["content-type"],
      html: f.loader === "html",
    })),
  );
}

async function bundleFromSource(entry: string): Promise<BuiltFile[]> {
  // minify as `npm run build` does (package.json), so the sizes the tests check are the shipped ones.
  const result = await Bun.build({ entrypoints: [entry], target: "browser", publicPath: "/", minify: true });
  if (!result.success) throw new AggregateError(result.logs, `bundling ${entry} failed`);
  return Promise.all(
    result.outputs.map(async (o) => ({
      name: baseName(o.path),
      bytes: new Uint8Array(await o.arrayBuffer()),
      type: o.type,
      html: o.type.startsWith("text/html"),
    })),
  );
}

function baseName(path: string): string {
  return path.slice(path.lastIndexOf("/") + 1);
}
