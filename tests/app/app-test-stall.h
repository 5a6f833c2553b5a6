/* app-test-stall.h — how long the main loop goes without answering, and the
 * heavy things an agent may send to make it so
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Shared by tests/app/test-stall.c (which asserts a bound) and
 * bench/app/bench-preview.c (which prints the figures).
 */

#pragma once

#include <gio/gio.h>
#include <string.h>
#include <time.h>

#include "atp.h"

/*
 * A timeout source every APP_TEST_STALL_TICK_MS on the default main context:
 * its lateness is how long anything else waiting on the main loop (a D-Bus
 * call to the app, a click, a frame) would have waited.
 */
#define APP_TEST_STALL_TICK_MS 10

typedef struct
{
  guint  source;
  gint64 last;
  gint64 last_cpu;
  gint64 worst;        /* µs beyond the tick */
  gint64 worst_busy;   /* µs of the main thread's CPU time between two ticks */
} AppTestStall;

/* The main thread's CPU time: on a loaded machine a stall is longer than the
 * work that caused it, and this is the work. */
static inline gint64
app_test_stall_cpu_time (void)
{
  struct timespec ts;

  clock_gettime (CLOCK_THREAD_CPUTIME_ID, &ts);
  return (gint64) ts.tv_sec * G_USEC_PER_SEC + ts.tv_nsec / 1000;
}

static inline gboolean
app_test_stall_tick (gpointer user_data)
{
  AppTestStall *stall = user_data;
  gint64 now = g_get_monotonic_time ();
  gint64 cpu = app_test_stall_cpu_time ();
  gint64 late = now - stall->last - APP_TEST_STALL_TICK_MS * 1000;

  stall->worst = MAX (stall->worst, late);
  stall->worst_busy = MAX (stall->worst_busy, cpu - stall->last_cpu);
  stall->last = now;
  stall->last_cpu = cpu;
  return G_SOURCE_CONTINUE;
}

static inline void
app_test_stall_start (AppTestStall *stall)
{
  stall->worst = 0;
  stall->worst_busy = 0;
  stall->last = g_get_monotonic_time ();
  stall->last_cpu = app_test_stall_cpu_time ();
  stall->source = g_timeout_add (APP_TEST_STALL_TICK_MS, app_test_stall_tick, stall);
}

/* Returns the worst lateness, in ms, since app_test_stall_start(). */
static inline double
app_test_stall_stop (AppTestStall *stall)
{
  app_test_stall_tick (stall);
  g_clear_handle_id (&stall->source, g_source_remove);

  return stall->worst / 1000.0;
}

/* ------------------------------------------------------------------ the cases */

/* One line of 600,000 characters without a space: a base64 blob, a hex dump. */
static inline GBytes *
app_test_stall_long_line (void)
{
  static const char alphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  gsize size = 600000;
  char *data = g_malloc (size);
  guint32 state = 1;

  for (gsize i = 0; i < size; i++)
    {
      state = state * 1103515245 + 12345;
      data[i] = alphabet[(state >> 16) % 64];
    }

  return g_bytes_new_take (data, size);
}

/* A minified JavaScript bundle: one line of 600,000 bytes, with punctuation. */
static inline GBytes *
app_test_stall_minified_js (void)
{
  GString *js = g_string_new ("!function(){\"use strict\";");

  for (guint i = 0; js->len < 600000; i++)
    g_string_append_printf (js,
                            "function f%u(a,b){return a.map(function(x){return x*b+%u})}"
                            "var v%u=f%u([1,2,3],%u),s%u=\"k%u\"+v%u.join(\",\");",
                            i, i, i, i, i, i, i, i);
  g_string_truncate (js, 600000 - 5);
  g_string_append (js, "}();");

  return g_string_free_to_bytes (js);
}

/* 100,000 short lines (a log). */
static inline GBytes *
app_test_stall_short_lines (void)
{
  GString *log = g_string_new (NULL);

  for (guint i = 0; i < 100000; i++)
    g_string_append_printf (log, "%06u ok\n", i);

  return g_string_free_to_bytes (log);
}

/* About 1 MB of JSON on one line (an API response, minified). */
static inline GBytes *
app_test_stall_json_line (void)
{
  GString *json = g_string_new ("[");

  for (guint i = 0; json->len < 1000000 - 100; i++)
    g_string_append_printf (json, "%s{\"id\":%u,\"name\":\"item %u\",\"tags\":[\"a\",\"b\"],"
                            "\"ok\":true}", i > 0 ? "," : "", i, i);
  g_string_append (json, "]");

  return g_string_free_to_bytes (json);
}

typedef struct
{
  const char  *name;
  const char  *type;
  const char  *description;
  GBytes    *(*make) (void);
  const char  *needle;      /* a text found only far beyond the cut of a long line */
} AppTestStallCase;

static const AppTestStallCase app_test_stall_cases[] = {
  { "long-line", "text/plain", "blob.txt", app_test_stall_long_line, NULL },
  { "minified-js", "application/javascript", "bundle.min.js", app_test_stall_minified_js,
    "f4000(" },
  { "short-lines", "text/plain", "run.log", app_test_stall_short_lines, "099999 ok" },
  { "json-line", "application/json", "response.json", app_test_stall_json_line,
    "\"item 12345\"" },
};

