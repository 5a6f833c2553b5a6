/* triage-ask-streams.c
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "triage-ask"

#include "triage-ask-private.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <glib-unix.h>

#include "atp.h"

/*
 * The standard streams, as every mode of triage-ask uses them: messages on
 * standard error made safe for a terminal, JSON answers on standard output,
 * a reader of standard output that went away, and a request read from
 * standard input.
 */

char *
triage_ask_visible_text (const char *text)
{
  g_autofree char *valid = g_utf8_make_valid (text, -1);
  GString *shown = g_string_sized_new (strlen (valid));

  for (const char *p = valid; *p != '\0'; p = g_utf8_next_char (p))
    {
      gunichar c = g_utf8_get_char (p);

      if (c == '\t')
        g_string_append_c (shown, ' ');
      else if (g_unichar_iscntrl (c) || g_unichar_type (c) == G_UNICODE_FORMAT ||
               g_unichar_type (c) == G_UNICODE_LINE_SEPARATOR ||
               g_unichar_type (c) == G_UNICODE_PARAGRAPH_SEPARATOR)
        g_string_append_unichar (shown, 0xfffd);
      else
        g_string_append_unichar (shown, c);
    }
  return g_string_free (shown, FALSE);
}

/* Messages carry a server's and a person's words (an error's message, a
 * responder's name): on a terminal, an escape sequence in them would retitle
 * or clear it, or set its clipboard. */
void
triage_ask_say (const char *format,
                ...)
{
  g_autofree char *message = NULL;
  g_autofree char *shown = NULL;
  va_list args;

  va_start (args, format);
  message = g_strdup_vprintf (format, args);
  va_end (args);

  shown = triage_ask_visible_text (message);
  fprintf (stderr, "triage-ask: %s\n", shown);
}

gboolean
triage_ask_write_json_text (const char *text,
                            gsize       length)
{
  const char *end = text + length;

  for (const char *p = text; p < end; p = g_utf8_next_char (p))
    {
      gunichar c = g_utf8_get_char (p);

      /* JSON escapes only C0. DEL and C1 (U+009B is a CSI) reach a terminal
       * raw, and U+0085, U+2028 and U+2029 end a line for readers that split
       * on every Unicode line break (Python's str.splitlines ()): escaped,
       * which any JSON reader reads back alike (outside strings our JSON is
       * ASCII). */
      if (c == 0x7f || (c >= 0x80 && c <= 0x9f) || c == 0x2028 || c == 0x2029)
        fprintf (stdout, "\\u%04x", c);
      else
        fwrite (p, 1, g_utf8_next_char (p) - p, stdout);
    }

  return fflush (stdout) == 0 && !ferror (stdout);
}

typedef struct
{
  guint             *watch_id;
  TriageAskStopFunc  stop;
  gpointer           data;
} StdoutWatch;

static gboolean
on_stdout_closed (int          fd,
                  GIOCondition condition,
                  gpointer     user_data)
{
  StdoutWatch *watch = user_data;

  *watch->watch_id = 0;
  watch->stop (watch->data, "nobody reads standard output any more", 128 + SIGPIPE);
  return G_SOURCE_REMOVE;
}

void
triage_ask_watch_stdout (guint             *watch_id,
                         TriageAskStopFunc  stop,
                         gpointer           data)
{
  StdoutWatch *watch;
  struct stat info;

  *watch_id = 0;
  signal (SIGPIPE, SIG_IGN);
  if (fstat (STDOUT_FILENO, &info) != 0 || !(S_ISFIFO (info.st_mode) || S_ISSOCK (info.st_mode)))
    return;
  watch = g_new (StdoutWatch, 1);
  watch->watch_id = watch_id;
  watch->stop = stop;
  watch->data = data;
  /* A pipe's writer sees POLLERR when the reader is gone, a socket's POLLHUP. */
  *watch_id = g_unix_fd_add_full (G_PRIORITY_DEFAULT, STDOUT_FILENO, G_IO_ERR | G_IO_HUP,
                                  on_stdout_closed, watch, g_free);
}

char *
triage_ask_read_stdin (gsize    max_size,
                       gboolean keep_head,
                       gsize   *length,
                       GError **error)
{
  g_autoptr(GByteArray) data = g_byte_array_new ();
  g_autoptr(GError) local_error = NULL;
  guint8 buffer[65536];
  gsize dropped = 0;
  ssize_t n;

  while ((n = read (STDIN_FILENO, buffer, sizeof buffer)) != 0)
    {
      if (n < 0)
        {
          int saved = errno;

          if (saved == EINTR)
            continue;
          if (local_error == NULL)
            g_set_error (&local_error, G_IO_ERROR, g_io_error_from_errno (saved),
                         "cannot read standard input: %s", g_strerror (saved));
          break;
        }
      if (local_error == NULL && data->len + (gsize) n > max_size)
        g_set_error (&local_error, ATP_ERROR, ATP_ERROR_PAYLOAD_TOO_LARGE,
                     "more than the %" G_GSIZE_FORMAT " KiB it may have", max_size / 1024);
      if (local_error == NULL)
        {
          g_byte_array_append (data, buffer, n);
          continue;
        }
      /* Read on and dropped, so that the writer (an agent) ends its write: EPIPE
       * crashes a Node.js agent that does not handle the stream's 'error' event,
       * and a Python one's write raises, before either reads the exit status and
       * the message that say what was wrong. Up to a bound: an endless writer
       * (`yes |`, `tail -f |`) is refused all the same. */
      dropped += (gsize) n;
      if (dropped > TRIAGE_ASK_INPUT_DRAIN_MAX)
        break;
    }

  if (local_error != NULL)
    {
      g_propagate_error (error, g_steal_pointer (&local_error));
      if (!keep_head)
        return NULL;
    }
  *length = data->len;
  g_byte_array_append (data, (const guint8 *) "", 1);
  return (char *) g_byte_array_free (g_steal_pointer (&data), FALSE);
}
