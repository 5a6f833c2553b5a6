/* test-inbox-search.c — folding and matching for the inbox search
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "browse-test-common.h"
#include "triage-inbox-search.h"
#include "triage-request.h"

static void
test_fold (void)
{
  struct { const char *in; const char *out; } cases[] = {
    { NULL, "" },
    { "Deploy", "deploy" },
    { "CAFÉ", "cafe" },
    { "Cafe\xcc\x81", "cafe" },           /* decomposed é */
    { "ﬁle", "file" },                    /* compatibility ligature */
    { "Straße", "strasse" },              /* case folding, not just lowering */
    { "ΣΊΣΥΦΟΣ", "σισυφοσ" },
    { "日本語", "日本語" },
    { "bad \xff byte", "bad \xef\xbf\xbd byte" },
    { "删除ＡＰＩ旧密钥吗？", "删除api旧密钥吗?" },  /* width */
    { "「ＯＫ」。がっこう、ガッコウ", "「ok」。かっこう、カッコウ" },
    { "ＡＰＩ café", "api cafe" },
    { "ｶﾀｶﾅ", "カタカナ" },                /* halfwidth kana */
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *folded = triage_inbox_search_fold (cases[i].in);

      g_assert_cmpstr (folded, ==, cases[i].out);
    }
}

/* The whole rule (compatibility decomposition, combining marks dropped, case
 * folding), which triage_format_fold () skips for the characters whose fold
 * is plain to see: those of ASCII, its fullwidth forms, CJK and kana. */
static char *
fold_by_the_rule (const char *text)
{
  g_autofree char *decomposed = g_utf8_normalize (text, -1, G_NORMALIZE_ALL);
  g_autoptr(GString) bare = g_string_new (NULL);

  for (const char *p = decomposed; *p != '\0'; p = g_utf8_next_char (p))
    if (g_unichar_type (g_utf8_get_char (p)) != G_UNICODE_NON_SPACING_MARK)
      g_string_append_unichar (bare, g_utf8_get_char (p));
  return g_utf8_casefold (bare->str, bare->len);
}

static void
test_fold_plain (void)
{
  static const gunichar ranges[][2] = {
    { 0x01, 0x7f }, { 0xff01, 0xff5e }, { 0x3001, 0x3002 }, { 0x300c, 0x3011 },
    { 0x3041, 0x3096 }, { 0x30a1, 0x30fa }, { 0x3400, 0x4dbf }, { 0x4e00, 0x9fff },
  };

  for (guint r = 0; r < G_N_ELEMENTS (ranges); r++)
    for (gunichar c = ranges[r][0]; c <= ranges[r][1]; c++)
      {
        char text[16] = "Aa";
        g_autofree char *folded = NULL;
        g_autofree char *expected = NULL;

        g_unichar_to_utf8 (c, text + 2);
        folded = triage_inbox_search_fold (text);
        expected = fold_by_the_rule (text);
        g_assert_cmpstr (folded, ==, expected);
      }
}

static void
test_parse_match (void)
{
  g_auto(GStrv) none = triage_inbox_search_parse ("  \t ");
  g_auto(GStrv) words = triage_inbox_search_parse ("  Deploy\u3000PROD  2.1 ");
  g_auto(GStrv) narrower = triage_inbox_search_parse ("deploy prod 2.1 x");
  g_auto(GStrv) longer = triage_inbox_search_parse ("deployment prod");
  const char *haystack = "deploy 2 1 to production\nci\nweb";
  g_auto(GStrv) inside = triage_inbox_search_parse ("ploy");
  g_auto(GStrv) separators = triage_inbox_search_parse ("- ,");
  g_autofree char *text = triage_inbox_search_fold ("Deploy 2.1 to production?");
  const char *expected[] = { "deploy", "prod", "2 1", NULL };

  g_assert_cmpuint (g_strv_length (none), ==, 0);
  g_assert_cmpuint (g_strv_length (separators), ==, 0);
  g_assert_true (g_strv_equal ((const char * const *) words, expected));
  g_assert_cmpstr (text, ==, "deploy 2.1 to production?");

  /* Words start where words start: "ploy" is inside "deploy". */
  g_assert_false (triage_inbox_search_match (haystack, (const char * const *) inside));

  g_assert_true (triage_inbox_search_match (haystack, NULL));
  g_assert_true (triage_inbox_search_match (haystack, (const char * const *) none));
  g_assert_true (triage_inbox_search_match (haystack, (const char * const *) words));
  g_assert_false (triage_inbox_search_match (haystack, (const char * const *) narrower));

  /* Narrowing: every old word is within a new word. */
  g_assert_true (triage_inbox_search_words_narrow (NULL, (const char * const *) words));
  g_assert_true (triage_inbox_search_words_narrow ((const char * const *) words,
                                                   (const char * const *) narrower));
  g_assert_false (triage_inbox_search_words_narrow ((const char * const *) narrower,
                                                    (const char * const *) words));
  g_assert_false (triage_inbox_search_words_narrow ((const char * const *) words, NULL));
  g_assert_false (triage_inbox_search_words_narrow ((const char * const *) words,
                                                    (const char * const *) longer));
}

