// What a screen shows while its data is on the way: the error if loading failed, else "Loading…";
// nothing once the data is there.
import type { Resource } from "../lib/use-resource.ts";
import { t } from "../lib/i18n.ts";

export function LoadState({ resource }: { resource: Resource<unknown> }) {
  if (resource.error.value) return <p role="alert">{resource.error.value}</p>;
  if (resource.data.value === null) return <p role="status">{t("common.loading")}</p>;
  return null;
}
