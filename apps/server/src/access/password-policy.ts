import { Worker } from 'node:worker_threads';
import { invalidField, type HttpError } from '../http/errors.ts';

/**
 * The one password policy: registration and password reset on the sign-in pages use it, and so will the API's
 * password change. A password is refused when it
 * - is shorter than {@link PASSWORD_MIN_LENGTH} or longer than {@link PASSWORD_MAX_LENGTH} characters,
 * - contains the email address's local part or the person's name (see {@link personalPieces}), or
 * - is rated below {@link PASSWORD_MIN_SCORE} by the zxcvbn-ts strength estimator (common passwords, words,
 *   names, keyboard patterns, repeats, sequences and dates in English, German, French and Italian).
 *
 * The answer is a {@link PasswordProblem}: the sign-in pages translate it with their own texts; an API route turns
 * it into the project's one 422 field error with {@link passwordFieldError}, e.g.
 * `const problem = await checkPassword(body.newPassword, user); if (problem) throw passwordFieldError('newPassword',
 * problem);`. Its English text ({@link passwordProblemText}) is the field error's message; `problem.reason` (and
 * `problem.hint`) are stable keys a web form may translate instead (the security tab's password form does).
 */

export const PASSWORD_MIN_LENGTH = 12;
export const PASSWORD_MAX_LENGTH = 128;
/**
 * zxcvbn's scale: 0–2 is guessable within about 10^8 guesses (common passwords, a word with digits), 3 needs
 * about 10^10 and 4 more. A password must reach 3.
 */
export const PASSWORD_MIN_SCORE = 3;
/**
 * Pieces of the name or of the email's local part shorter than this are not checked: "Li", "Jo" or "a.b" occur
 * in too many good passwords to refuse them.
 */
export const PERSONAL_PIECE_MIN_LENGTH = 4;

/** What the estimator saw in a weak password, when it says so. */
export type PasswordHint = 'common' | 'keyboard' | 'repeat' | 'sequence' | 'date' | 'word';

export type PasswordProblem =
  | { reason: 'tooShort'; min: number }
  | { reason: 'tooLong'; max: number }
  | { reason: 'containsEmail' }
  | { reason: 'containsName' }
  | { reason: 'tooWeak'; hint?: PasswordHint }
  /** A new password that is the one the person has now (a reset or a change that changes nothing). */
  | { reason: 'sameAsCurrent' };

/** Whose password it is: its email address and name (either may be unknown). */
export interface PasswordOwner {
  email?: string;
  name?: string;
}

/** Length in characters (code points), as the API's schemas count it. */
const length = (text: string) => [...text].length;

/** Lower case without accents, so "Müller" is found in "MULLER-…" and "mueller" only by the estimator. */
const fold = (text: string) => text.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase();

/**
 * The parts of a name or an email local part worth refusing: the whole (without separators) and each part split
 * at spaces, dots, hyphens, underscores, plus signs and apostrophes — each at least
 * {@link PERSONAL_PIECE_MIN_LENGTH} characters long.
 */
