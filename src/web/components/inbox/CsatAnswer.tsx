// The customer's answer to a CSAT survey message (content_type input_csat): the rating out of 5
// and their comment, once they have submitted it.
import type { Message } from "../../lib/types.ts";
import { t } from "../../lib/i18n.ts";

interface CsatResponse {
  rating?: unknown;
  feedback_message?: unknown;
}

/** submitted_values may be one object or a list of them (Chatwoot accepts both). */
function responseOf(m: Message): CsatResponse | null {
  const raw = m.content_attributes.submitted_values;
  const items = Array.isArray(raw) ? raw : raw ? [raw] : [];
  for (const item of items) {
    const r = (item as { csat_survey_response?: CsatResponse } | null)?.csat_survey_response;
    if (r && typeof r === "object") return r;
  }
  return null;
}

export function CsatAnswer({ message }: { message: Message }) {
  const r = responseOf(message);
  if (!r) return <p class="csat pending">{t("csat.waiting")}</p>;
  const rating = typeof r.rating === "number" ? Math.max(0, Math.min(5, Math.round(r.rating))) : null;
  return (
    <div class="csat">
      {rating !== null && (
        <p class="csat-rating">
          <span aria-hidden="true">{"★".repeat(rating) + "☆".repeat(5 - rating)}</span> {t("csat.rated", { rating })}
        </p>
      )}
      {typeof r.feedback_message === "string" && r.feedback_message && (
        <blockquote class="csat-feedback">{r.feedback_message}</blockquote>
      )}
    </div>
  );
}
