/**
 * The part of a messages tree under the given key paths ("billing", "company.twoFactor.dismiss"), as a tree of the
 * same shape. A path also takes its plural forms ("graceDays" → "graceDays_one", "graceDays_other"). The build
 * uses it to cut one area's texts out of a language's messages.json (decision 218); a path that names nothing is an
 * error, so a renamed key cannot silently leave an area without its texts.
 */
export type MessageTree = { [key: string]: unknown };

const PLURAL = /_(zero|one|two|few|many|other)$/;

export function pickKeys(tree: MessageTree, paths: readonly string[]): MessageTree {
  const picked: MessageTree = {};
  for (const path of paths) {
    const parts = path.split('.');
    const last = parts.pop()!;
    let from: unknown = tree;
    let to = picked;
    for (const part of parts) {
      from = (from as MessageTree | undefined)?.[part];
      to = (to[part] ??= {}) as MessageTree;
    }
    const names = Object.keys((from as MessageTree | undefined) ?? {}).filter(
      (name) => name === last || (name.replace(PLURAL, '') === last && name !== last),
    );
    if (!names.length) throw new Error(`messages have no key ${path}`);
    for (const name of names) to[name] = (from as MessageTree)[name];
  }
  return picked;
}

/** `into` with `from` merged in, nested trees merged key by key (areas may share a section: billing.pastDue). */
export function mergeTrees(into: MessageTree, from: MessageTree): MessageTree {
  for (const [key, value] of Object.entries(from)) {
    const there = into[key];
    into[key] =
      typeof value === 'object' &&
      value !== null &&
      !Array.isArray(value) &&
      typeof there === 'object' &&
      there
        ? mergeTrees({ ...(there as MessageTree) }, value as MessageTree)
        : value;
  }
  return into;
}
