/**
 * What a stage read of the content and the settings, by name: `site`, `routes`… (a part of the
 * content: a content file of one kind), `courses:KEY`, `teachers:KEY` (one entry of a collection,
 * or its absence), `courses`, `teachers` (a whole collection: iterated, or its size asked),
 * `setting:NAME`. `digestOf` (digests.ts) turns each into the digest of what it named in one build.
 */
export type ReadId = string;

/**
 * A view of the validated content and the settings that records what is read through it, in
 * frames: `frame(make)` gives what `make` read; what is read outside every frame (a context
 * made once for many pages, the translator) is `shared`, read by every page. An entry is the unit:
 * reading a course's `data` is reading the course file (a new field of it is in its digest), so
 * the entries themselves are handed out as they are.
 */
export interface ReadRecorder<C extends object, S extends object> {
  content: C;
  settings: S;
  frame<T>(make: () => T): { value: T; reads: ReadId[] };
  shared: Set<ReadId>;
}

export function recordReads<C extends object, S extends object>(content: C, settings: S): ReadRecorder<C, S> {
  const shared = new Set<ReadId>();
  let current = shared;
  const read = (id: ReadId) => current.add(id);
  // One view per collection, made when it is first read (every read through it is recorded all the same).
  const collections = new Map<string, { map: Map<string, unknown>; view: Map<string, unknown> }>();
  const view = new Proxy(content, {
    get(target, name, receiver) {
      const value = Reflect.get(target, name, receiver);
      if (typeof name !== 'string') return value;
      if (value instanceof Map) {
        let made = collections.get(name);
        if (made?.map !== value) {
          made = { map: value, view: collection(value, name, read) };
          collections.set(name, made);
        }
        return made.view;
      }
      read(name);
      return value;
    },
    has(target, name) {
      if (typeof name === 'string') read(name);
      return Reflect.has(target, name);
    },
  });
  const settingsView = new Proxy(settings, {
    get(target, name, receiver) {
      if (typeof name === 'string') read(`setting:${name}`);
      return Reflect.get(target, name, receiver);
    },
  });
  return {
    content: view,
    settings: settingsView,
    shared,
    frame(make) {
      const outer = current;
      const reads = new Set<ReadId>();
      current = reads;
      try {
        return { value: make(), reads: [...reads] };
      } finally {
        current = outer;
      }
    },
  };
}

/** A collection of entries seen through the recorder: one entry read by its key, or the whole. */
function collection<V>(map: Map<string, V>, whole: string, read: (id: ReadId) => void): Map<string, V> {
  const get = (key: string) => {
    read(`${whole}:${key}`);
    return map.get(key);
  };
  const has = (key: string) => {
    read(`${whole}:${key}`);
    return map.has(key);
  };
  return new Proxy(map, {
    get(target, name) {
      if (name === 'get') return get;
      if (name === 'has') return has;
      read(whole); // size, keys, values, entries, forEach, iteration: what exists, all of it
      const value = Reflect.get(target, name, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}
