/* triage-history-stats.c
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "triage-history"

#include <glib/gi18n.h>

#include "triage-history-entry.h"
#include "triage-history-stats.h"

/*
 * What the chart draws: requests per day (or per few days, for long ranges)
 * by outcome and by service, and the median time to an answer given here,
 * overall, per bucket and per service. Built on the history's worker thread
 * row by row, then read-only. The services become series at the end: the
 * TRIAGE_HISTORY_STATS_MAX_SERIES busiest by name, the rest as one "Other"
 * (unless that would hold a single service, which then keeps its name).
 *
 * Buckets start at local midnights computed with GDateTime, so a day with a
 * daylight-saving change is still one day.
 */

struct _TriageHistoryStats
{
  grefcount            ref_count;

  guint                n_days;
  guint                days_per_bucket;
  guint                n_buckets;
  TriageHistoryBucket *buckets;
  GArray             **times;       /* per bucket, gint64; only until finish */
  GArray              *all_times;   /* only until finish */
  GHashTable          *services;    /* name -> ServiceTally; only until finish */
  GPtrArray           *series;      /* TriageHistorySeries, after finish */
  guint                totals[TRIAGE_HISTORY_N_CATEGORIES];
  guint                total;
  gint64               median_response;
  gboolean             finished;
};

typedef struct
{
  TriageHistorySeries  series;
  GArray              *times;   /* gint64 */
} ServiceTally;

static void
series_free (TriageHistorySeries *series)
{
  g_free (series->name);
  g_free (series->counts);
  g_free (series);
}

static void
service_tally_free (ServiceTally *tally)
{
  g_free (tally->series.name);
  g_free (tally->series.counts);
  g_clear_pointer (&tally->times, g_array_unref);
  g_free (tally);
}

G_DEFINE_BOXED_TYPE (TriageHistoryStats, triage_history_stats,
                     triage_history_stats_ref, triage_history_stats_unref)

static gint64
time_to_usec (GDateTime *time)
{
  return g_date_time_to_unix (time) * G_USEC_PER_SEC + g_date_time_get_microsecond (time);
}

/**
 * triage_history_stats_new:
 * @first_day: any time on the first day (taken in the local time zone)
 * @n_days: how many days, at least 1
 *
 * Returns: (transfer full): empty statistics for those days
 */
TriageHistoryStats *
triage_history_stats_new (GDateTime *first_day,
                          guint      n_days)
{
  g_autoptr(GDateTime) local = NULL;
  g_autoptr(GDateTime) midnight = NULL;
  TriageHistoryStats *self;

  g_return_val_if_fail (first_day != NULL, NULL);
  g_return_val_if_fail (n_days >= 1, NULL);

  local = g_date_time_to_local (first_day);
  midnight = g_date_time_new_local (g_date_time_get_year (local),
                                    g_date_time_get_month (local),
                                    g_date_time_get_day_of_month (local), 0, 0, 0);

  self = g_new0 (TriageHistoryStats, 1);
  g_ref_count_init (&self->ref_count);
  self->n_days = n_days;
  self->days_per_bucket = (n_days + TRIAGE_HISTORY_STATS_MAX_BUCKETS - 1) / TRIAGE_HISTORY_STATS_MAX_BUCKETS;
  self->n_buckets = (n_days + self->days_per_bucket - 1) / self->days_per_bucket;
  self->buckets = g_new0 (TriageHistoryBucket, self->n_buckets);
  self->times = g_new0 (GArray *, self->n_buckets);
  self->all_times = g_array_new (FALSE, FALSE, sizeof (gint64));
  self->services = g_hash_table_new_full (g_str_hash, g_str_equal, NULL,
                                          (GDestroyNotify) service_tally_free);
  self->series = g_ptr_array_new_with_free_func ((GDestroyNotify) series_free);
  self->median_response = -1;

  for (guint i = 0; i < self->n_buckets; i++)
    {
      g_autoptr(GDateTime) start = g_date_time_add_days (midnight, i * self->days_per_bucket);
      guint end_day = MIN ((i + 1) * self->days_per_bucket, n_days);
      g_autoptr(GDateTime) end = g_date_time_add_days (midnight, end_day);

      self->buckets[i].start = time_to_usec (start);
      self->buckets[i].end = time_to_usec (end);
      self->buckets[i].median_response = -1;
      self->times[i] = g_array_new (FALSE, FALSE, sizeof (gint64));
    }

  return self;
}

