// Runs the browser's modules under node for tests/web/test_node.py: reads {lang, cases, models}
// (and replays, and formats: {message, params, options} rendered by Renderer.format) as JSON on stdin and writes what web/i18n.js renders for each case, what
// web/model.js makes of each sequence of messages and the whole steps of each replay answer. The browser's globals the modules read at load
// (localStorage, navigator, document, fetch of the catalogs) are given here.
import { readFileSync } from "node:fs";

const input = JSON.parse(readFileSync(0, "utf-8"));
const [web, i18nDir] = process.argv.slice(2);
globalThis.localStorage = { getItem: () => input.lang, setItem: () => {} };
Object.defineProperty(globalThis, "navigator", { value: { language: input.lang }, configurable: true });
globalThis.document = { documentElement: {} };
globalThis.fetch = async (url) => ({ json: async () => JSON.parse(readFileSync(`${i18nDir}/${url.split("/").pop()}`, "utf-8")) });

const i18n = await import(`${web}/i18n.js`);
const { reduce, replaySteps } = await import(`${web}/model.js`);
await i18n.loadCatalogs();
const rendered = input.cases.map(({ key, params, options }) => new i18n.Renderer(options).message(key, params));
const models = input.models.map((messages) => messages.reduce((model, message) => (model === null && message.type === "delta" ? null : reduce(model, message)), null));
const replays = (input.replays || []).map(replaySteps);
const formats = (input.formats || []).map(({ message, params, options }) => new i18n.Renderer(options).format(message, params));
process.stdout.write(JSON.stringify({ rendered, models, replays, formats }));
