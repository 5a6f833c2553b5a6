/* test-search-rule.c — the inbox and the history find the same requests for
 * the same words: word starts, whatever the case and accents (ß and "ss"
 * alike); in scripts written without spaces, anywhere, whatever the case
 * and width
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <string.h>

#include "browse-test-common.h"
#include "triage-inbox-search.h"
#include "triage-request.h"

typedef struct
{
  const char *service;
  const char *project;
  const char *title;
  const char *description;
} Request;

static const Request requests[] = {
  { "CI", "web", "Deploy web 2.1", "Rolls out the new build" },
  { "Café agent", NULL, "Café opening hours", "Ask Zoë" },
  { "Ops", "infra", "Redeploy cache", "after a failure" },
  { "Reviewer", "docs", "RÉSUMÉ review", "Deploy-prod checklist" },
  { "备份服务", NULL, "要删除旧备份吗？", "清理磁盘空间" },
  { "Vault", NULL, "删除ＡＰＩ旧密钥吗？", "清理TOKEN缓存" },
  { "Tiefbauamt", NULL, "Straße gesperrt", "Umleitung über die Schloßstraße" },
  { "Stadtwerke", "Netz", "STRASSE 12 offen", "Maßnahme für Acme™, Auftrag № 42" },
  { "Αθήνα", NULL, "Καλημέρα, Ёлка", "ﬁle x² שָׁלוֹם كَتَبَ" },
};

/* The same words in both lists, and which of the requests above they find
 * (bit i: requests[i]). */
static const struct
{
  const char *text;
  guint       hits;
} cases[] = {
  { "depl", 0x9 },            /* a word's start, any case */
  { "ploy", 0x0 },            /* never inside a word */
  { "redeploy", 0x4 },
  { "cafe", 0x2 },            /* accents fold both ways */
  { "CAFÉ", 0x2 },
  { "zoe", 0x2 },
  { "resume", 0x8 },
  { "2.1", 0x1 },             /* separators inside a word: a phrase */
  { "2", 0x1 },
  { "deploy prod", 0x8 },     /* every word */
  { "deploy-prod", 0x8 },
  { "hours café", 0x2 },
  { "web", 0x1 },             /* title and project: found once */
  { "eb", 0x0 },
  { "ops cache", 0x4 },       /* service and title */
  { "-", 0x1ff },             /* no word: no search */
  { "  ", 0x1ff },
  /* Scripts written without spaces: anywhere in the text. */
  { "备份", 0x10 },
  { "要删除", 0x10 },
  { "磁盘", 0x10 },            /* the description */
  { "服务", 0x10 },            /* the service */
  { "旧备份 清理", 0x10 },
  { "备用", 0x0 },
  { "备份 ops", 0x0 },
  /* Latin within them, whatever the case and width, on either side. */
  { "删除api", 0x20 },
  { "删除API", 0x20 },
  { "删除ＡＰＩ", 0x20 },
  { "删除ａｐｉ", 0x20 },
  { "清理token", 0x20 },
  { "清理ＴＯＫＥＮ", 0x20 },
  { "删除apix", 0x0 },
  /* Typed in full width, as a Chinese or Japanese keyboard types Latin letters. */
  { "ＯＰＳ", 0x4 },
  { "ＲＥＤＥＰＬＯＹ", 0x4 },
  { "ｒｅｄｅｐｌｏｙ", 0x4 },
  { "ＲÉＳＵＭＥ", 0x8 },
  { "ＰＬＯＹ", 0x0 },
  { "\"unbalanced", 0x0 },    /* FTS5 syntax is plain text */
  { "NOT ops", 0x0 },
  /* ß is "ss" (the index keeps "straße"), whichever is typed or written,
   * in any case, as the start of a word ("stras" ends inside a ß). */
  { "strasse", 0xc0 },
  { "STRASSE", 0xc0 },
  { "Straße", 0xc0 },
  { "straße", 0xc0 },
  { "STRAẞE", 0xc0 },
  { "stras", 0xc0 },
  { "strass", 0xc0 },
  { "straß", 0xc0 },
  { "strasse 12", 0x80 },
  { "massnahme", 0x80 },
  { "mass", 0x80 },
  { "schlossstrasse", 0x40 },   /* two runs: "ss|s", "ss" */
  { "schloss", 0x40 },
  { "schlossstr", 0x40 },
  { "schloßstrasse", 0x40 },
  { "strasser", 0x0 },
  { "stra", 0xc0 },
  { "sse", 0x0 },
  /* A symbol the inbox folds into letters: written with them, both find
   * it ("acmetm" in the inbox, "acme" in the index); standing alone, the
   * history drops it (the index keeps no symbol) and finds by the rest. */
  { "acme™", 0x80 },
  { "№ 42", 0x80 },
  /* Letters the index keeps as written, typed as written. */
  { "Καλημέρα", 0x100 },
  { "ёлка", 0x100 },
  { "ﬁle", 0x100 },
  { "x²", 0x100 },
  /* Greek, Cyrillic, Hebrew and Arabic typed without their marks find the
   * marked text (the index keeps the marks), at a word's start only. */
  { "καλημερα", 0x100 },
  { "ΚΑΛΗΜΕΡΑ", 0x100 },
  { "καλη", 0x100 },
  { "λημερα", 0x0 },
  { "αθηνα", 0x100 },         /* the service */
  { "елка", 0x100 },
  { "ЕЛКА", 0x100 },
  { "лка", 0x0 },
  { "шалом", 0x0 },
  { "שלום", 0x100 },
  { "كتب", 0x100 },
  { "καλημερα ελκα", 0x0 },
  { "καλημερα елка", 0x100 }, /* with other words, Latin ones too */
  { "καλημερα x", 0x100 },
  { "καλημερα ops", 0x0 },
};

