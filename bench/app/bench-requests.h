/* bench-requests.h — what the agents of bench-app post
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <libsoup/soup.h>

G_BEGIN_DECLS

/* Sends @body (taken) to @path and checks the answer is @expected; returns the
 * request's id when the answer names one. */
char *bench_send_request      (SoupSession *session,
                               const char  *method,
                               const char  *path,
                               char        *body,
                               guint        expected);
/* An ATP request, flagged time_sensitive when @urgent. */
char *bench_post_request      (SoupSession *session,
                               const char  *title,
                               gboolean     urgent);
char *bench_post_decision     (SoupSession *session,
                               const char  *title);
char *bench_post_due_request  (SoupSession *session,
                               const char  *title);
void  bench_withdraw_request  (SoupSession *session,
                               const char  *id);

/* The Request Object of every AFP review the benchmark asks for, as text. */
char *bench_review_request    (void);
/* The same review posted by the bench process itself (what triage-ask --afp
 * posts, with no process to start), due in four minutes; returns its id. */
char *bench_post_review       (SoupSession *session,
                               const char  *title);
void  bench_withdraw_review   (SoupSession *session,
                               const char  *id);

G_END_DECLS
