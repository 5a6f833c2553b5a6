/* bench-cpu.c
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * What one notification costs triage-server under full load, for a fixed
 * number of them: K clients post in a closed loop (bench-load.c's realistic
 * request), each stored durably, pushed to a person's WebSocket stream and
 * marked delivered. Prints the server's CPU time per notification (user +
 * system, of the measured notifications only: a warm-up round is left out).
 *
 * CPU time grows with the machine's load (caches, migrations); the figure
 * that does not is the instructions: run the server under callgrind
 * (bench/server/run.sh --callgrind does) and this program zeroes its counters
 * before the measured notifications and dumps them after, and prints the
 * instructions per notification.
 *
 * Run by bench/server/run.sh, never by meson test. --server PATH measures
 * another triage-server binary (an older build, for a before/after pair on
 * one machine).
 */

#define G_LOG_DOMAIN "bench-cpu"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench-load.h"
#include "triage-test-server.h"

static int clients = 10;
static int count = 2000;
static int warmup = 200;
static char *callgrind_out;
static char *server_binary;

/* User and system CPU time of @pid so far, µs. */
static void
cpu_split (GPid    pid,
           gint64 *user,
           gint64 *system)
{
  g_autofree char *path = g_strdup_printf ("/proc/%d/stat", (int) pid);
  g_autofree char *stat = NULL;
  g_auto(GStrv) fields = NULL;
  const char *after_name;

  *user = *system = 0;
  if (!g_file_get_contents (path, &stat, NULL, NULL) || (after_name = strrchr (stat, ')')) == NULL)
    return;
  /* After the name: state is the 3rd field of the line, utime the 14th, stime the 15th. */
  fields = g_strsplit (after_name + 2, " ", 0);
  if (g_strv_length (fields) < 13)
    return;
  *user = g_ascii_strtoll (fields[11], NULL, 10) * G_USEC_PER_SEC / sysconf (_SC_CLK_TCK);
  *system = g_ascii_strtoll (fields[12], NULL, 10) * G_USEC_PER_SEC / sysconf (_SC_CLK_TCK);
}

/* callgrind_control @option on the server; its answer is not needed. */
static void
callgrind_control (GPid        pid,
                   const char *option)
{
  g_autofree char *pid_text = g_strdup_printf ("%d", (int) pid);
  const char *argv[] = { "callgrind_control", option, pid_text, NULL };
  g_autoptr(GError) error = NULL;
  int status;

  if (!g_spawn_sync (NULL, (char **) argv, NULL,
                     G_SPAWN_SEARCH_PATH | G_SPAWN_STDOUT_TO_DEV_NULL | G_SPAWN_STDERR_TO_DEV_NULL,
                     NULL, NULL, NULL, NULL, &status, &error) ||
      !g_spawn_check_wait_status (status, &error))
    g_error ("callgrind_control %s: %s", option, error->message);
}

/* The instructions (the first event) of the newest dump @prefix.N, whose
 * path goes to *@newest_path. */
static guint64
dumped_instructions (const char  *prefix,
                     char       **newest_path)
{
  g_autofree char *dir = g_path_get_dirname (prefix);
  g_autofree char *base = g_path_get_basename (prefix);
  g_autoptr(GDir) folder = g_dir_open (dir, 0, NULL);
  g_autofree char *newest = NULL;
  g_autofree char *text = NULL;
  const char *name, *line;
  gint64 newest_time = 0;

  while (folder != NULL && (name = g_dir_read_name (folder)) != NULL)
    {
      g_autofree char *path = g_build_filename (dir, name, NULL);
      g_autoptr(GFile) file = g_file_new_for_path (path);
      g_autoptr(GFileInfo) info = NULL;

      if (!g_str_has_prefix (name, base) || name[strlen (base)] != '.')
        continue;
      info = g_file_query_info (file, G_FILE_ATTRIBUTE_TIME_MODIFIED "," G_FILE_ATTRIBUTE_TIME_MODIFIED_USEC,
                                G_FILE_QUERY_INFO_NONE, NULL, NULL);
      if (info != NULL)
        {
          gint64 time = g_file_info_get_attribute_uint64 (info, G_FILE_ATTRIBUTE_TIME_MODIFIED) *
                        G_USEC_PER_SEC +
                        g_file_info_get_attribute_uint32 (info, G_FILE_ATTRIBUTE_TIME_MODIFIED_USEC);

          if (time >= newest_time)
            {
              newest_time = time;
              g_free (newest);
              newest = g_steal_pointer (&path);
            }
        }
    }
  if (newest == NULL || !g_file_get_contents (newest, &text, NULL, NULL))
    g_error ("no callgrind dump %s.N", prefix);
  if ((line = strstr (text, "\nsummary: ")) == NULL && (line = strstr (text, "\ntotals: ")) == NULL)
    g_error ("%s: no summary", newest);
  *newest_path = g_steal_pointer (&newest);
  return g_ascii_strtoull (strchr (line, ':') + 1, NULL, 10);
}

