// A CSAT survey in the thread: five rating buttons and optional feedback; once answered, the
// rating given and a thank-you.
import { useState } from "preact/hooks";
import type { Message } from "../lib/api.ts";
import type { Strings } from "../lib/i18n.ts";
import type { ChatSession } from "../lib/session.ts";

const FACES = ["😞", "😕", "😐", "🙂", "😀"];

export function Csat({ m, t, session }: { m: Message; t: Strings; session: ChatSession }) {
  const answered = m.content_attributes?.submitted_values?.csat_survey_response as { rating?: number } | undefined;
  const [rating, setRating] = useState<number>(answered?.rating ?? 0);
  const [feedback, setFeedback] = useState("");
  if (answered?.rating)
    return (
      <li class="msg theirs csat done">
        <div class="text">
          {FACES[answered.rating - 1]} {t.thanks}
        </div>
      </li>
    );
  return (
    <li class="msg theirs csat">
      <form
        class="text"
        onSubmit={(e) => {
          e.preventDefault();
          if (rating) void session.answerCsat(m, rating, feedback.trim()).catch(() => {});
        }}
      >
        <p>{m.content || t.rate}</p>
        <fieldset class="faces">
          <legend class="sr">{t.rate}</legend>
          {FACES.map((face, i) => (
            <button
              type="button"
              key={face}
              aria-pressed={rating === i + 1}
              aria-label={t.rating[i]}
              class={rating === i + 1 ? "picked" : ""}
              onClick={() => setRating(i + 1)}
            >
              {face}
            </button>
          ))}
        </fieldset>
        {rating > 0 && (
          <>
            <label class="sr" for={`fb-${m.id}`}>
              {t.feedback}
            </label>
            <textarea
              id={`fb-${m.id}`}
              rows={2}
              placeholder={t.feedback}
              value={feedback}
              onInput={(e) => setFeedback(e.currentTarget.value)}
            />
            <button type="submit" class="primary">
              {t.submit}
            </button>
          </>
        )}
      </form>
    </li>
  );
}
