/* test-server-address.c — what the app says is wrong with a server address
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Each kind of address that is not one (another scheme, none, no host, a
 * user name, a query, plain http elsewhere, garbage) gets one sentence that
 * names its problem and ends: the window puts it between "The server
 * address is not valid." and "Correct it in Preferences.", Preferences
 * shows it alone. libatp's reasons, written for a terminal, read "… not
 * htp:" there.
 */

#include <glib.h>
#include <string.h>

#include "triage-server-address.h"

static void
assert_problem (const char *url,
                const char *expected)
{
  g_autofree char *problem = triage_server_address_dup_problem (url);

  g_assert_cmpstr (problem, ==, expected);
}

static void
test_valid (void)
{
  assert_problem ("https://triage.example.com", NULL);
  assert_problem ("https://triage.example.com:8443/", NULL);
  assert_problem ("http://127.0.0.1:8080", NULL);
  assert_problem ("http://localhost:8080", NULL);
}

static void
test_each_kind (void)
{
  assert_problem ("htp://triage.example.com",
                  "“htp://triage.example.com” begins with htp://, which is not a way to reach a "
                  "server: an address begins with https:// (or http:// for a server on this "
                  "computer).");
  assert_problem ("triage.example.com",
                  "“triage.example.com” does not begin with https://: enter "
                  "https://triage.example.com.");
  /* Parsed as the scheme "localhost": not said to begin with localhost://. */
  assert_problem ("localhost:8443",
                  "“localhost:8443” does not begin with https://: enter https://localhost:8443.");
  assert_problem ("https://",
                  "“https://” names no server: enter its host name after the //, as in "
                  "https://triage.example.com.");
  assert_problem ("https://ana:secret@triage.example.com",
                  "“https://ana:secret@triage.example.com” holds a user name or password, which a "
                  "server address cannot have: remove it (your token has a field of its own).");
  assert_problem ("https://triage.example.com/?x=1",
                  "“https://triage.example.com/?x=1” holds a query (?) or a fragment (#), which "
                  "a server address cannot have: remove it.");
  assert_problem ("http://triage.example.com",
                  "“http://triage.example.com” is not encrypted: it must begin with https:// "
                  "(plain http:// reaches only a server on this computer).");
  assert_problem ("https://triage example.com",
                  "“https://triage example.com” contains a space, which a server address cannot "
                  "have.");
  assert_problem ("%%%",
                  "“%%%” is not a server address: one looks like https://triage.example.com.");
  assert_problem ("https://triage.example.com:99999",
                  "“https://triage.example.com:99999” has a port that is not one: a port is a "
                  "number from 1 to 65535.");
  assert_problem ("https://triage.example.com:https",
                  "“https://triage.example.com:https” has a port that is not one: a port is a "
                  "number from 1 to 65535.");
  assert_problem ("https://[::1",
                  "“https://[::1” is not a server address: one looks like "
                  "https://triage.example.com.");
}

/* Every reason is one or two sentences, ended once, never by a colon. */
static void
test_ended (void)
{
  const char *bad[] = {
    "htp://x", "x", "x:1", "https://", "http://", "ftp://x", "https://a@x", "https://x#y",
    "http://x", ":", "://", "https://:8443", "mailto:ana@example.com", "https://x:99999",
  };

  for (guint i = 0; i < G_N_ELEMENTS (bad); i++)
    {
      g_autofree char *problem = triage_server_address_dup_problem (bad[i]);

      g_assert_nonnull (problem);
      if (!g_str_has_suffix (problem, ".") || g_str_has_suffix (problem, "..") ||
          strstr (problem, ": Correct") != NULL)
        g_error ("“%s”: %s", bad[i], problem);
    }
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/server-address/valid", test_valid);
  g_test_add_func ("/server-address/each-kind", test_each_kind);
  g_test_add_func ("/server-address/ended", test_ended);

  return g_test_run ();
}
