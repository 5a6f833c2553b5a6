/* slow-lookup.c — a host name whose lookup hangs on command, for
 * test-server-pg-reconnect.c: preloaded (LD_PRELOAD) into the server under
 * test, it stands in front of the C library's getaddrinfo ()
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A partition that cuts DNS makes a lookup wait for the resolver's timeout;
 * a name may have several addresses, the first of them silent (a dead IPv6
 * address before a working IPv4 one); a test cannot change the machine's
 * resolver (nor /etc/hosts), so this does it for one name:
 *   TRIAGE_TEST_LOOKUP_NAME       the name: it resolves to 127.0.0.1
 *   TRIAGE_TEST_LOOKUP_ADDRESSES  or to these numeric addresses, in this
 *                                 order (comma-separated)
 *   TRIAGE_TEST_LOOKUP_HOLD       a file: while it exists, a lookup of the
 *                                 name waits (60 s at most), having added a
 *                                 byte to the file HOLD.held to say so (one
 *                                 a lookup held)
 * Every other lookup goes to the C library as it is. (Also used by
 * test-server-pg-failover.c.)
 */

#define _GNU_SOURCE

#include <dlfcn.h>
#include <fcntl.h>
#include <netdb.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <unistd.h>

#include "../hold-file.h"

typedef int (*GetaddrinfoFunc) (const char *, const char *, const struct addrinfo *,
                                struct addrinfo **);

/* Each of the numeric @addresses looked up in turn, their answers one
 * after the other (glibc's freeaddrinfo () frees such a chain: each entry
 * is a block of its own). */
static int
resolve_to (GetaddrinfoFunc         next,
            const char             *addresses,
            const char             *service,
            const struct addrinfo  *hints,
            struct addrinfo       **result)
{
  struct addrinfo numeric = { .ai_flags = AI_NUMERICHOST };
  struct addrinfo **tail = result;
  char *list = strdup (addresses);
  char *saved = NULL;

  if (list == NULL)
    return EAI_MEMORY;
  if (hints != NULL)
    {
      numeric = *hints;
      numeric.ai_flags |= AI_NUMERICHOST;
    }
  *result = NULL;
  for (char *address = strtok_r (list, ",", &saved); address != NULL;
       address = strtok_r (NULL, ",", &saved))
    {
      if (next (address, service, &numeric, tail) != 0)
        continue;
      while (*tail != NULL)
        tail = &(*tail)->ai_next;
    }
  free (list);
  return *result != NULL ? 0 : EAI_NONAME;
}

int
getaddrinfo (const char             *node,
             const char             *service,
             const struct addrinfo  *hints,
             struct addrinfo       **result)
{
  GetaddrinfoFunc next = (GetaddrinfoFunc) dlsym (RTLD_NEXT, "getaddrinfo");
  const char *name = getenv ("TRIAGE_TEST_LOOKUP_NAME");
  const char *file = getenv ("TRIAGE_TEST_LOOKUP_HOLD");

  const char *addresses = getenv ("TRIAGE_TEST_LOOKUP_ADDRESSES");

  if (node != NULL && name != NULL && strcasecmp (node, name) == 0)
    {
      if (file != NULL)
        hold_while_file (file, "slow-lookup");
      if (addresses != NULL)
        return resolve_to (next, addresses, service, hints, result);
      node = "127.0.0.1";
    }
  return next (node, service, hints, result);
}
