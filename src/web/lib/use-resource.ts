// Loading one thing from the API for a screen: its data, the error to show, and a way to load it
// again after a change. An answer for an older request (the screen moved on) is dropped.
import { useSignal, type Signal } from "@preact/signals";
import { useEffect, useRef } from "preact/hooks";
import { ApiError } from "./api.ts";
import { t } from "./i18n.ts";

export interface Resource<T> {
  data: Signal<T | null>;
  error: Signal<string | null>;
  reload(): Promise<void>;
}

export function useResource<T>(load: () => Promise<T>, deps: unknown[], what: string): Resource<T> {
  const data = useSignal<T | null>(null);
  const error = useSignal<string | null>(null);
  const generation = useRef(0);
  const reload = async () => {
    const mine = ++generation.current;
    try {
      const value = await load();
      if (mine !== generation.current) return;
      data.value = value;
      error.value = null;
    } catch (e) {
      if (mine === generation.current)
        error.value = e instanceof ApiError ? e.description : t("resource.failed", { what });
    }
  };
  useEffect(() => {
    data.value = null;
    void reload();
  }, deps);
  return { data, error, reload };
}
