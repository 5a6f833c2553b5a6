/* triage-server-log.c
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Where the server's log goes, and its line per request.
 *
 * Every message is GLib structured logging, so under systemd its fields
 * reach the journal as fields (TRIAGE_ROUTE=…, TRIAGE_STATUS=…). With
 * --log-format=json each message is one JSON object per line on standard
 * error, for containers; with text (or auto without a journal) one line of
 * text. The request lines (domain triage-server-access, level INFO) are
 * always written; other INFO and DEBUG messages only with G_MESSAGES_DEBUG,
 * as GLib's own writer does. Nothing here ever holds a token or a body: the
 * request line names the caller by the id its token stands for.
 */

#define G_LOG_DOMAIN "triage-server"

#include <locale.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <gio/gio.h>
#include <json-glib/json-glib.h>

#include "triage-server-private.h"

#define ACCESS_DOMAIN "triage-server-access"

typedef enum
{
  LOG_TEXT,
  LOG_JSON,
  LOG_JOURNAL,
} LogFormat;

static LogFormat log_format = LOG_TEXT;
/* Whether text lines are coloured: standard error does not change, so it is
 * asked once (GLib's writer asks isatty () again for every line). */
static gboolean use_color;

/* Whether a request line in text is formatted here (append_access_line)
 * rather than by GLib's writer: set up once the format is text, without
 * colour (a terminal's) and without G_MESSAGES_PREFIXED (the program's
 * name and pid before a line), which GLib's writer would add. */
static gboolean access_text_here;

/* The local time of day of the second last written, "HH:MM:SS". */
static gint64 stamp_second = -1;
static char stamp_text[16];

/* The request lines of this turn of the main loop, written together as it
 * ends (flush_source): under load a turn answers several requests, and each
 * line was a write () of its own. The price: a crash loses the lines of the
 * turn it happens in. Any other message writes them first, so the order of
 * lines holds. */
static GString *pending;
static GMutex pending_lock;
static GSource *flush_source;

static void
flush_pending_locked (void)
{
  if (pending == NULL || pending->len == 0)
    return;
  fwrite (pending->str, 1, pending->len, stderr);
  fflush (stderr);
  g_string_truncate (pending, 0);
}

/* Writes the request lines held, if any. */
void
triage_server_log_flush (void)
{
  g_mutex_lock (&pending_lock);
  flush_pending_locked ();
  g_mutex_unlock (&pending_lock);
}

/* Called before the main loop polls: the turn is over. */
static gboolean
flush_prepare (GSource *source,
               int     *timeout)
{
  *timeout = -1;
  triage_server_log_flush ();
  return FALSE;
}

static GSourceFuncs flush_funcs = { flush_prepare, NULL, NULL, NULL, NULL, NULL };

/* @text, a line without its newline, goes out now, or with the turn's
 * request lines when @held; either way after the lines held before it, in
 * one write. */
static void
emit_line (const char *text,
           gboolean    held)
{
  g_mutex_lock (&pending_lock);
  if (pending == NULL)
    pending = g_string_sized_new (4096);
  g_string_append (pending, text);
  g_string_append_c (pending, '\n');
  if (!held || flush_source == NULL)
    flush_pending_locked ();
  g_mutex_unlock (&pending_lock);
}

static const char *
level_name (GLogLevelFlags level)
{
  if (level & G_LOG_LEVEL_ERROR)
    return "error";
  if (level & G_LOG_LEVEL_CRITICAL)
    return "critical";
  if (level & G_LOG_LEVEL_WARNING)
    return "warning";
  if (level & G_LOG_LEVEL_MESSAGE)
    return "message";
  if (level & G_LOG_LEVEL_INFO)
    return "info";
  return "debug";
}

/* TRIAGE_REQUEST_ID → "request_id"; MESSAGE → "message"; GLib's own and
 * the journal's bookkeeping fields are left out. */
static char *
json_key (const char *field)
{
  if (g_str_has_prefix (field, "TRIAGE_"))
    field += strlen ("TRIAGE_");
  else if (strcmp (field, "MESSAGE") == 0 || strcmp (field, "GLIB_DOMAIN") == 0)
    field = strcmp (field, "MESSAGE") == 0 ? "message" : "domain";
  else
    return NULL;
  return g_ascii_strdown (field, -1);
}

