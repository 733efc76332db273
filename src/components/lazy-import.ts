import { lazy, type ComponentType, type LazyExoticComponent } from 'react';

// Under jest, Node's native import() of a Babel-compiled module puts what webpack answers one
// level deeper, under `default`; these helpers read either form.

type PropsOf<C> = C extends ComponentType<infer P> ? P : never;

/** A module's default export, from what import() answered. */
export function defaultExport<T extends object>(loaded: { default: T | { default: T } }): T {
  const value = loaded.default;
  return 'default' in value ? (value as { default: T }).default : (value as T);
}

/** A module's named exports, from what import() answered. */
export function moduleExports<M extends object>(loaded: M | { default: M }, name: keyof M): M {
  return name in loaded ? (loaded as M) : (loaded as { default: M }).default;
}

/**
 * React.lazy for one named component of a module loaded with import(), e.g. a screen's forms,
 * which it needs only once a tab or dialog opens.
 */
export function lazyNamed<M extends object, K extends keyof M>(load: () => Promise<M>, name: K): LazyExoticComponent<ComponentType<PropsOf<M[K]>>> {
  return lazy(async () => {
    const module = moduleExports<M>(await load(), name);
    return { default: module[name] as ComponentType<PropsOf<M[K]>> };
  });
}
