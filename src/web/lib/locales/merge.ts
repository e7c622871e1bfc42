// One language's table from its areas (one file per area), typed as all their keys together.

type Merged<T extends readonly object[]> = T extends readonly [infer Head, ...infer Rest extends readonly object[]]
  ? Head & Merged<Rest>
  : unknown;

export function mergeAreas<T extends readonly object[]>(...areas: T): Merged<T> {
  return Object.assign({}, ...areas) as Merged<T>;
}
