// Lints the Dockerfile with dockerfile-utils (the checks of the Docker language server; decision 225): any error
// or warning fails `npm run lint`.
import fs from 'node:fs';
import { validate } from 'dockerfile-utils';

const file = process.argv[2] ?? 'Dockerfile';
const problems = validate(fs.readFileSync(file, 'utf8'));
for (const problem of problems) {
  console.error(`${file}:${problem.range.start.line + 1}: ${problem.message}`);
}
process.exitCode = problems.length > 0 ? 1 : 0;
