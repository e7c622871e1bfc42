// The account's canned responses for the reply box's "/" picker: read when a reply box opens (a few
// hundred at most), so picking one needs no request.
import { useSignal, type Signal } from "@preact/signals";
import { useEffect } from "preact/hooks";
import { api } from "./api.ts";

export interface CannedResponseItem {
  id: number;
  short_code: string;
  content: string;
}

export function useCannedResponses(accountId: number): Signal<CannedResponseItem[]> {
  const list = useSignal<CannedResponseItem[]>([]);
  useEffect(() => {
    api<CannedResponseItem[]>("GET", `/api/v1/accounts/${accountId}/canned_responses`).then(
      (r) => (list.value = r),
      () => (list.value = []), // no picker is better than an error while typing
    );
  }, [accountId]);
  return list;
}
