/* triage-ask-hook-patterns.c — the commands that destroy or cannot be undone, as patterns
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "triage-ask"

#include "triage-ask-hook-patterns.h"

/* The patterns' cost: each is tried from every place its first word is, and the rest
 * of the command read from each; 4 KiB of "kubectl " cost 500 times 4 KiB. So a
 * pattern has one first word, and after it (*COMMIT): what the first one found no
 * flag after, no later one finds (it sees less of the command), and the match fails
 * there. */
#define THEN "(*COMMIT)"

/* git and its options before the command: git -C DIR push, git --no-pager push. Taken
 * as git takes them, never given back: an option's argument may start with - (git -C
 * -C), and each way to split 40 of them was tried in turn (PCRE2 gave up, which read
 * as no match, after 0.25 s). A git among them is an option's argument, whose options
 * end where these end: the next try starts there (*SKIP). */
#define GIT "\\bgit(?>\\s+(?:(?:-C|-c|--git-dir|--work-tree|--namespace|--super-prefix|" \
            "--config-env|--attr-source)\\s+\\S+|-\\S+))*+(*SKIP)\\s+"

/* git's pathspecs for all of a tree: ., .., ../.., :/ (the top), :(top), * */
#define ALL_PATHS "(\\.\\.?(/\\.\\.)*|:/|:\\([^)\\s]*\\)\\S*|\\*)/?(\\s|$)"

/* SQL's words, not a sentence's ("drop table of contents", "Allow users to delete from
 * favorites", "Fix crash in drop table handler", 'Truncate titles; …'): in capitals, or
 * in small letters at a statement's start (a line's, or after a ;, a quote or a
 * parenthesis, or psql's -c and mysql's -e, below, whose quotes the second reading took
 * off) and a table's name then the statement's end, a quote or what SQL says there;
 * anywhere, drop table or delete from a name then ";" (a command is matched with the ;
 * that ends it). */
#define SQL_START "(?:^|[;'\"(`])\\s*"
#define SQL_NAME  "(?:only\\s+)?[\\w.\"`]+(?:\\s*,\\s*[\\w.\"`]+)*"
#define SQL_DROP   "drop\\s+(table|database|schema|index|view)\\s+(if\\s+exists\\s+)?" SQL_NAME
#define SQL_DELETE "delete\\s+from\\s+" SQL_NAME
#define SQL_DROP_STATEMENT SQL_DROP "\\s*(;|$|['\"]|\\b(cascade|restrict)\\b)"
#define SQL_TRUNCATE_STATEMENT "truncate\\s+(table\\s+)?" SQL_NAME \
  "\\s*(;|$|['\"]|\\b(cascade|restrict|restart|continue)\\b)"
/* What may come before a DELETE and still run it: EXPLAIN ANALYZE, a WITH clause. */
#define SQL_DELETE_LEAD "(?:explain\\s+(?:analy[sz]e\\s+(?:verbose\\s+)?|" \
  "\\((?=[^)]{0,256}analy)[^)]{0,256}\\)\\s*))?(?:with\\s+[^;]{0,2048}?\\)\\s*)?"
/* A table, maybe with an alias (AS u, or u then WHERE). */
#define SQL_DELETE_STATEMENT SQL_DELETE_LEAD SQL_DELETE \
  "(\\s*(;|$|['\"])|\\s+((as\\s+)?\\w+\\s+)?(where|using|returning|order|limit)\\b)"

/* A block device, which a write to wipes: /dev/sdb, /dev/nvme0n1, /dev/mmcblk0 … */
#define DEVICE "/dev/(sd|nvme|hd|vd|xvd|mmcblk|md|dm-|mapper/|disk/)"

typedef enum
{
  DESTRUCTIVE,
  IRREVERSIBLE,   /* and destructive */
  UNSURE,         /* may run what cannot be seen: requires_confirmation */
} Earns;

/* Commands that destroy or cannot be undone: the flags the person is shown, and that
 * make the app ask for a confirmation before Allow is sent. */
