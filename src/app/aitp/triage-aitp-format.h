/* triage-aitp-format.h
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>

#include "atp-aitp.h"

G_BEGIN_DECLS

/* The words of AITP's product facts. No GTK: tested without a display. */

/**
 * TriageAitpStar:
 * @TRIAGE_AITP_STAR_EMPTY: not reached
 * @TRIAGE_AITP_STAR_HALF: half reached
 * @TRIAGE_AITP_STAR_FULL: reached
 *
 * One of the five stars of a rating, drawn with a shape of its own (never
 * a colour alone), the number beside it.
 */
typedef enum
{
  TRIAGE_AITP_STAR_EMPTY,
  TRIAGE_AITP_STAR_HALF,
  TRIAGE_AITP_STAR_FULL,
} TriageAitpStar;

char          *triage_aitp_format_price        (double                 amount,
                                                const char            *currency);
char          *triage_aitp_format_plan_price   (const AtpAitpQuote    *quote);
char          *triage_aitp_format_rating       (double                 rating);
char          *triage_aitp_format_reviews      (gint64                 reviews_count);
char          *triage_aitp_describe_rating     (double                 rating,
                                                gint64                 reviews_count);
TriageAitpStar triage_aitp_star                (double                 rating,
                                                guint                  index);
char          *triage_aitp_format_quote_expiry (const AtpAitpQuote    *quote,
                                                GDateTime             *now);

G_END_DECLS
