/* triage-log-limit.h — a failure logged once, then counted
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* While the database stalls, every request fails the same way: a line for
 * each would bury the log (and cost a write each). Each call site logs its
 * first failure at once, then holds the next ones back for
 * TRIAGE_LOG_LIMIT_INTERVAL_S and says how many there were, with the last. */
#define TRIAGE_LOG_LIMIT_INTERVAL_S 10

typedef struct
{
  guint       interval_s;  /* 0: TRIAGE_LOG_LIMIT_INTERVAL_S */
  const char *domain;
  gint64      quiet_until; /* monotonic µs: a failure before then is held back */
  guint       held;        /* failures held back, not said yet */
  char       *last;        /* the last of them */
  guint       report;      /* the timeout that says them */
} TriageLogLimit;

void triage_log_limited (TriageLogLimit *limit,
                         const char     *domain,
                         const char     *format,
                         ...) G_GNUC_PRINTF (3, 4);

/* A message of the calling file's domain, limited per call site. */
#define triage_log_failure(...) \
  G_STMT_START { \
    static TriageLogLimit triage_log_limit_; \
    triage_log_limited (&triage_log_limit_, G_LOG_DOMAIN, __VA_ARGS__); \
  } G_STMT_END

G_END_DECLS