static const struct
{
  const char *pattern;
  Earns       earns;
} dangerous_commands[] = {
  /* rm -rf, rm -r, and GNU's rm DIR -rf: options after the files (and redirections:
   * 2>&1), up to the end of that command (;, &, |); --rec, as GNU (and git below) takes
   * any unambiguous start of a long option. Not git rm, below, whose files git keeps
   * (x=git rm is rm). */
  { "(?<!(?<![\\w=/.-])git\\s)\\brm\\s+" THEN
    "((?>([<>]&|&>|[^\\s;&|])+)\\s+)*(-[a-zA-Z]*[rR]|--r[a-z]*\\b)", IRREVERSIBLE },
  { "\\bfind\\b" THEN ".*\\s-delete\\b", IRREVERSIBLE },
  /* -f among other short options: -fu, -qf. */
  { GIT "push\\b" THEN ".*(\\s--forc[a-z-]*\\b|\\s-[a-zA-Z]*f[a-zA-Z]*\\b|\\s\\+\\S)",
    IRREVERSIBLE },
  /* A remote branch; --mirror and --prune delete those the repository has not. */
  { GIT "push\\b" THEN ".*(\\s--(de|mir|pru)[a-z]*\\b|\\s-[a-zA-Z]*d[a-zA-Z]*\\b|\\s:[^\\s;&|])",
    IRREVERSIBLE },
  /* Uncommitted work: git checkout [TREE] [--] . or -f (-b and -B take a name: -bfix),
   * git switch --discard-changes or -f, git restore [OPTIONS] . (not --staged alone)
   * or --worktree, git rm -f (not --cached). */
  { GIT "checkout\\s+" THEN "(\\S+\\s+)*(" ALL_PATHS "|(-[ac-zAC-Z]*f[a-zA-Z]*|--fo[a-z]*)\\b)",
    IRREVERSIBLE },
  { GIT "switch\\s+" THEN "(\\S+\\s+)*(-[abd-zABD-Z]*f[a-zA-Z]*|--fo[a-z]*|--di[a-z-]*)\\b",
    IRREVERSIBLE },
  { GIT "restore\\s+" THEN "((?!(.*\\s)?(--staged|-S)\\b)(\\S+\\s+)*" ALL_PATHS "|"
    "(\\S+\\s+)*(--wo[a-z]*|-[a-zA-Z]*W)\\b)", IRREVERSIBLE },
  { GIT "rm\\s+" THEN "(?!(.*\\s)?--c[a-z]*\\b)(\\S+\\s+)*(-[a-zA-Z]*f|--f[a-z]*\\b)",
    IRREVERSIBLE },
  { GIT "reset\\s+" THEN "(\\S+\\s+)*--ha[a-z]*\\b", IRREVERSIBLE },
  { GIT "clean\\s+" THEN "(\\S+\\s+)*(-[a-zA-Z]*f|--f[a-z]*\\b)", IRREVERSIBLE },
  { GIT "stash\\s+" THEN "(\\S+\\s+)*clear\\b", IRREVERSIBLE },
  { GIT "branch\\s+" THEN "(\\S+\\s+)*(-[a-zA-Z]*D|-[a-zA-Z]*d[a-zA-Z]*f|-[a-zA-Z]*f[a-zA-Z]*d|"
    "(--de[a-z]*|-d)\\s+(\\S+\\s+)*(--f[a-z]*|-f)\\b|(--f[a-z]*|-f)\\s+(\\S+\\s+)*(--de[a-z]*|-d)\\b)",
    DESTRUCTIVE },
  /* An alias runs what its definition says, which is not on the line. */
  { "\\bgit\\s" THEN "(.*\\s)?(-c\\s*|--config-env[\\s=]\\s*)['\"]?(?i:alias)\\.", UNSURE },
  { "\\bGIT_CONFIG_(KEY_\\d+=['\"]?(?i:alias)\\.|PARAMETERS=)", UNSURE },
  { "\\bDROP\\s+(TABLE|DATABASE|SCHEMA|INDEX|VIEW)\\b|"
    SQL_START "(?:" SQL_DROP_STATEMENT ")|\\b(?:" SQL_DROP "\\s*;)", IRREVERSIBLE },
  { "\\bTRUNCATE\\s+\\w|" SQL_START "(?:" SQL_TRUNCATE_STATEMENT ")|"
    "\\b(?:truncate\\s+table\\s+" SQL_NAME "\\s*;)", IRREVERSIBLE },
  /* truncate(1) with a size or a reference file. */
  { "\\btruncate\\s+" THEN "(\\S+\\s+)*(-[a-zA-Z]*[sr]|--(s|re)[a-z]*\\b)", IRREVERSIBLE },
  { "\\bDELETE\\s+FROM\\s+\\S|" SQL_START "(?:" SQL_DELETE_STATEMENT ")|"
    "\\b(?:" SQL_DELETE "\\s*;)", IRREVERSIBLE },
  /* The SQL of psql's -c or mysql's -e (-Xc, --command=) is at a statement's start; the
   * -c of grep -c "drop table" dump.sql is not SQL's. */
  { "\\b(psql|mysql|mariadb)\\s+" THEN "(?>\\S+\\s+)*?(-[a-zA-Z]*[ce]|--command|--execute)"
    "[=\\s]\\s*(" SQL_DROP_STATEMENT "|" SQL_TRUNCATE_STATEMENT "|" SQL_DELETE_STATEMENT ")",
    IRREVERSIBLE },
  { "\\b(dropdb|mkfs(\\.\\w+)?|mke2fs|mkswap|wipefs|blkdiscard|shred)\\b", IRREVERSIBLE },
  { "\\bdd\\s+" THEN "(\\S+\\s+)*of=", IRREVERSIBLE },
  { ">\\s*" DEVICE, IRREVERSIBLE },
  { "\\btee\\s+" THEN "(\\S+\\s+)*" DEVICE, IRREVERSIBLE },
  { "\\bcp\\s+" THEN "(\\S+\\s+)+" DEVICE "\\S*\\s*$", IRREVERSIBLE },
  { "\\brsync\\s+" THEN "(\\S+\\s+)*--(dele|remove-)[a-z-]*\\b", IRREVERSIBLE },
  { "\\b(chmod|chown)\\s+" THEN "(\\S+\\s+)*(-[a-zA-Z]*R|--rec[a-z]*\\b)", DESTRUCTIVE },
  /* Their options may come before the verb: kubectl -n prod delete. */
  { "\\b(kubectl|oc)\\s+" THEN "(\\S+\\s+)*delete\\b", IRREVERSIBLE },
  { "\\b(terraform|tofu)\\s+" THEN "((\\S+\\s+)*destroy\\b|(?=(.*\\s)?apply\\b).*\\s--?destroy\\b)",
    IRREVERSIBLE },
  { "\\bhelm\\s+" THEN "(\\S+\\s+)*(uninstall|delete)\\b", IRREVERSIBLE },
  /* docker rm, docker container rm, docker image prune, docker --context x rm;
   * compose's down -v takes the volumes. */
  { "\\b(docker|podman)\\s+" THEN "(\\S+\\s+)*(rm|rmi|prune)\\b", DESTRUCTIVE },
  { "\\b(docker|podman)(\\s+|-)compose\\s+" THEN
    "(\\S+\\s+)*down\\s+(\\S+\\s+)*(-[a-zA-Z]*v|--vol[a-z]*)\\b", DESTRUCTIVE },
  /* PowerShell takes any start of a parameter's name (-r, -Rec), and Remove-Item's
   * aliases. */
  { "(?i)(?<![\\w.-])(Remove-Item|del|erase|rd|ri|rmdir)\\s+" THEN "(\\S+\\s+)*"
    "-r(e(c(u(r(s(e)?)?)?)?)?)?\\b", IRREVERSIBLE },
};