function personalPieces(text: string | undefined): string[] {
  if (!text) return [];
  const parts = fold(text).split(/[\s.\-_+'’]+/u);
  return [parts.join(''), ...parts].filter((piece) => length(piece) >= PERSONAL_PIECE_MIN_LENGTH);
}

const localPart = (email: string | undefined) => email?.slice(0, Math.max(0, email.lastIndexOf('@')));

/**
 * The estimator looks at the first 64 characters only and replaces at most 12 l33t characters: its time grows
 * steeply with both (seconds for a 128-character string of l33t characters), and a 64-character start that is
 * strong makes the password strong.
 */
const ESTIMATOR_OPTIONS = { maxLength: 64, l33tMaxSubstitutions: 12 };

/** What the estimator said of a password: zxcvbn's score and its warning (a translation key), if any. */
interface Estimate {
  score: number;
  warning: string | null;
}

type Answer = { id: number; error: string } | ({ id: number } & Estimate);

interface Estimator {
  worker: Worker;
  pending: Map<number, { resolve: (estimate: Estimate) => void; reject: (error: Error) => void }>;
}

let estimator: Estimator | undefined;
let nextId = 0;

/**
 * The estimator with its dictionaries, in a worker thread of its own (password-estimator.worker.mjs, decision 250):
 * building them takes about a second of CPU and 50 MB of heap, and a long password's estimate up to hundreds of
 * milliseconds, which the server's thread should not spend. Started once, on first use; a check waits until the
 * worker has built them. A worker that fails or ends fails the checks it holds; the next check starts a new one.
 * The worker keeps the process alive only while it has checks to answer.
 */
function startEstimator(): Estimator {
  if (estimator) return estimator;
  const worker = new Worker(new URL('./password-estimator.worker.mjs', import.meta.url), {
    workerData: { options: ESTIMATOR_OPTIONS },
  });
  worker.unref();
  const started: Estimator = { worker, pending: new Map() };
  const fail = (error: Error) => {
    if (estimator === started) estimator = undefined;
    for (const { reject } of started.pending.values()) reject(error);
    started.pending.clear();
  };
  worker.on('message', (answer: Answer) => {
    const waiting = started.pending.get(answer.id);
    if (!waiting) return;
    started.pending.delete(answer.id);
    if (started.pending.size === 0) worker.unref();
    if ('error' in answer) waiting.reject(new Error(`password estimator: ${answer.error}`));
    else waiting.resolve({ score: answer.score, warning: answer.warning });
  });
  worker.on('error', fail);
  worker.on('exit', (code) => fail(new Error(`password estimator ended (exit code ${code})`)));
  estimator = started;
  return started;
}

function estimate(password: string, userInputs: string[]): Promise<Estimate> {
  const { worker, pending } = startEstimator();
  const id = nextId++;
  return new Promise<Estimate>((resolve, reject) => {
    pending.set(id, { resolve, reject });
    worker.ref();
    worker.postMessage({ id, password, userInputs });
  });
}

/**
 * Starts the estimator's worker now instead of at the first check (the server calls it once it listens), so the
 * first registration does not wait for the dictionaries. A failure is not reported here: the first check meets it.
 */
export function preparePasswordPolicy(): void {
  startEstimator();
}

/** The estimator's warning (a translation key, as no translations are loaded) as one of our hints. */
const HINTS: Record<string, PasswordHint> = {
  topTen: 'common',
  topHundred: 'common',
  common: 'common',
  similarToCommon: 'common',
  pwned: 'common',
  straightRow: 'keyboard',
  keyPattern: 'keyboard',
  simpleRepeat: 'repeat',
  extendedRepeat: 'repeat',
  sequences: 'sequence',
  recentYears: 'date',
  dates: 'date',
  wordByItself: 'word',
  namesByThemselves: 'word',
  commonNames: 'word',
  userInputs: 'word',
};

/** The problem of `password` under the policy, or undefined when it is acceptable. */
export async function checkPassword(
  password: string,
  owner: PasswordOwner = {},
): Promise<PasswordProblem | undefined> {
  if (length(password) < PASSWORD_MIN_LENGTH) return { reason: 'tooShort', min: PASSWORD_MIN_LENGTH };
  if (length(password) > PASSWORD_MAX_LENGTH) return { reason: 'tooLong', max: PASSWORD_MAX_LENGTH };
  const folded = fold(password);
  const emailPieces = personalPieces(localPart(owner.email));
  const namePieces = personalPieces(owner.name);
  if (emailPieces.some((piece) => folded.includes(piece))) return { reason: 'containsEmail' };
  if (namePieces.some((piece) => folded.includes(piece))) return { reason: 'containsName' };
  const result = await estimate(password, [...emailPieces, ...namePieces]);
  if (result.score >= PASSWORD_MIN_SCORE) return undefined;
  const hint = result.warning ? HINTS[result.warning] : undefined;
  return hint ? { reason: 'tooWeak', hint } : { reason: 'tooWeak' };
}

/**
 * The problem of a new password for someone who has one: the policy's ({@link checkPassword}), else `sameAsCurrent`
 * when `isCurrent` says it is the password they have now. `isCurrent` runs only for a password the policy accepts.
 */
export async function checkNewPassword(
  password: string,
  owner: PasswordOwner,
  isCurrent: (password: string) => Promise<boolean>,
): Promise<PasswordProblem | undefined> {
  const problem = await checkPassword(password, owner);
  if (problem) return problem;
  return (await isCurrent(password)) ? { reason: 'sameAsCurrent' } : undefined;
}

const HINT_TEXT: Record<PasswordHint, string> = {
  common: 'it is one of the most common passwords or close to one',
  keyboard: 'keys next to each other on the keyboard are easy to guess',
  repeat: 'repeated characters or words are easy to guess',
  sequence: 'sequences like "abc" or "6543" are easy to guess',
  date: 'dates and recent years are easy to guess',
  word: 'single words and names are easy to guess',
};

/** The problem in English, as an API field error's text ("must be at least 12 characters long"). */
export function passwordProblemText(problem: PasswordProblem): string {
  switch (problem.reason) {
    case 'tooShort':
      return `must be at least ${problem.min} characters long`;
    case 'tooLong':
      return `must be at most ${problem.max} characters long`;
    case 'containsEmail':
      return 'must not contain your email address';
    case 'containsName':
      return 'must not contain your name';
    case 'tooWeak':
      return `is too easy to guess${problem.hint ? `: ${HINT_TEXT[problem.hint]}` : ''}`;
    case 'sameAsCurrent':
      return 'must differ from the current password';
  }
}

/** The 422 field error of the project's one error scheme for a password the policy refuses. */
export const passwordFieldError = (field: string, problem: PasswordProblem): HttpError =>
  invalidField(field, passwordProblemText(problem));