TriageHistoryStats *
triage_history_stats_ref (TriageHistoryStats *self)
{
  g_return_val_if_fail (self != NULL, NULL);

  g_ref_count_inc (&self->ref_count);

  return self;
}

static void
free_times (TriageHistoryStats *self)
{
  if (self->times != NULL)
    {
      for (guint i = 0; i < self->n_buckets; i++)
        g_clear_pointer (&self->times[i], g_array_unref);
      g_clear_pointer (&self->times, g_free);
    }
  g_clear_pointer (&self->all_times, g_array_unref);
  g_clear_pointer (&self->services, g_hash_table_unref);
}

void
triage_history_stats_unref (TriageHistoryStats *self)
{
  g_return_if_fail (self != NULL);

  if (!g_ref_count_dec (&self->ref_count))
    return;

  free_times (self);
  g_ptr_array_unref (self->series);
  g_free (self->buckets);
  g_free (self);
}

TriageHistoryCategory
triage_history_category_for_outcome (TriageOutcome outcome)
{
  switch (outcome)
    {
    case TRIAGE_OUTCOME_ANSWERED:
      return TRIAGE_HISTORY_CATEGORY_ANSWERED;
    case TRIAGE_OUTCOME_ANSWERED_ELSEWHERE:
      return TRIAGE_HISTORY_CATEGORY_ANSWERED_ELSEWHERE;
    case TRIAGE_OUTCOME_EXPIRED:
      return TRIAGE_HISTORY_CATEGORY_EXPIRED;
    case TRIAGE_OUTCOME_INVALIDATED:
      return TRIAGE_HISTORY_CATEGORY_WITHDRAWN;
    case TRIAGE_OUTCOME_REJECTED:
      return TRIAGE_HISTORY_CATEGORY_REFUSED;
    case TRIAGE_OUTCOME_GONE:
      return TRIAGE_HISTORY_CATEGORY_GONE;
    case TRIAGE_OUTCOME_NONE:
    default:
      return TRIAGE_HISTORY_CATEGORY_PENDING;
    }
}

/**
 * triage_history_category_label:
 *
 * Returns: the category in words, for the legend
 */
const char *
triage_history_category_label (TriageHistoryCategory category)
{
  static const TriageOutcome outcomes[] = {
    [TRIAGE_HISTORY_CATEGORY_ANSWERED] = TRIAGE_OUTCOME_ANSWERED,
    [TRIAGE_HISTORY_CATEGORY_ANSWERED_ELSEWHERE] = TRIAGE_OUTCOME_ANSWERED_ELSEWHERE,
    [TRIAGE_HISTORY_CATEGORY_EXPIRED] = TRIAGE_OUTCOME_EXPIRED,
    [TRIAGE_HISTORY_CATEGORY_WITHDRAWN] = TRIAGE_OUTCOME_INVALIDATED,
    [TRIAGE_HISTORY_CATEGORY_REFUSED] = TRIAGE_OUTCOME_REJECTED,
    [TRIAGE_HISTORY_CATEGORY_GONE] = TRIAGE_OUTCOME_GONE,
    [TRIAGE_HISTORY_CATEGORY_PENDING] = TRIAGE_OUTCOME_NONE,
  };

  g_return_val_if_fail (category < TRIAGE_HISTORY_N_CATEGORIES, NULL);

  return triage_history_outcome_label (outcomes[category]);
}

/**
 * triage_history_stats_add:
 * @self: statistics being built
 * @service: (nullable): the service's name
 * @created_at: when the request was sent (Unix microseconds)
 * @outcome: what became of it
 * @response_time: microseconds to an answer given here, -1 if none
 *
 * Counts one request; one outside the days is ignored.
 */
