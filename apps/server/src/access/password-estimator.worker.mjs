// The password policy's strength estimator (zxcvbn-ts) in a worker thread of its own (decision 250): building its
// ranked dictionaries takes about a second of CPU and 50 MB of heap, and one estimate of a long password can take
// hundreds of milliseconds; here neither holds up the server's thread. Plain JavaScript, so the same file runs under
// the bundle (`node apps/server/dist/server.js`), tsx and Vitest. password-policy.ts starts it and asks it
// `{ id, password, userInputs }`; it answers `{ id, score, warning }` or `{ id, error }`.
import { parentPort, workerData } from 'node:worker_threads';

/** Builds the estimator: zxcvbn's common lists and graphs, the English, German, French and Italian dictionaries. */
async function build() {
  const [core, common, en, de, fr, it] = await Promise.all([
    import('@zxcvbn-ts/core'),
    import('@zxcvbn-ts/language-common'),
    import('@zxcvbn-ts/language-en'),
    import('@zxcvbn-ts/language-de'),
    import('@zxcvbn-ts/language-fr'),
    import('@zxcvbn-ts/language-it'),
  ]);
  /** @type {Record<string, (string | number)[]>} */
  const dictionary = { ...common.dictionary };
  // The German and Italian packages name their lists without a language suffix: each list gets its language's
  // suffix here to keep them apart.
  for (const [language, pack] of Object.entries({ en, de, fr, it })) {
    for (const [name, words] of Object.entries(pack.dictionary)) {
      dictionary[name.endsWith(`-${language}`) ? name : `${name}-${language}`] = words;
    }
  }
  return new core.ZxcvbnFactory({ ...workerData.options, dictionary, graphs: common.adjacencyGraphs });
}

// Built at once, so a server that starts the worker after it listens has it ready for the first registration. Should
// the build fail, the rejection ends the worker: its checks fail, and the next check starts a new worker.
const estimator = build();

parentPort?.on('message', async ({ id, password, userInputs }) => {
  try {
    const result = (await estimator).check(password, userInputs);
    parentPort?.postMessage({ id, score: result.score, warning: result.feedback.warning ?? null });
  } catch (error) {
    parentPort?.postMessage({ id, error: error instanceof Error ? error.message : String(error) });
  }
});
