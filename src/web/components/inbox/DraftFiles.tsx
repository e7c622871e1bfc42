// Files waiting to go with the next message: added by the paperclip button, by dropping them on
// the reply box or by pasting (a screenshot), shown as chips with their size and a remove button,
// and a progress bar while they upload. A failed send keeps them (and the text) for another try.
import { useSignal, type Signal } from "@preact/signals";
import { useRef } from "preact/hooks";
import { fileSize } from "../../lib/format.ts";
import { t } from "../../lib/i18n.ts";

export interface DraftFiles {
  files: Signal<File[]>;
  /** 0…1 while uploading, else null. */
  progress: Signal<number | null>;
  add(list: FileList | readonly File[] | null | undefined): void;
  clear(): void;
  /** For the reply form: accepts dropped files. */
  dropProps: { onDragOver: (e: DragEvent) => void; onDrop: (e: DragEvent) => void };
  /** For the text box: a pasted file (a screenshot) becomes an attachment. */
  onPaste: (e: ClipboardEvent) => void;
}

export function useDraftFiles(): DraftFiles {
  const files = useSignal<File[]>([]);
  const progress = useSignal<number | null>(null);
  const add = (list: FileList | readonly File[] | null | undefined) => {
    if (list && list.length > 0) files.value = [...files.value, ...Array.from(list)];
  };
  return {
    files,
    progress,
    add,
    clear: () => ((files.value = []), (progress.value = null)),
    dropProps: {
      onDragOver: (e) => {
        if (e.dataTransfer?.types.includes("Files")) e.preventDefault();
      },
      onDrop: (e) => {
        if (!e.dataTransfer?.files.length) return;
        e.preventDefault();
        add(e.dataTransfer.files);
      },
    },
    onPaste: (e) => {
      const pasted = e.clipboardData?.files;
      if (!pasted?.length) return;
      e.preventDefault();
      add(pasted);
    },
  };
}

export function AttachButton({ draft }: { draft: DraftFiles }) {
  const input = useRef<HTMLInputElement>(null);
  return (
    <>
      <input
        ref={input}
        type="file"
        multiple
        class="visually-hidden"
        tabIndex={-1}
        aria-hidden="true"
        onChange={(e) => (draft.add(e.currentTarget.files), (e.currentTarget.value = ""))}
      />
      <button
        type="button"
        class="small"
        aria-label={t("files.attach")}
        title={t("files.attach")}
        onClick={() => input.current?.click()}
      >
        📎
      </button>
    </>
  );
}

export function DraftFileList({ draft }: { draft: DraftFiles }) {
  const files = draft.files.value;
  if (files.length === 0) return null;
  const progress = draft.progress.value;
  return (
    <div class="draft-files">
      <ul aria-label={t("files.to_send")}>
        {files.map((f, i) => (
          <li key={`${f.name}-${i}`} class="file-chip">
            <span>
              {f.name} <span class="file-size">({fileSize(f.size)})</span>
            </span>
            {progress === null && (
              <button
                type="button"
                class="small"
                aria-label={t("files.remove", { name: f.name })}
                onClick={() => (draft.files.value = files.filter((_, j) => j !== i))}
              >
                ×
              </button>
            )}
          </li>
        ))}
      </ul>
      {progress !== null && <progress max={1} value={progress} aria-label={t("files.uploading")} />}
    </div>
  );
}