void
triage_history_stats_add (TriageHistoryStats *self,
                          const char         *service,
                          gint64              created_at,
                          TriageOutcome       outcome,
                          gint64              response_time)
{
  TriageHistoryBucket *bucket;
  ServiceTally *tally;
  TriageHistoryCategory category;
  guint lo = 0;
  guint hi;

  g_return_if_fail (self != NULL);
  g_return_if_fail (!self->finished);

  if (created_at < self->buckets[0].start || created_at >= self->buckets[self->n_buckets - 1].end)
    return;

  /* The last bucket that starts at or before the time. */
  hi = self->n_buckets;
  while (hi - lo > 1)
    {
      guint mid = lo + (hi - lo) / 2;

      if (self->buckets[mid].start <= created_at)
        lo = mid;
      else
        hi = mid;
    }

  bucket = &self->buckets[lo];
  category = triage_history_category_for_outcome (outcome);
  bucket->counts[category]++;
  bucket->total++;
  self->totals[category]++;
  self->total++;

  if (service == NULL)
    service = "";
  tally = g_hash_table_lookup (self->services, service);
  if (tally == NULL)
    {
      tally = g_new0 (ServiceTally, 1);
      tally->series.name = g_strdup (service);
      tally->series.n_services = 1;
      tally->series.counts = g_new0 (guint, self->n_buckets);
      tally->times = g_array_new (FALSE, FALSE, sizeof (gint64));
      g_hash_table_insert (self->services, tally->series.name, tally);
    }
  tally->series.counts[lo]++;
  tally->series.total++;

  if (response_time >= 0)
    {
      g_array_append_val (self->times[lo], response_time);
      g_array_append_val (self->all_times, response_time);
      g_array_append_val (tally->times, response_time);
    }
}

static int
compare_int64 (gconstpointer a,
               gconstpointer b)
{
  gint64 x = *(const gint64 *) a;
  gint64 y = *(const gint64 *) b;

  return (x > y) - (x < y);
}

static gint64
median (GArray *times)
{
  gint64 *values = (gint64 *) (gpointer) times->data;

  if (times->len == 0)
    return -1;

  g_array_sort (times, compare_int64);
  if (times->len % 2 == 1)
    return values[times->len / 2];

  return values[times->len / 2 - 1] + (values[times->len / 2] - values[times->len / 2 - 1]) / 2;
}

/* Most requests first; equal ones by name, so the order is stable. */
static int
compare_tallies (gconstpointer a,
                 gconstpointer b)
{
  const ServiceTally *x = *(ServiceTally * const *) a;
  const ServiceTally *y = *(ServiceTally * const *) b;

  if (x->series.total != y->series.total)
    return x->series.total > y->series.total ? -1 : 1;

  return g_utf8_collate (x->series.name, y->series.name);
}

static void
build_series (TriageHistoryStats *self)
{
  g_autoptr(GPtrArray) tallies = g_ptr_array_new ();
  g_autoptr(GArray) other_times = g_array_new (FALSE, FALSE, sizeof (gint64));
  TriageHistorySeries *other = NULL;
  GHashTableIter iter;
  gpointer value;
  guint named;

  g_hash_table_iter_init (&iter, self->services);
  while (g_hash_table_iter_next (&iter, NULL, &value))
    g_ptr_array_add (tallies, value);

  g_ptr_array_sort (tallies, compare_tallies);
  named = tallies->len <= TRIAGE_HISTORY_STATS_MAX_SERIES + 1
    ? tallies->len : TRIAGE_HISTORY_STATS_MAX_SERIES;

  for (guint i = 0; i < tallies->len; i++)
    {
      ServiceTally *tally = g_ptr_array_index (tallies, i);

      if (i < named)
        {
          TriageHistorySeries *series = g_new0 (TriageHistorySeries, 1);

          *series = tally->series;
          series->name = g_strdup (tally->series.name);
          series->counts = g_memdup2 (tally->series.counts, sizeof (guint) * self->n_buckets);
          series->median_response = median (tally->times);
          g_ptr_array_add (self->series, series);
          continue;
        }

      if (other == NULL)
        {
          other = g_new0 (TriageHistorySeries, 1);
          other->counts = g_new0 (guint, self->n_buckets);
        }
      other->n_services++;
      other->total += tally->series.total;
      for (guint b = 0; b < self->n_buckets; b++)
        other->counts[b] += tally->series.counts[b];
      g_array_append_vals (other_times, tally->times->data, tally->times->len);
    }

  if (other != NULL)
    {
      other->median_response = median (other_times);
      g_ptr_array_add (self->series, other);
    }
}

/**
 * triage_history_stats_finish:
 *
 * Computes the medians and the series; no request can be added after this.
 */
void
triage_history_stats_finish (TriageHistoryStats *self)
{
  g_return_if_fail (self != NULL);

  if (self->finished)
    return;

  for (guint i = 0; i < self->n_buckets; i++)
    self->buckets[i].median_response = median (self->times[i]);
  self->median_response = median (self->all_times);
  build_series (self);

  free_times (self);
  self->finished = TRUE;
}

gint64
triage_history_stats_get_start (TriageHistoryStats *self)
{
  g_return_val_if_fail (self != NULL, 0);

  return self->buckets[0].start;
}

