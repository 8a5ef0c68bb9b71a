import React from 'react';
import { InternalError } from '../../report/problem.ts';

/**
 * The hooks a component may call while serialize.ts renders it, with the values React's server
 * renderer gives them (react-dom-server-legacy's HooksDispatcher): the initial state, a fresh
 * ref, no effects. The templates' one stateful component, the enquiry form (useEnquiry.ts),
 * needs no more. Every other hook, and a state update during rendering (React would render the
 * component again), fails: the serializer must never write other bytes than React would.
 */
const supported: Record<string, (...args: never[]) => unknown> = {
  useState: (initial: unknown) => [typeof initial === 'function' ? initial() : initial, refuseUpdate],
  useRef: (initial: unknown) => ({ current: initial }),
  useEffect: () => undefined,
  useLayoutEffect: () => undefined,
  useInsertionEffect: () => undefined,
  useCallback: (callback: unknown) => callback,
  useMemo: (create: () => unknown) => create(),
};

function refuseUpdate(): never {
  throw new InternalError('the HTML serializer cannot render a state update made while rendering (React would render the component again)');
}

/** Any hook not listed above fails, named, when called. */
const dispatcher = new Proxy(supported, {
  get: (hooks, name) =>
    Object.hasOwn(hooks, name)
      ? hooks[name as string]
      : () => {
          throw new InternalError(`the HTML serializer does not support the hook ${String(name)}; render this component with React (renderToString)`);
        },
});

interface Internals {
  /** The current hooks dispatcher, which React's hooks (useState, ...) call. */
  H: unknown;
}
const internals = (React as unknown as Record<string, Internals>).__CLIENT_INTERNALS_DO_NOT_USE_OR_WARN_USERS_THEY_CANNOT_UPGRADE!;

/** Runs `render` with the hooks answered as above; React's own dispatcher is put back after. */
export function withServerHooks<T>(render: () => T): T {
  const previous = internals.H;
  internals.H = dispatcher;
  try {
    return render();
  } finally {
    internals.H = previous;
  }
}