struct _TriageAskHookPatterns
{
  GRegex *regexes[G_N_ELEMENTS (dangerous_commands)];
};

TriageAskHookPatterns *
triage_ask_hook_patterns_new (void)
{
  TriageAskHookPatterns *self = g_new0 (TriageAskHookPatterns, 1);

  for (guint i = 0; i < G_N_ELEMENTS (dangerous_commands); i++)
    self->regexes[i] = g_regex_new (dangerous_commands[i].pattern,
                                    G_REGEX_MULTILINE | G_REGEX_DOTALL | G_REGEX_OPTIMIZE, 0,
                                    NULL);
  return self;
}

void
triage_ask_hook_patterns_free (TriageAskHookPatterns *self)
{
  for (guint i = 0; i < G_N_ELEMENTS (dangerous_commands); i++)
    g_clear_pointer (&self->regexes[i], g_regex_unref);
  g_free (self);
}

void
triage_ask_hook_patterns_match (TriageAskHookPatterns *self,
                                const char            *command,
                                TriageAskHookVerdict  *verdict)
{
  const char *p = command;

  /* Every pattern has a letter: 35,000 commands of ";" cost 35,000 times each. */
  while (*p != '\0' && !g_ascii_isalpha (*p))
    p++;
  if (*p == '\0')
    return;
  for (guint i = 0; i < G_N_ELEMENTS (dangerous_commands); i++)
    {
      g_autoptr(GError) error = NULL;

      if (g_regex_match_full (self->regexes[i], command, -1, 0, 0, NULL, &error))
        {
          verdict->destructive |= dangerous_commands[i].earns != UNSURE;
          verdict->irreversible |= dangerous_commands[i].earns == IRREVERSIBLE;
          verdict->unchecked |= dangerous_commands[i].earns == UNSURE;
        }
      else if (error != NULL)
        verdict->unchecked = TRUE;   /* PCRE2 gave up: nothing found is nothing said */
    }
}