static gboolean
matches (const char *text,
         const char *typed)
{
  g_autofree char *folded = triage_inbox_search_fold (text);
  g_autofree char *haystack = NULL;
  g_auto(GStrv) words = triage_inbox_search_parse (typed);
  g_auto(GStrv) all = triage_inbox_search_parse (folded);

  /* The text as a haystack: its words joined by one space. */
  haystack = g_strjoinv (" ", all);
  return triage_inbox_search_match (haystack, (const char * const *) words);
}

/* Scripts written without spaces have no word starts: a word typed matches
 * anywhere in them; spaced scripts keep to word starts. */
static void
test_unspaced_scripts (void)
{
  g_assert_true (matches ("要删除旧备份吗？", "备份"));
  g_assert_true (matches ("要删除旧备份吗？", "要删除"));
  g_assert_true (matches ("要删除旧备份吗？", "吗"));
  g_assert_false (matches ("要删除旧备份吗？", "备用"));
  g_assert_true (matches ("古いバックアップを削除しますか", "バックアップ"));
  g_assert_true (matches ("古いバックアップを削除しますか", "削除"));
  g_assert_true (matches ("ลบข้อมูลสำรองเก่าไหม", "สำรอง"));
  /* A spaced word right after an unspaced one starts a word there. */
  g_assert_true (matches ("备份Deploy now", "deploy"));
  g_assert_false (matches ("备份Deploy now", "ploy"));
  /* Spaced scripts: word starts only. */
  g_assert_false (matches ("Deploy now", "ploy"));
  g_assert_false (matches ("هل تريد حذف النسخ", "ذف"));
  g_assert_true (matches ("هل تريد حذف النسخ", "حذف"));
  g_assert_true (triage_inbox_search_is_unspaced (g_utf8_get_char ("备")));
  g_assert_false (triage_inbox_search_is_unspaced ('a'));

  {
    g_auto(GStrv) old_words = triage_inbox_search_parse ("备份");
    g_auto(GStrv) new_words = triage_inbox_search_parse ("旧备份");

    /* "旧备份" matches only what "备份" matched: a narrowing. */
    g_assert_true (triage_inbox_search_words_narrow ((const char * const *) old_words,
                                                     (const char * const *) new_words));
  }
}

static void
test_haystack (void)
{
  g_autoptr(AtpNotification) first = browse_test_notification ("11111111-1111-4111-8111-111111111111",
                                                               "Café agent", "Ops", "Rotate KEYS",
                                                               "Before Friday", BROWSE_TEST_BASE_USEC, 0);
  g_autoptr(AtpNotification) second = browse_test_notification ("11111111-1111-4111-8111-111111111111",
                                                                "Café agent", NULL, "Renew",
                                                                "certificate", BROWSE_TEST_BASE_USEC, 0);
  g_autoptr(TriageRequest) request = triage_request_new (first);
  const char *text = triage_inbox_search_haystack (request);

  g_assert_cmpstr (text, ==, "rotate keys\nbefore friday\ncafe agent\nops");
  /* Kept: the same pointer while the request is unchanged. */
  g_assert_true (triage_inbox_search_haystack (request) == text);

  /* A refreshed request is folded again. */
  triage_request_set_notification (request, second);
  g_assert_cmpstr (triage_inbox_search_haystack (request), ==, "renew\ncertificate\ncafe agent\n");
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/inbox/search/fold", test_fold);
  g_test_add_func ("/inbox/search/fold-plain", test_fold_plain);
  g_test_add_func ("/inbox/search/parse-match", test_parse_match);
  g_test_add_func ("/inbox/search/unspaced-scripts", test_unspaced_scripts);
  g_test_add_func ("/inbox/search/haystack", test_haystack);

  return g_test_run ();
}