/* Where the history cannot find what the inbox finds, cheaply
 * (docs/protocol.md): what each finds. */
static const struct
{
  const char *text;
  guint       inbox;
  guint       history;
} differing[] = {
  /* A symbol alone is a word start in the inbox's fold ("tm"), no word of
   * the index: dropped, so the history finds everything. */
  { "™", 0x0, 0x1ff },
  { "№", 0x80, 0x1ff },
  /* The same symbol in the text: the index keeps no "tm" or "no" for it. */
  { "acmetm", 0x80, 0x0 },
  { "no 42", 0x80, 0x0 },
  /* Latin ligatures and superscripts: the index keeps them. */
  { "file", 0x100, 0x0 },
  { "x2", 0x100, 0x0 },
};

static char *
request_id (guint i)
{
  return g_strdup_printf ("%08u-1111-4111-8111-111111111111", i);
}

static guint
inbox_hits (GPtrArray  *inbox,
            const char *text)
{
  g_auto(GStrv) words = triage_inbox_search_parse (text);
  guint hits = 0;

  for (guint i = 0; i < inbox->len; i++)
    if (triage_inbox_search_match (triage_inbox_search_haystack (g_ptr_array_index (inbox, i)),
                                   (const char * const *) words))
      hits |= 1u << i;

  return hits;
}

static guint
history_hits (TriageHistoryDb *db,
              const char      *text)
{
  g_autoptr(TriageHistoryFilter) filter = triage_history_filter_new ();
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GArray) keys = NULL;
  guint hits = 0;

  filter->text = g_strdup (text);
  triage_history_db_query_async (db, filter, NULL, browse_test_result_cb, &result);
  browse_test_wait_for (result != NULL);
  keys = triage_history_db_query_finish (db, result, &error);
  g_assert_no_error (error);

  /* Saved in order: rowid i + 1 is requests[i]. */
  for (guint i = 0; i < keys->len; i++)
    hits |= 1u << (g_array_index (keys, TriageHistoryKey, i).rowid - 1);

  return hits;
}

static void
test_same_hits (void)
{
  g_autofree char *dir = g_dir_make_tmp ("triage-search-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "triage.db", NULL);
  g_autoptr(GPtrArray) inbox = g_ptr_array_new_with_free_func (g_object_unref);
  TriageStore *store = browse_test_open_store (path);
  TriageHistoryDb *db;

  for (guint i = 0; i < G_N_ELEMENTS (requests); i++)
    {
      g_autofree char *id = request_id (i);
      g_autoptr(AtpNotification) notification = NULL;

      notification = browse_test_notification (id, requests[i].service, requests[i].project,
                                               requests[i].title, requests[i].description,
                                               BROWSE_TEST_BASE_USEC + i * G_TIME_SPAN_MINUTE, 0);
      browse_test_save (store, notification);
      g_ptr_array_add (inbox, triage_request_new (notification));
    }
  db = browse_test_open_history (path);

  for (guint c = 0; c < G_N_ELEMENTS (cases); c++)
    {
      g_test_message ("search “%s”", cases[c].text);
      g_assert_cmphex (inbox_hits (inbox, cases[c].text), ==, cases[c].hits);
      g_assert_cmphex (history_hits (db, cases[c].text), ==, cases[c].hits);
    }
  for (guint c = 0; c < G_N_ELEMENTS (differing); c++)
    {
      g_test_message ("search “%s”, found differently", differing[c].text);
      g_assert_cmphex (inbox_hits (inbox, differing[c].text), ==, differing[c].inbox);
      g_assert_cmphex (history_hits (db, differing[c].text), ==, differing[c].history);
    }

  browse_test_finalize (db);
  browse_test_close_store (&store);
  browse_test_rm_rf (dir);
}

/* The number of quoted phrases in @query. */
static guint
count_phrases (const char *query)
{
  guint n = 0;

  for (const char *p = strstr (query, "\"*"); p != NULL; p = strstr (p + 1, "\"*"))
    n++;

  return n;
}

/* A plain word costs the index one phrase, whatever its case; a ß or "ss"
 * a few, never more than 8 besides the word as typed, however long. */
static void
test_query_forms (void)
{
  g_autofree char *deploy = triage_history_fts_query ("Deploy");
  g_autofree char *strasse = triage_history_fts_query ("STRASSE");
  g_autofree char *many = triage_history_fts_query ("Schlossstrassenbaumassnahmeprozess");
  g_autofree char *pasted = g_strnfill (200000, 's');
  g_autofree char *long_query = NULL;

  g_assert_cmpstr (deploy, ==, "\"deploy\"*");
  g_assert_cmpstr (strasse, ==, "(\"strasse\"* OR \"straße\"*)");
  g_assert_cmpuint (count_phrases (many), <=, 9);

  /* Runs of "s" every other character, and one long run. */
  for (guint i = 1; i < 100000; i += 2)
    pasted[i] = 'a';
  memset (pasted + 150000, 's', 50000);
  long_query = triage_history_fts_query (pasted);
  g_assert_cmpuint (count_phrases (long_query), <=, 9);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/browse/search/same-hits", test_same_hits);
  g_test_add_func ("/browse/search/query-forms", test_query_forms);

  return g_test_run ();
}