/* The inclusive instructions of @function in the dump @path, as
 * callgrind_annotate --inclusive=yes counts them; 0 if it is not there. */
static guint64
function_instructions (const char *path,
                       const char *function)
{
  const char *argv[] = { "callgrind_annotate", "--inclusive=yes", path, NULL };
  g_autofree char *output = NULL, *needle = g_strconcat (":", function, " [", NULL);
  g_autoptr(GError) error = NULL;
  g_auto(GStrv) lines = NULL;
  int status;

  if (!g_spawn_sync (NULL, (char **) argv, NULL,
                     G_SPAWN_SEARCH_PATH | G_SPAWN_STDERR_TO_DEV_NULL,
                     NULL, NULL, &output, NULL, &status, &error) ||
      !g_spawn_check_wait_status (status, &error))
    g_error ("callgrind_annotate %s: %s", path, error->message);
  lines = g_strsplit (output, "\n", 0);
  for (guint i = 0; lines[i] != NULL; i++)
    if (strstr (lines[i], needle) != NULL)
      {
        g_autoptr(GString) digits = g_string_new (NULL);

        /* "315,054,000 (50.20%)  ???:function [binary]" */
        for (const char *c = lines[i]; *c == ' ' || *c == ',' || g_ascii_isdigit (*c); c++)
          if (g_ascii_isdigit (*c))
            g_string_append_c (digits, *c);
        return g_ascii_strtoull (digits->str, NULL, 10);
      }
  return 0;
}

/* The group commits @server has made so far (triage_db_commit_duration_seconds_count
 * of its /metrics), -1 if not known: how many notifications share a commit
 * moves the instructions per notification (a commit's cost is shared). */
static gint64
commits_so_far (SoupSession      *session,
                TriageTestServer *server)
{
  g_autofree char *url = g_strconcat (triage_test_server_get_url (server), "/metrics", NULL);
  g_autofree char *auth = g_strconcat ("Bearer ", triage_test_server_get_admin_token (server),
                                       NULL);
  g_autoptr(SoupMessage) msg = soup_message_new ("GET", url);
  g_autoptr(GBytes) body = NULL;
  g_autofree char *text = NULL;
  const char *line;

  soup_message_headers_replace (soup_message_get_request_headers (msg), "Authorization", auth);
  body = soup_session_send_and_read (session, msg, NULL, NULL);
  if (body == NULL || soup_message_get_status (msg) != SOUP_STATUS_OK)
    return -1;
  text = g_strndup (g_bytes_get_data (body, NULL), g_bytes_get_size (body));
  line = strstr (text, "\ntriage_db_commit_duration_seconds_count ");
  return line != NULL ? g_ascii_strtoll (strchr (line + 1, ' ') + 1, NULL, 10) : -1;
}

