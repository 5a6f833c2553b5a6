/* bench-stats.h — percentiles of the server benchmarks' samples
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>

static inline int
bench_compare_double (gconstpointer a,
                      gconstpointer b)
{
  double x = *(const double *) a, y = *(const double *) b;

  return (x > y) - (x < y);
}

/* The @p quantile (0–1) of @values (doubles; sorted in place), 0 for none. */
static inline double
bench_percentile (GArray *values,
                  double  p)
{
  if (values->len == 0)
    return 0;
  g_array_sort (values, bench_compare_double);
  return g_array_index (values, double, MIN (values->len - 1, (guint) (p * values->len)));
}