gint64
triage_history_stats_get_end (TriageHistoryStats *self)
{
  g_return_val_if_fail (self != NULL, 0);

  return self->buckets[self->n_buckets - 1].end;
}

guint
triage_history_stats_get_n_days (TriageHistoryStats *self)
{
  g_return_val_if_fail (self != NULL, 0);

  return self->n_days;
}

guint
triage_history_stats_get_days_per_bucket (TriageHistoryStats *self)
{
  g_return_val_if_fail (self != NULL, 0);

  return self->days_per_bucket;
}

guint
triage_history_stats_get_n_buckets (TriageHistoryStats *self)
{
  g_return_val_if_fail (self != NULL, 0);

  return self->n_buckets;
}

const TriageHistoryBucket *
triage_history_stats_get_bucket (TriageHistoryStats *self,
                                 guint               index)
{
  g_return_val_if_fail (self != NULL, NULL);
  g_return_val_if_fail (index < self->n_buckets, NULL);

  return &self->buckets[index];
}

guint
triage_history_stats_get_total (TriageHistoryStats *self)
{
  g_return_val_if_fail (self != NULL, 0);

  return self->total;
}

guint
triage_history_stats_get_count (TriageHistoryStats    *self,
                                TriageHistoryCategory  category)
{
  g_return_val_if_fail (self != NULL, 0);
  g_return_val_if_fail (category < TRIAGE_HISTORY_N_CATEGORIES, 0);

  return self->totals[category];
}

/**
 * triage_history_stats_get_median_response:
 *
 * Returns: the median time to an answer given here over all days, in
 *   microseconds; -1 if there was none (or before finish)
 */
gint64
triage_history_stats_get_median_response (TriageHistoryStats *self)
{
  g_return_val_if_fail (self != NULL, -1);

  return self->median_response;
}

guint
triage_history_stats_get_max_bucket_total (TriageHistoryStats *self)
{
  guint max = 0;

  g_return_val_if_fail (self != NULL, 0);

  for (guint i = 0; i < self->n_buckets; i++)
    max = MAX (max, self->buckets[i].total);

  return max;
}

gint64
triage_history_stats_get_max_median (TriageHistoryStats *self)
{
  gint64 max = -1;

  g_return_val_if_fail (self != NULL, -1);

  for (guint i = 0; i < self->n_buckets; i++)
    max = MAX (max, self->buckets[i].median_response);

  return max;
}

guint
triage_history_stats_get_n_series (TriageHistoryStats *self)
{
  g_return_val_if_fail (self != NULL, 0);

  return self->series->len;
}

/**
 * triage_history_stats_get_series:
 * @self: finished statistics
 * @index: a series, below triage_history_stats_get_n_series()
 *
 * Returns: (transfer none): the series, busiest first, "Other" last
 */
const TriageHistorySeries *
triage_history_stats_get_series (TriageHistoryStats *self,
                                 guint               index)
{
  g_return_val_if_fail (self != NULL, NULL);
  g_return_val_if_fail (index < self->series->len, NULL);

  return g_ptr_array_index (self->series, index);
}

gint64
triage_history_stats_get_max_series_median (TriageHistoryStats *self)
{
  gint64 max = -1;

  g_return_val_if_fail (self != NULL, -1);

  for (guint i = 0; i < self->series->len; i++)
    max = MAX (max, ((TriageHistorySeries *) g_ptr_array_index (self->series, i))->median_response);

  return max;
}

static char *
format_day (gint64 usec)
{
  g_autoptr(GDateTime) time = g_date_time_new_from_unix_local (usec / G_USEC_PER_SEC);

  /* Translators: a day in the chart's summary; a strftime format (see its manual page) */
  return g_date_time_format (time, C_("chart day", "%Y-%m-%d"));
}