int
main (int    argc,
      char **argv)
{
  GOptionEntry entries[] = {
    { "clients", 'k', 0, G_OPTION_ARG_INT, &clients, "Posting clients in the closed loop (10)", "K" },
    { "count", 'n', 0, G_OPTION_ARG_INT, &count, "Notifications measured (2000)", "N" },
    { "warmup", 'w', 0, G_OPTION_ARG_INT, &warmup, "Notifications before, not measured (200)", "N" },
    { "server", 0, 0, G_OPTION_ARG_FILENAME, &server_binary,
      "The triage-server to measure, e.g. an older build to compare with (default: "
      "$TRIAGE_SERVER, as run.sh sets it)", "PATH" },
    { "callgrind", 0, 0, G_OPTION_ARG_FILENAME, &callgrind_out,
      "The server runs under callgrind with --callgrind-out-file=PREFIX (run.sh --callgrind)",
      "PREFIX" },
    { NULL }
  };
  const char * const extra[] = { "--no-limits", NULL };
  TriageTestServerOptions options = { .extra_args = extra, .bulk = TRUE };
  const char * const recipients[] = { "bench", NULL };
  g_autoptr(GOptionContext) context = g_option_context_new ("- server CPU per notification");
  g_autoptr(GError) error = NULL;
  g_autoptr(TriageTestServer) server = NULL;
  g_autoptr(SoupSession) session = NULL;
  g_autoptr(BenchLoad) load = NULL;
  g_autofree char *token = NULL, *key = NULL;
  SoupWebsocketConnection *stream = NULL;
  const BenchPhase *phase;
  gint64 user_before, system_before, user_after, system_after, commits_before, commits_after;
  guint posted, received;
  double load_average[3] = { 0 };
  GPid pid;

  g_option_context_add_main_entries (context, entries, NULL);
  if (!g_option_context_parse (context, &argc, &argv, &error) || clients < 1 || count < 1 ||
      warmup < 0)
    {
      g_printerr ("bench-cpu: %s\n", error ? error->message : "values must be positive");
      return 2;
    }
  setvbuf (stdout, NULL, _IOLBF, 0);
  /* The test harness starts $TRIAGE_SERVER. */
  if (server_binary != NULL)
    g_setenv ("TRIAGE_SERVER", server_binary, TRUE);

  server = triage_test_server_new (&options, &error);
  if (server == NULL)
    g_error ("cannot start triage-server: %s", error->message);
  pid = triage_test_server_get_pid (server);
  if (!triage_test_server_create_user (server, "bench", &token, &error) ||
      !triage_test_server_create_service (server, "bench", recipients, NULL, NULL, &key, NULL,
                                          &error))
    g_error ("setup: %s", error->message);
  session = soup_session_new_with_options ("timeout", 600, NULL);
  bench_connect_streams (session, triage_test_server_get_url (server), token, &stream, 1);
  load = bench_load_new (key);
  bench_load_add_posters (load, triage_test_server_get_url (server), (guint) clients);
  bench_load_listen (load, stream);

  if (warmup > 0)
    bench_load_count (load, (guint) warmup, 0, NULL, NULL);
  /* Read outside what is measured: the page is a request of its own. */
  commits_before = commits_so_far (session, server);
  if (callgrind_out != NULL)
    callgrind_control (pid, "--zero");
  cpu_split (pid, &user_before, &system_before);
  phase = bench_load_count (load, (guint) count, 0, NULL, NULL);
  cpu_split (pid, &user_after, &system_after);
  posted = phase->posted;
  received = phase->received;
  if (getloadavg (load_average, 3) < 0)
    load_average[0] = -1;

  printf ("%u notifications, %d clients, closed loop: %u received on the stream, %u failed "
          "(%.0f/s; load average %.1f)\n",
          posted, clients, received, phase->failed, posted / phase->seconds, load_average[0]);
  printf ("  server CPU %.0f µs a notification (user %.0f, system %.0f)\n",
          (double) (user_after - user_before + system_after - system_before) / MAX (posted, 1),
          (double) (user_after - user_before) / MAX (posted, 1),
          (double) (system_after - system_before) / MAX (posted, 1));
  if (callgrind_out != NULL)
    {
      g_autofree char *dump = NULL;

      callgrind_control (pid, "--dump");
      printf ("  server instructions %.0f a notification (callgrind)\n",
              (double) dumped_instructions (callgrind_out, &dump) / MAX (posted, 1));
      /* The steadier parts: the POST handler's does not move with how many
       * notifications share a group commit; the commit's does. */
      printf ("  of which the POST handler's own part %.0f, the group commits' %.0f a "
              "notification\n",
              (double) function_instructions (dump, "handle_post_notification") / MAX (posted, 1),
              (double) function_instructions (dump, "triage_store_commit") / MAX (posted, 1));
    }
  commits_after = commits_so_far (session, server);
  if (commits_before >= 0 && commits_after >= 0)
    printf ("  %.1f notifications a group commit (%" G_GINT64_FORMAT " commits; the instructions "
            "per notification move with it)\n",
            (double) posted / MAX (commits_after - commits_before, 1),
            commits_after - commits_before);

  soup_websocket_connection_close (stream, SOUP_WEBSOCKET_CLOSE_NORMAL, NULL);
  g_object_unref (stream);
  return posted == (guint) count && received == posted ? 0 : 1;
}