static GLogWriterOutput
write_json (GLogLevelFlags   level,
            const GLogField *fields,
            gsize            n_fields,
            gboolean         held)
{
  g_autoptr(JsonBuilder) builder = json_builder_new ();
  g_autoptr(JsonNode) root = NULL;
  g_autoptr(GDateTime) now = g_date_time_new_now_utc ();
  g_autofree char *time = g_date_time_format_iso8601 (now);
  g_autofree char *text = NULL;

  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "time");
  json_builder_add_string_value (builder, time);
  json_builder_set_member_name (builder, "level");
  json_builder_add_string_value (builder, level_name (level));
  for (gsize i = 0; i < n_fields; i++)
    {
      g_autofree char *key = json_key (fields[i].key);
      g_autofree char *value = NULL;

      if (key == NULL)
        continue;
      /* A file name or a database's message need not be UTF-8: the line
       * stays JSON (a byte that is not, U+FFFD). */
      value = g_utf8_make_valid (fields[i].value, fields[i].length);
      json_builder_set_member_name (builder, key);
      /* Numbers stay numbers, so a log pipeline can compare them. */
      if (strcmp (key, "status") == 0 || strcmp (key, "duration_us") == 0)
        json_builder_add_int_value (builder, g_ascii_strtoll (value, NULL, 10));
      else
        json_builder_add_string_value (builder, value);
    }
  json_builder_end_object (builder);
  root = json_builder_get_root (builder);
  text = json_to_string (root, FALSE);
  emit_line (text, held);
  return G_LOG_WRITER_HANDLED;
}

static const char *
field_value (const GLogField *fields,
             gsize            n_fields,
             const char      *key)
{
  for (gsize i = 0; i < n_fields; i++)
    if (strcmp (fields[i].key, key) == 0 && fields[i].length < 0)
      return fields[i].value;
  return NULL;
}

static GLogWriterOutput
writer (GLogLevelFlags   level,
        const GLogField *fields,
        gsize            n_fields,
        gpointer         data)
{
  const char *domain = field_value (fields, n_fields, "GLIB_DOMAIN");
  gboolean access = g_strcmp0 (domain, ACCESS_DOMAIN) == 0;

  if (!access && g_log_writer_default_would_drop (level, domain))
    return G_LOG_WRITER_HANDLED;
  switch (log_format)
    {
    case LOG_JSON:
      return write_json (level, fields, n_fields, access);
    case LOG_JOURNAL:
      triage_server_log_flush ();
      if (g_log_writer_journald (level, fields, n_fields, data) == G_LOG_WRITER_HANDLED)
        return G_LOG_WRITER_HANDLED;
      G_GNUC_FALLTHROUGH;
    case LOG_TEXT:
    default:
      {
        /* GLib's line, as g_log_writer_standard_streams () writes it (all
         * to standard error here: g_log_writer_default_set_use_stderr ()). */
        g_autofree char *text = g_log_writer_format_fields (level, fields, n_fields, use_color);

        emit_line (text, access);
        return G_LOG_WRITER_HANDLED;
      }
    }
}

static void
drop_message (const char     *domain,
              GLogLevelFlags  level,
              const char     *message,
              gpointer        data)
{
}

/* --log-format: auto (the journal when standard error is connected to it,
 * else text), text or json. */
gboolean
triage_server_setup_log (const char  *format,
                         GError     **error)
{
  if (format == NULL || strcmp (format, "auto") == 0)
    log_format = g_log_writer_is_journald (fileno (stderr)) ? LOG_JOURNAL : LOG_TEXT;
  else if (strcmp (format, "text") == 0)
    log_format = LOG_TEXT;
  else if (strcmp (format, "json") == 0)
    log_format = LOG_JSON;
  else
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                   "--log-format %s: expected auto, text or json", format);
      return FALSE;
    }
  /* The character set of the environment's locale (GLib's writers convert
   * each line to it): without this the C library stays in the "C" locale,
   * whose charset is ASCII, and every request line went through
   * g_convert_with_fallback () (14,000 instructions a request under
   * callgrind), escaping any non-ASCII character. Only LC_CTYPE: numbers
   * and dates keep the C locale's format. */
  setlocale (LC_CTYPE, "");
  /* GLib's text line stamps the time with localtime (), which without TZ
   * looks at /etc/localtime again for every line (a stat () a request);
   * named, it is read once. Set here, before any thread starts. The price:
   * a change of the machine's zone shows in the log after a restart. */
  if (g_getenv ("TZ") == NULL)
    g_setenv ("TZ", ":/etc/localtime", TRUE);
  /* Standard output is for --print-address; INFO would go there otherwise. */
  g_log_writer_default_set_use_stderr (TRUE);
  use_color = g_log_writer_supports_color (fileno (stderr));
  access_text_here = log_format == LOG_TEXT && !use_color &&
                     g_getenv ("G_MESSAGES_PREFIXED") == NULL;
  g_log_set_writer_func (writer, NULL, NULL);
  /* Before every other source's prepare (); it never dispatches. */
  if (flush_source == NULL)
    {
      flush_source = g_source_new (&flush_funcs, sizeof (GSource));
      g_source_set_priority (flush_source, G_MININT / 2);
      g_source_set_name (flush_source, "request log flush");
      g_source_attach (flush_source, NULL);
    }
  /* libsoup logs with g_debug (), two messages a WebSocket frame: GLib's
   * g_logv () formats every message before it looks for a handler, so that
   * much is spent whatever is done with it; a handler of libsoup's debug
   * level spares the rest (GLib's default handler, its fields, this
   * writer's look at G_MESSAGES_DEBUG), when they would be dropped anyway. */
  if (g_log_writer_default_would_drop (G_LOG_LEVEL_DEBUG, "libsoup"))
    g_log_set_handler ("libsoup", G_LOG_LEVEL_DEBUG, drop_message, NULL);
  return TRUE;
}

