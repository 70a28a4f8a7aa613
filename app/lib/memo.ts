/**
 * Answers kept for repeated questions on the hot path of every search page.
 *
 * `perName` keeps a rule's answer per string (field names repeat from page to page); the cache is
 * bounded, so an index with endless dynamic field names only costs a recomputation now and then.
 * `perObject` keeps one answer per object (a search configuration, never changed once built) for as
 * long as the object lives.
 */
export function perName<T>(rule: (name: string) => T, limit = 10_000): (name: string) => T {
  const answers = new Map<string, T>();
  return (name) => {
    const known = answers.get(name);
    if (known !== undefined || answers.has(name)) return known as T;
    if (answers.size >= limit) answers.clear();
    const answer = rule(name);
    answers.set(name, answer);
    return answer;
  };
}

export function perObject<K extends object, T>(build: (key: K) => T): (key: K) => T {
  const built = new WeakMap<K, T>();
  return (key) => {
    if (built.has(key)) return built.get(key) as T;
    const answer = build(key);
    built.set(key, answer);
    return answer;
  };
}
