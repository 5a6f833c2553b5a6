/* triage-aitp-format.c
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "triage-aitp-format"

#include <glib/gi18n.h>
#include <locale.h>
#include <math.h>
#include <monetary.h>

#include "triage-aitp-format.h"
#include "triage-decision-format.h"

/*
 * How a product's facts read: its price in the quote's currency formatted
 * for the person's locale, its rating as five stars with the number and the
 * count of reviews (and one sentence for a screen reader), and until when
 * its quote holds. AITP's quotes are in USD only today; the code does not
 * assume it.
 */

/**
 * triage_aitp_format_price:
 * @amount: a price
 * @currency: its ISO 4217 code ("USD")
 *
 * The locale's way with money (grouping, decimal sign, where the symbol
 * goes) when the locale's own currency is @currency ("$1,234.50" in
 * en_US); otherwise the amount written the locale's way and the code
 * after it ("1.234,50 USD" in de_DE, "1234.50 USD" in C): a person is never
 * shown their own currency's symbol for another currency.
 *
 * Returns: (transfer full): the price
 */
char *
triage_aitp_format_price (double      amount,
                          const char *currency)
{
  const struct lconv *conventions = localeconv ();
  char text[128];

  g_return_val_if_fail (currency != NULL, NULL);

  if (conventions->int_curr_symbol != NULL &&
      g_str_has_prefix (conventions->int_curr_symbol, currency) &&
      strfmon (text, sizeof text, "%.2n", amount) >= 0)
    return g_strdup (text);

  if (strfmon (text, sizeof text, "%!.2n", amount) < 0)
    g_snprintf (text, sizeof text, "%.2f", amount);

  /* Translators: a price and its currency code, e.g. "199.50 USD" */
  return g_strdup_printf (_("%1$s %2$s"), text, currency);
}

/**
 * triage_aitp_format_plan_price:
 * @quote: (nullable): a product's quote
 *
 * Returns: (transfer full) (nullable): the price of the quote's first payment
 *   plan (AITP's plans are one-time), %NULL when there is none
 */
char *
triage_aitp_format_plan_price (const AtpAitpQuote *quote)
{
  const AtpAitpPaymentPlan *plan;

  if (quote == NULL || quote->payment_plans->len == 0)
    return NULL;

  plan = g_ptr_array_index (quote->payment_plans, 0);
  return triage_aitp_format_price (plan->amount, plan->currency);
}

/**
 * triage_aitp_format_rating:
 * @rating: from 0 to 5
 *
 * Returns: (transfer full): the rating with one decimal, the locale's way ("4.2")
 */
char *
triage_aitp_format_rating (double rating)
{
  return g_strdup_printf ("%.1f", rating);
}

/**
 * triage_aitp_format_reviews:
 * @reviews_count: how many reviews, -1 when not known
 *
 * Returns: (transfer full) (nullable): "132 reviews", "1 review", %NULL when
 *   not known
 */
char *
triage_aitp_format_reviews (gint64 reviews_count)
{
  g_autofree char *count = NULL;

  if (reviews_count < 0)
    return NULL;

  count = g_strdup_printf ("%" G_GINT64_FORMAT, reviews_count);
  /* Translators: how many reviews a product has; %s is a number */
  return g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%s review", "%s reviews",
                                       (gulong) reviews_count), count);
}

/**
 * triage_aitp_describe_rating:
 * @rating: from 0 to 5
 * @reviews_count: how many reviews, -1 when not known
 *
 * Returns: (transfer full): the rating in one sentence, for a screen reader:
 *   "Rated 4.2 out of 5 from 132 reviews"
 */
char *
triage_aitp_describe_rating (double rating,
                             gint64 reviews_count)
{
  g_autofree char *number = triage_aitp_format_rating (rating);
  g_autofree char *count = NULL;

  if (reviews_count < 0)
    /* Translators: a product's rating, e.g. "Rated 4.2 out of 5" */
    return g_strdup_printf (_("Rated %s out of 5"), number);

  count = g_strdup_printf ("%" G_GINT64_FORMAT, reviews_count);
  /* Translators: a product's rating (%1$s) and how many reviews it is from
   * (%2$s), e.g. "Rated 4.2 out of 5 from 132 reviews" */
  return g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "Rated %1$s out of 5 from %2$s review",
                                       "Rated %1$s out of 5 from %2$s reviews",
                                       (gulong) reviews_count),
                          number, count);
}

/**
 * triage_aitp_star:
 * @rating: from 0 to 5
 * @index: which star, 0 to 4
 *
 * Returns: the star's shape: full from a quarter below its whole number,
 *   half from a quarter above the one before ("4.2": four full, one empty;
 *   "4.3": four full, one half)
 */
TriageAitpStar
triage_aitp_star (double rating,
                  guint  index)
{
  double part = rating - index;

  if (part >= 0.75)
    return TRIAGE_AITP_STAR_FULL;
  if (part >= 0.25)
    return TRIAGE_AITP_STAR_HALF;
  return TRIAGE_AITP_STAR_EMPTY;
}

/**
 * triage_aitp_format_quote_expiry:
 * @quote: (nullable): a product's quote
 * @now: the present
 *
 * Returns: (transfer full) (nullable): "Price valid until 14:05", or "Price
 *   expired at 14:05: it can no longer be chosen"; %NULL without a quote
 */
char *
triage_aitp_format_quote_expiry (const AtpAitpQuote *quote,
                                 GDateTime          *now)
{
  g_autofree char *time = NULL;

  if (quote == NULL)
    return NULL;

  time = triage_format_time (quote->valid_until, now);
  if (g_date_time_compare (now, quote->valid_until) >= 0)
    /* Translators: %s is when a product's price quote expired */
    return g_strdup_printf (_("Price expired at %s: it can no longer be chosen"), time);

  /* Translators: %s is when a product's price quote expires */
  return g_strdup_printf (_("Price valid until %s"), time);
}