/* @value's decimal digits at @out (at least @min_digits, zero-filled);
 * returns the end. Not printf: its format parsed for every request line. */
static char *
put_decimal (char   *out,
             guint64 value,
             int     min_digits)
{
  char digits[24];
  int n = 0;

  do
    {
      digits[n++] = (char) ('0' + value % 10);
      value /= 10;
    }
  while (value != 0);
  while (n < min_digits)
    digits[n++] = '0';
  while (n > 0)
    *out++ = digits[--n];
  *out = '\0';
  return out;
}

/* The line GLib's writer makes of an INFO message of the access domain
 * without colour ("triage-server-access-INFO: HH:MM:SS.mmm: @message"),
 * added to the turn's lines, or FALSE when @message holds a character
 * other than printable ASCII, which that writer escapes (it then formats
 * the line). Under load this was a tenth of a POST's own instructions:
 * the fields looked up, a printf, localtime () and strftime () each line,
 * and the message copied to be checked character by character. */
static gboolean
append_access_line (const char *message)
{
  gint64 now = g_get_real_time ();
  gint64 second = now / G_USEC_PER_SEC;
  char millis[8];

  for (const guchar *c = (const guchar *) message; *c != '\0'; c++)
    if (*c < 0x20 || *c > 0x7e)
      return FALSE;
  put_decimal (millis, (guint64) ((now / 1000) % 1000), 3);
  g_mutex_lock (&pending_lock);
  if (second != stamp_second)
    {
      time_t secs = (time_t) second;
      struct tm *tm = localtime (&secs);

      if (tm == NULL || strftime (stamp_text, sizeof stamp_text, "%H:%M:%S", tm) == 0)
        strcpy (stamp_text, "(error)");
      stamp_second = tm != NULL ? second : -1;
    }
  if (pending == NULL)
    pending = g_string_sized_new (4096);
  g_string_append (pending, ACCESS_DOMAIN "-INFO: ");
  g_string_append (pending, stamp_text);
  g_string_append_c (pending, '.');
  g_string_append (pending, millis);
  g_string_append (pending, ": ");
  g_string_append (pending, message);
  g_string_append_c (pending, '\n');
  if (flush_source == NULL)
    flush_pending_locked ();
  g_mutex_unlock (&pending_lock);
  return TRUE;
}

/* The line of one request: who is "user:ID", "service:ID", "admin" or NULL
 * (no token, or one that was refused). */
void
triage_server_log_request (const char *request_id,
                           const char *method,
                           const char *route,
                           guint       status,
                           gint64      duration_us,
                           const char *who)
{
  char status_text[16], duration_text[32], ms_text[32], *ms_end;
  /* A duration is never negative. */
  guint64 us = (guint64) MAX (duration_us, 0);
  g_autofree char *message = NULL;
  const char *who_key = "TRIAGE_CALLER", *who_id = who;
  GLogField fields[] = {
    { "PRIORITY", "6", -1 },
    { "GLIB_DOMAIN", ACCESS_DOMAIN, -1 },
    { "MESSAGE", NULL, -1 },
    { "TRIAGE_REQUEST_ID", request_id ? request_id : "-", -1 },
    { "TRIAGE_METHOD", method, -1 },
    { "TRIAGE_ROUTE", route, -1 },
    { "TRIAGE_STATUS", status_text, -1 },
    { "TRIAGE_DURATION_US", duration_text, -1 },
    { NULL, NULL, -1 },
  };
  gsize n_fields = G_N_ELEMENTS (fields) - 1;

  put_decimal (status_text, status, 1);
  put_decimal (duration_text, us, 1);
  /* The milliseconds with three decimals, from the whole microseconds: the
   * text "%.3f" made of duration_us / 1000.0, without converting a double
   * (g_ascii_formatd () formatted it and then looked for the locale's
   * decimal point to replace). */
  ms_end = put_decimal (ms_text, us / 1000, 1);
  *ms_end++ = '.';
  put_decimal (ms_end, us % 1000, 3);
  if (who != NULL && g_str_has_prefix (who, "user:"))
    who_key = "TRIAGE_USER", who_id = who + strlen ("user:");
  else if (who != NULL && g_str_has_prefix (who, "service:"))
    who_key = "TRIAGE_SERVICE", who_id = who + strlen ("service:");
  if (who != NULL)
    {
      fields[n_fields].key = who_key;
      fields[n_fields].value = who_id;
      n_fields++;
    }
  /* Joined, not printed: every part is text already (a printf parsed its
   * format again for each request). */
  message = g_strjoin (" ", method, route, status_text, ms_text, "ms", who ? who : "-", "request",
                       request_id ? request_id : "-", NULL);
  if (access_text_here && append_access_line (message))
    return;
  fields[2].value = message;
  g_log_structured_array (G_LOG_LEVEL_INFO, fields, n_fields);
}
