/* triage-pg-addresses.c
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * libpq gives each address of a host name connect_timeout of its own, one
 * after the other, and its connection cannot be watched address by
 * address. So the dial thread (triage-pg-dial.c) looks the URI's host
 * names up itself, as libpq would (getaddrinfo (), any family, a stream
 * socket: the same addresses in the same order), and gives libpq one
 * entry an address: hostaddr the address, host the name (which libpq
 * keeps for TLS host checks and the password file). The server then knows
 * how many tries libpq has ahead of it, and can put the address that
 * answered last first. Socket paths, and names that do not resolve, stay
 * one entry with no address: libpq does as it would (and says why).
 */

#define G_LOG_DOMAIN "triage-store-postgres"

#include <netdb.h>
#include <string.h>
#include <sys/socket.h>

#include "triage-pg-addresses.h"

typedef struct
{
  char *host;
  char *address;   /* "" if libpq is to look the host up itself */
  char *port;      /* "" if the URI gives one for all, or none */
} Entry;

struct _TriagePgAddresses
{
  GArray   *entries;  /* Entry */
  gboolean  ports;    /* a port each */
};

static void
entry_clear (gpointer data)
{
  Entry *entry = data;

  g_free (entry->host);
  g_free (entry->address);
  g_free (entry->port);
}

/* @host's addresses as libpq would look them up, in its order (numeric
 * text), @last (if among them) first; NULL if it does not resolve. */
static GPtrArray *
addresses_of (const char *host,
              const char *last)
{
  struct addrinfo hints = { .ai_family = AF_UNSPEC, .ai_socktype = SOCK_STREAM };
  struct addrinfo *list = NULL;
  GPtrArray *addresses;

  if (getaddrinfo (host, NULL, &hints, &list) != 0)
    return NULL;
  addresses = g_ptr_array_new_with_free_func (g_free);
  for (struct addrinfo *ai = list; ai != NULL; ai = ai->ai_next)
    {
      char text[NI_MAXHOST];

      if (getnameinfo (ai->ai_addr, ai->ai_addrlen, text, sizeof text, NULL, 0,
                       NI_NUMERICHOST) != 0)
        continue;
      if (last != NULL && strcmp (text, last) == 0)
        g_ptr_array_insert (addresses, 0, g_strdup (text));
      else
        g_ptr_array_add (addresses, g_strdup (text));
    }
  freeaddrinfo (list);
  if (addresses->len == 0)
    g_clear_pointer (&addresses, g_ptr_array_unref);
  return addresses;
}

/* Looks up each of @hosts (a URI's host list; @ports NULL, one for all,
 * or one each), blocking: NULL if none is a name that resolves (nothing to
 * give libpq). The address @last_address of @last_host comes first among
 * that host's. */
TriagePgAddresses *
triage_pg_addresses_look_up (const char * const *hosts,
                             const char * const *ports,
                             const char         *last_host,
                             const char         *last_address)
{
  guint n_hosts = hosts != NULL ? g_strv_length ((char **) hosts) : 0;
  guint n_ports = ports != NULL ? g_strv_length ((char **) ports) : 0;
  g_autoptr(TriagePgAddresses) self = g_new0 (TriagePgAddresses, 1);
  gboolean looked_up = FALSE;

  self->entries = g_array_new (FALSE, FALSE, sizeof (Entry));
  g_array_set_clear_func (self->entries, entry_clear);
  self->ports = n_hosts > 1 && n_ports == n_hosts;
  for (guint i = 0; i < n_hosts; i++)
    {
      const char *host = hosts[i];
      g_autoptr(GPtrArray) addresses = NULL;

      if (*host != '\0' && *host != '/' && *host != '@')
        addresses = addresses_of (host, g_strcmp0 (host, last_host) == 0 ? last_address : NULL);
      for (guint j = 0; j < (addresses != NULL ? addresses->len : 1); j++)
        {
          Entry entry = { g_strdup (host),
                          g_strdup (addresses != NULL ? addresses->pdata[j] : ""),
                          g_strdup (self->ports ? ports[i] : "") };

          g_array_append_val (self->entries, entry);
        }
      looked_up |= addresses != NULL;
    }
  return looked_up ? g_steal_pointer (&self) : NULL;
}

/* How many hosts libpq is given: one an address. */
guint
triage_pg_addresses_get_n (TriagePgAddresses *self)
{
  return self->entries->len;
}

static char *
list_of (TriagePgAddresses *self,
         gsize              offset)
{
  GString *list = g_string_new (NULL);

  for (guint i = 0; i < self->entries->len; i++)
    g_string_append_printf (list, "%s%s", i > 0 ? "," : "",
                            G_STRUCT_MEMBER (char *, &g_array_index (self->entries, Entry, i),
                                             offset));
  return g_string_free (list, FALSE);
}

/* libpq's host list. */
char *
triage_pg_addresses_dup_hosts (TriagePgAddresses *self)
{
  return list_of (self, G_STRUCT_OFFSET (Entry, host));
}

/* libpq's hostaddr list. */
char *
triage_pg_addresses_dup_hostaddrs (TriagePgAddresses *self)
{
  return list_of (self, G_STRUCT_OFFSET (Entry, address));
}

/* libpq's port list, or NULL if the URI's (one for all, or none) stays. */
char *
triage_pg_addresses_dup_ports (TriagePgAddresses *self)
{
  return self->ports ? list_of (self, G_STRUCT_OFFSET (Entry, port)) : NULL;
}

/* libpq's @message with each address it quotes ("connection to server at
 * \"ADDRESS\", port …": libpq names no host it was given an address for)
 * named as the host the operator gave: "HOST" (ADDRESS). */
char *
triage_pg_addresses_name (TriagePgAddresses *self,
                          const char        *message)
{
  g_autoptr(GHashTable) named = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  GString *text = g_string_new (message);

  for (guint i = 0; i < self->entries->len; i++)
    {
      Entry *entry = &g_array_index (self->entries, Entry, i);

      if (*entry->address != '\0' && strcmp (entry->host, entry->address) != 0)
        g_hash_table_insert (named, g_strdup_printf ("\"%s\"", entry->address),
                             g_strdup_printf ("\"%s\" (%s)", entry->host, entry->address));
    }
  /* Each quoted address once, from the left: a name put in is not read
   * again. */
  for (gsize at = 0; at < text->len; at++)
    {
      const char *end;
      g_autofree char *quoted = NULL;
      const char *name;

      if (text->str[at] != '"' || (end = strchr (text->str + at + 1, '"')) == NULL)
        continue;
      quoted = g_strndup (text->str + at, end - (text->str + at) + 1);
      name = g_hash_table_lookup (named, quoted);
      if (name != NULL)
        {
          g_string_erase (text, at, strlen (quoted));
          g_string_insert (text, at, name);
          at += strlen (name) - 1;
        }
      else
        at = end - text->str;
    }
  return g_string_free (text, FALSE);
}

void
triage_pg_addresses_free (TriagePgAddresses *self)
{
  if (self == NULL)
    return;
  g_array_unref (self->entries);
  g_free (self);
}
