import type { ResolveOptions } from '../resolve/context.ts';
import type { Content } from '../validate/content.ts';

/**
 * What a stage read of the content and the settings, by name: `site`, `routes`… (a content file
 * of one kind), `course:KEY`, `teacher:KEY` (one entry, or its absence), `courses`, `teachers`
 * (a whole collection: iterated, or its size asked), `invalidKeys`, `setting:NAME`.
 * `digestOf` (digests.ts) turns each into the digest of what it named in one build.
 */
export type ReadId = string;

/**
 * A view of the validated content and the settings that records what is read through it, in
 * frames: `frame(make)` gives what `make` read; what is read outside every frame (a context
 * made once for many pages, the translator) is `shared`, read by every page. An entry is the unit:
 * reading a course's `data` is reading the course file (a new field of it is in its digest), so
 * the entries themselves are handed out as they are.
 */
export interface ReadRecorder {
  content: Content;
  settings: ResolveOptions;
  frame<T>(make: () => T): { value: T; reads: ReadId[] };
  shared: Set<ReadId>;
}

export function recordReads(content: Content, settings: ResolveOptions): ReadRecorder {
  const shared = new Set<ReadId>();
  let current = shared;
  const read = (id: ReadId) => current.add(id);
  const view = new Proxy(content, {
    get(target, name, receiver) {
      if (name === 'courses' || name === 'teachers')
        return collection<unknown>(target[name] as Map<string, unknown>, name, name === 'courses' ? 'course' : 'teacher', read);
      if (typeof name === 'string') read(name);
      return Reflect.get(target, name, receiver);
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
function collection<V>(map: Map<string, V>, whole: string, one: string, read: (id: ReadId) => void): Map<string, V> {
  return new Proxy(map, {
    get(target, name) {
      if (name === 'get' || name === 'has')
        return (key: string) => {
          read(`${one}:${key}`);
          return target[name](key);
        };
      read(whole); // size, keys, values, entries, forEach, iteration: what exists, all of it
      const value = Reflect.get(target, name, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}