/* One sentence of the chart's summary: how many requests ended one way. */
static char *
category_sentence (TriageHistoryCategory category,
                 guint                 n)
{
  switch (category)
    {
    case TRIAGE_HISTORY_CATEGORY_ANSWERED:
      return g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u answered here.",
                                           "%u answered here.", n), n);
    case TRIAGE_HISTORY_CATEGORY_ANSWERED_ELSEWHERE:
      return g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u answered elsewhere.",
                                           "%u answered elsewhere.", n), n);
    case TRIAGE_HISTORY_CATEGORY_EXPIRED:
      return g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u expired.", "%u expired.", n), n);
    case TRIAGE_HISTORY_CATEGORY_WITHDRAWN:
      return g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u withdrawn.", "%u withdrawn.", n), n);
    case TRIAGE_HISTORY_CATEGORY_REFUSED:
      return g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u refused by the server.",
                                           "%u refused by the server.", n), n);
    case TRIAGE_HISTORY_CATEGORY_GONE:
      return g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u no longer on the server.",
                                           "%u no longer on the server.", n), n);
    case TRIAGE_HISTORY_CATEGORY_PENDING:
      return g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u pending.", "%u pending.", n), n);
    case TRIAGE_HISTORY_N_CATEGORIES:
    default:
      g_return_val_if_reached (NULL);
    }
}

/* One service's sentence in the chart's summary. */
static char *
series_sentence (const TriageHistorySeries *series)
{
  g_autofree char *name = NULL;
  g_autofree char *duration = NULL;

  if (series->name == NULL)
    /* Translators: in the chart's summary, the services not named, together */
    name = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u other service",
                                         "%u other services", series->n_services),
                            series->n_services);
  else
    name = g_strdup (series->name[0] != '\0' ? series->name : _("No service"));

  if (series->median_response < 0)
    /* Translators: chart summary; a service's name, then a count */
    return g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                         "%s: %u request, none answered here.",
                                         "%s: %u requests, none answered here.",
                                         series->total), name, series->total);

  duration = triage_history_format_duration (series->median_response);
  /* Translators: chart summary; a service's name, a count, a duration like "3 min" */
  return g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                       "%s: %u request, median response time %s.",
                                       "%s: %u requests, median response time %s.",
                                       series->total), name, series->total, duration);
}

/**
 * triage_history_stats_dup_summary:
 * @self: finished statistics
 * @service: (nullable): the service shown, %NULL for all of them
 *
 * Returns: (transfer full): the chart in words (its accessible description)
 */
char *
triage_history_stats_dup_summary (TriageHistoryStats *self,
                                  const char         *service)
{
  g_autofree char *first = NULL;
  g_autofree char *last = NULL;
  GString *text;

  g_return_val_if_fail (self != NULL, NULL);

  first = format_day (self->buckets[0].start);
  /* The last day is the one before the end (a midnight). */
  last = format_day (self->buckets[self->n_buckets - 1].end - G_USEC_PER_SEC);

  text = g_string_new (NULL);

  if (self->total == 0 && service == NULL)
    /* Translators: chart summary; the first and the last day */
    g_string_append_printf (text, _("From %s to %s, all services: no requests."), first, last);
  else if (self->total == 0)
    /* Translators: chart summary; the first and the last day, then a service's name */
    g_string_append_printf (text, _("From %s to %s, %s: no requests."), first, last, service);
  else if (service == NULL)
    /* Translators: chart summary; the first and the last day, then a count */
    g_string_append_printf (text, g_dngettext (GETTEXT_PACKAGE,
                                               "From %s to %s, all services: %u request.",
                                               "From %s to %s, all services: %u requests.",
                                               self->total), first, last, self->total);
  else
    /* Translators: chart summary; the first and the last day, a service's name, a count */
    g_string_append_printf (text, g_dngettext (GETTEXT_PACKAGE,
                                               "From %s to %s, %s: %u request.",
                                               "From %s to %s, %s: %u requests.",
                                               self->total), first, last, service, self->total);

  if (self->total == 0)
    return g_string_free (text, FALSE);

  for (guint c = 0; c < TRIAGE_HISTORY_N_CATEGORIES; c++)
    {
      g_autofree char *sentence = NULL;

      if (self->totals[c] == 0)
        continue;

      sentence = category_sentence (c, self->totals[c]);
      g_string_append_c (text, ' ');
      g_string_append (text, sentence);
    }

  if (self->median_response >= 0)
    {
      g_autofree char *duration = triage_history_format_duration (self->median_response);

      g_string_append_c (text, ' ');
      /* Translators: chart summary; %s is a duration like "3 min" */
      g_string_append_printf (text, _("Median response time: %s."), duration);
    }

  /* The chart's bars and second panel, service by service. */
  if (service == NULL || self->series->len > 1)
    for (guint i = 0; i < self->series->len; i++)
      {
        g_autofree char *sentence = series_sentence (g_ptr_array_index (self->series, i));

        g_string_append_c (text, ' ');
        g_string_append (text, sentence);
      }

  return g_string_free (text, FALSE);
}