/* An inline attachment of @data, as a request brings it. */
static inline AtpAttachment *
app_test_stall_attachment (const AppTestStallCase *c,
                           GBytes                 *data)
{
  AtpAttachment *attachment = g_new0 (AtpAttachment, 1);
  gsize size;
  const guchar *bytes = g_bytes_get_data (data, &size);

  attachment->type = g_strdup (c->type);
  attachment->description = g_strdup (c->description);
  attachment->data = g_base64_encode (bytes, size);
  attachment->decoded_size = size;

  return attachment;
}

static inline void
app_test_stall_attachment_free (AtpAttachment *attachment)
{
  g_free (attachment->type);
  g_free (attachment->description);
  g_free (attachment->data);
  g_free (attachment);
}

/* @length characters of words of @word_length letters, or of none when 0. */
static inline char *
app_test_stall_words (gsize length,
                      gsize word_length)
{
  char *text = g_malloc (length + 1);

  for (gsize i = 0; i < length; i++)
    text[i] = (word_length > 0 && i % (word_length + 1) == word_length) ? ' ' : 'a' + i % 26;
  text[length] = '\0';

  return text;
}

/*
 * A request whose title is @title_length characters of one word, its
 * description @description_length of words, with a metadata value of
 * @value_length and an action label of @label_length (a simple action and a
 * choice, the label its option's too).
 */
static inline AtpNotification *
app_test_stall_request_sized (gsize title_length,
                              gsize description_length,
                              gsize value_length,
                              gsize label_length)
{
  g_autofree char *id = g_uuid_string_random ();
  g_autofree char *title = app_test_stall_words (title_length, 0);
  g_autofree char *description = app_test_stall_words (description_length, 7);
  g_autofree char *value = app_test_stall_words (value_length, 0);
  g_autofree char *label = app_test_stall_words (label_length, 0);
  g_autoptr(GDateTime) now = g_date_time_new_now_utc ();
  g_autofree char *ts = atp_format_timestamp (now);
  g_autofree char *json = NULL;
  g_autoptr(GError) error = NULL;
  AtpNotification *notification;

  json = g_strdup_printf ("{\"id\": \"%s\", \"version\": \"1.0\", \"timestamp\": \"%s\","
                          " \"service\": {\"id\": \"ci\", \"name\": \"CI\"},"
                          " \"context\": {\"title\": \"%s\", \"description\": \"%s\","
                          "   \"metadata\": {\"blob\": \"%s\"}},"
                          " \"actions\": [{\"id\": \"ok\", \"label\": \"%s\","
                          "   \"response_type\": \"simple\"},"
                          "  {\"id\": \"pick\", \"label\": \"%s\", \"response_type\": \"choice\","
                          "   \"options\": [{\"value\": \"a\", \"label\": \"%s\"},"
                          "                {\"value\": \"b\", \"label\": \"B\"}]}],"
                          " \"status\": \"delivered\"}",
                          id, ts, title, description, value, label, label, label);
  notification = atp_notification_new_from_data (json, -1, ATP_PARSE_DEFAULT, &error);
  g_assert_no_error (error);

  return notification;
}

/*
 * A request whose title and description are 100 kB each (the title one word,
 * the description words), with a 100 kB metadata value and a 10 kB action
 * label: what an agent's bug or malice could send.
 */
static inline AtpNotification *
app_test_stall_request (void)
{
  return app_test_stall_request_sized (100000, 100000, 100000, 10000);
}

/*
 * A request of one @response_type action ("choice" or "multi_choice") of
 * @n_options options ("Host 0"…), as many as a service may send
 * (ATP_MAX_CHOICE_OPTIONS), in under ATP's 1 MiB.
 */
static inline AtpNotification *
app_test_stall_request_options (const char *response_type,
                                guint       n_options)
{
  g_autofree char *id = g_uuid_string_random ();
  g_autoptr(GDateTime) now = g_date_time_new_now_utc ();
  g_autofree char *ts = atp_format_timestamp (now);
  g_autoptr(GString) json = g_string_new (NULL);
  g_autoptr(GError) error = NULL;
  AtpNotification *notification;

  g_string_append_printf (json, "{\"id\": \"%s\", \"version\": \"1.0\", \"timestamp\": \"%s\","
                          " \"service\": {\"id\": \"ci\", \"name\": \"CI\"},"
                          " \"context\": {\"title\": \"Which hosts?\","
                          "   \"description\": \"The hosts to restart tonight.\"},"
                          " \"actions\": [{\"id\": \"hosts\", \"label\": \"Hosts\","
                          "   \"response_type\": \"%s\", \"options\": [",
                          id, ts, response_type);
  for (guint i = 0; i < n_options; i++)
    g_string_append_printf (json, "%s{\"value\": \"h%u\", \"label\": \"Host %u\"}", i ? ", " : "", i, i);
  g_string_append (json, "]}], \"status\": \"delivered\"}");
  g_assert_cmpuint (json->len, <, 1024 * 1024);
  notification = atp_notification_new_from_data (json->str, json->len, ATP_PARSE_DEFAULT, &error);
  g_assert_no_error (error);

  return notification;
}

/* The process's resident memory now, in KiB (VmRSS), or 0 if unknown. */
static inline guint64
app_test_stall_rss_kib (void)
{
  g_autofree char *status = NULL;
  const char *line;

  if (!g_file_get_contents ("/proc/self/status", &status, NULL, NULL))
    return 0;
  line = strstr (status, "\nVmRSS:");

  return line != NULL ? g_ascii_strtoull (line + strlen ("\nVmRSS:"), NULL, 10) : 0;
}
