/* test-ask-messages.c — the built triage-ask given bad values: exit 2 and a
 * message that names the option and the problem; values that are fine in any
 * locale reach a real triage-server
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "ask-test-util.h"
#include "triage-ask.h"

/* Scripts run from cron or a systemd unit have the C locale. */
static const char * const c_locale[] = { "LC_ALL=C", "LANG=C", NULL };

typedef struct
{
  const char *args[8];
  const char *input;      /* standard input (--aitp, --afp) */
  const char *message;    /* the whole line after "triage-ask: " */
} Refusal;

static const Refusal refusals[] = {
  /* "--title is required", as if no title had been given. */
  { { "--title", "", "--action", "ok" }, NULL, "--title: the text is empty" },
  { { "--title", "  ", "--action", "ok" }, NULL, "--title: the text is empty" },
  /* "expected a duration": it is one, too far away. */
  { { "--title", "T", "--action", "ok", "--deadline", "99999d" }, NULL,
    "--deadline “99999d”: too far away: a duration may be at most ten years (3650d)" },
  { { "--title", "T", "--action", "ok", "--retry-for", "99999d" }, NULL,
    "--retry-for “99999d”: too long: at most ten years (3650d)" },
  /* Sent as an empty project; --aitp and --afp refused it. */
  { { "--title", "T", "--action", "ok", "--project", "" }, NULL, "--project: the name is empty" },
  /* "Invalid byte sequence in conversion input", naming no option. */
  { { "--title", "d\xe9ploy", "--action", "ok" }, NULL, "--title: not valid UTF-8 text" },
  { { "--aitp", "--project", "caf\xe9" }, "{}", "--project: not valid UTF-8 text" },
  { { "--afp", "--title", "r\xe9vision" }, "{}", "--title: not valid UTF-8 text" },
  /* The connection options, in every mode. */
  { { "--aitp", "--service-name", "caf\xe9" }, "{}", "--service-name: not valid UTF-8 text" },
  { { "--afp", "--service", "r\xe9vision" }, "{}", "--service: not valid UTF-8 text" },
  { { "--aitp", "--server", "https://caf\xe9.example" }, "{}", "--server: not valid UTF-8 text" },
  { { "--afp", "--retry-for", "5\xb5s" }, "{}", "--retry-for: not valid UTF-8 text" },
  /* Started a new session, without the history, as if none had been given. */
  { { "--afp", "--session", "" }, "{}",
    "--session: the id is empty (leave the option out to start a session)" },
  { { "--aitp", "--deadline", "99999d" }, "{}",
    "--deadline “99999d”: too far away: a duration may be at most ten years (3650d)" },
  /* Blamed on "--action “approve:simple:”", which nobody gave. */
  { { "--confirm", "Deploy?", "--flag", "" }, NULL,
    "--flag “”: empty flag name (one flag, such as irreversible)" },
  /* Exited 0 ("approved") as soon as the request was sent. */
  { { "--confirm", "Drop the old backups?", "--no-wait" }, NULL,
    "--confirm waits for the answer (its exit status is the answer); it cannot go with "
    "--no-wait" },
  /* A blank service id went to the server. */
  { { "--title", "T", "--action", "ok", "--service", " " }, NULL, "--service: the id is empty" },
};

static void
test_refused (void)
{
  for (guint i = 0; i < G_N_ELEMENTS (refusals); i++)
    {
      const Refusal *r = &refusals[i];
      g_autofree char *expected = g_strdup_printf ("triage-ask: %s\n", r->message);
      g_autoptr(Run) run = ask_start_env (NULL, r->args, r->input, c_locale);

      ask_finish (run);
      g_assert_cmpint (run->status, ==, TRIAGE_ASK_EXIT_USAGE);
      g_assert_cmpstr (run->err, ==, expected);
      g_assert_cmpstr (run->out, ==, "");
    }
}

/* In the C locale GOption converted every value from ASCII: an accented
 * title or project exited 2. */
static void
test_c_locale (Fixture       *fixture,
               gconstpointer  data)
{
  const char * const args[] = { "--title", "Déployer l’été ?", "--action", "ok",
                                "--project", "café", "--no-wait", NULL };
  g_autoptr(Run) run = ask_start_env (fixture, args, NULL, c_locale);
  g_autoptr(AtpNotification) request = NULL;

  g_assert_cmpint (ask_finish (run), ==, TRIAGE_ASK_EXIT_ANSWERED);
  request = person_wait_for (fixture, "Déployer l’été ?");
  g_assert_cmpstr (request->context.project, ==, "café");
}

/* --aitp and --afp file the request under an accented service name too: the
 * connection options are made UTF-8 for every mode. */
static void
test_c_locale_modes (Fixture       *fixture,
                     gconstpointer  data)
{
  const char * const aitp_args[] = { "--aitp", "--service", "café-bot", "--service-name",
                                     "Café Bot", "--no-wait", NULL };
  const char * const afp_args[] = { "--afp", "--service", "révision", "--service-name",
                                    "Révision", "--title", "Relire l’été", "--deadline", "1h",
                                    NULL };
  const char aitp_message[] =
    "{\"$schema\": \"https://aitp.dev/v1/decisions/schema.json\", \"request_decision\": "
    "{\"id\": \"c-1\", \"title\": \"Quelle couleur ?\", \"options\": [{\"id\": \"b\"}]}}";
  const char afp_request[] =
    "{\"protocol_version\": \"1.2\", \"iteration\": 1, \"artifact\": "
    "{\"media_type\": \"text/plain\", \"content\": \"plan\"}}";
  g_autoptr(Run) aitp = NULL;
  g_autoptr(Run) afp = NULL;
  g_autoptr(AtpNotification) decision = NULL;
  g_autoptr(AtpNotification) review = NULL;

  atp_client_set_protocols (fixture->person, (1u << ATP_PROTOCOL_ATP) | (1u << ATP_PROTOCOL_AITP) |
                                             (1u << ATP_PROTOCOL_AFP));
  aitp = ask_start_env (fixture, aitp_args, aitp_message, c_locale);
  g_assert_cmpint (ask_finish (aitp), ==, TRIAGE_ASK_EXIT_ANSWERED);
  decision = person_wait_for (fixture, "Quelle couleur ?");
  g_assert_cmpstr (decision->service.id, ==, "café-bot");
  g_assert_cmpstr (decision->service.name, ==, "Café Bot");

  afp = ask_start_env (fixture, afp_args, afp_request, c_locale);
  review = person_wait_for (fixture, "Relire l’été");
  g_assert_cmpstr (review->service.id, ==, "révision");
  g_assert_cmpstr (review->service.name, ==, "Révision");
  g_subprocess_send_signal (afp->process, SIGTERM);
  g_assert_cmpint (ask_finish (afp), ==, 128 + SIGTERM);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/ask/messages/refused", test_refused);
  g_test_add ("/ask/messages/c-locale", Fixture, NULL, fixture_setup, test_c_locale,
              fixture_teardown);
  g_test_add ("/ask/messages/c-locale-modes", Fixture, NULL, local_setup, test_c_locale_modes,
              fixture_teardown);

  return g_test_run ();
}
