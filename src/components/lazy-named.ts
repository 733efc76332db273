import { lazy, type ComponentType, type LazyExoticComponent } from 'react';

type PropsOf<C> = C extends ComponentType<infer P> ? P : never;

/**
 * React.lazy for one named component of a module loaded with import(), e.g. a screen's forms,
 * which it needs only once a tab or dialog opens. Under jest, Node's native import() of a
 * Babel-compiled module may put the exports under `default`.
 */
export function lazyNamed<M extends object, K extends keyof M>(load: () => Promise<M>, name: K): LazyExoticComponent<ComponentType<PropsOf<M[K]>>> {
  return lazy(async () => {
    const loaded: M | { default: M } = await load();
    const module = name in loaded ? (loaded as M) : (loaded as { default: M }).default;
    return { default: module[name] as ComponentType<PropsOf<M[K]>> };
  });
}
