/* triage-pg-link.c
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * What one server's connections to its PostgreSQL database share. Store
 * calls are synchronous on the main loop, so a database that stops
 * answering (a network partition that drops packets, a backend that hangs)
 * must not be waited for long, or the whole server stops: /healthz,
 * streams, the drain on SIGTERM.
 *
 *   - Connections keep TCP keepalives (idle 5 s, then a probe every 2 s, 3
 *     lost: a dead route is found in ~11 s on an idle connection) and
 *     tcp_user_timeout (12 s for data the peer does not acknowledge); values
 *     of the URI win.
 *   - No answer is waited for longer than the session's statement_timeout
 *     (10 s unless the URI sets one) and 2 s more; no connection longer
 *     than connect_timeout (the URI's or PGCONNECT_TIMEOUT, else 10 s).
 *   - A wait that passes its deadline is a stall: the database is taken as
 *     not answering, every connection of the server is cut (its socket shut
 *     down: whoever watches it learns at once, a commit in flight fails,
 *     the listener connects again), and until a new connection answers,
 *     store calls fail at once (503) instead of waiting again. That
 *     connection is tried in the background, never held by the main loop:
 *     a thread of its own looks its host up, connects and sets it up
 *     (triage-pg-dial.c), the main loop takes it once it answers; a
 *     partition kept the old connections' packets, so none of them is used
 *     again.
 *   - A table held against writes (a LOCK TABLE, a VACUUM FULL, a restore)
 *     makes the database locked, once a lock wait is given up
 *     (lock_timeout) or /readyz's probe finds it: each request that met the
 *     lock held the main loop for lock_timeout, one after the other, and
 *     /readyz said ready. Until a probe finds the lock free, the sessions'
 *     lock waits are cut short (triage-pg-connection.c): a statement that
 *     needs a table held fails at once (503), the others run as ever, and
 *     /readyz says the database is locked. The probe takes, without
 *     waiting (NOWAIT), the locks a write takes on every table of the
 *     schema, and lets them go: one round trip that never waits, made by
 *     a statement at most every LOCK_PROBE_INTERVAL_US while the database
 *     is locked, and by every /readyz.
 */

#define G_LOG_DOMAIN "triage-store-postgres"

#include <errno.h>
#include <poll.h>
#include <string.h>

#include "triage-pg-connection-private.h"

/* A new connection is tried at most this often while the database does
 * not answer. */
#define ATTEMPT_INTERVAL_US G_USEC_PER_SEC
/* How often statements probe a locked database. */
#define LOCK_PROBE_INTERVAL_US G_USEC_PER_SEC

struct _TriagePgLink
{
  gint        ref_count;
  char       *uri;
  char       *password;
  GPtrArray  *members;       /* TriagePgConnection*, not owned */
  gboolean    down;          /* a wait passed its deadline; no connection answered since */
  gboolean    attempting;    /* a connection is being made in the background */
  gint64      attempt_at;    /* monotonic µs: no attempt before this */
  GPtrArray  *lingering;     /* TriagePgDial: given up, their threads maybe still running */
  /* The URI's multi-host lists (NULL: it has none), of n_listed hosts. */
  char      **hosts;
  char      **hostaddrs;
  char      **ports;
  guint       n_listed;
  guint       first;         /* the host last connected to: libpq tries it first */
  char       *last_host;     /* PQhost () and PQhostaddr () of the last connection made */
  char       *last_address;
  guint       connections;   /* made so far: a new one may meet another database */
  char       *lock_probe;    /* SQL that takes a write's locks without waiting; NULL: none */
  char       *locked;        /* a lock wait given up (its message), no probe found it free since */
  guint64     lock_waits;    /* lock waits the database gave up */
  gint64      probed_at;     /* monotonic µs: a statement's last probe of the lock */
};

/* A whole number, as libpq takes connect_timeout (blanks around it). */
static gboolean
valid_seconds (const char *text)
{
  g_autofree char *stripped = g_strstrip (g_strdup (text));
  gint64 seconds;

  return g_ascii_string_to_signed (stripped, 10, G_MININT32, G_MAXINT32, &seconds, NULL);
}

/* A URI that holds a password is refused: it would be on the command line,
 * which every user of the machine can read. */
gboolean
triage_pg_check_uri (const char *uri,
                     GError    **error)
{
  char *parse_error = NULL;
  PQconninfoOption *options = PQconninfoParse (uri, &parse_error);
  g_autofree char *bad_timeout = NULL;
  const char *env_timeout = g_getenv ("PGCONNECT_TIMEOUT");
  gboolean has_password = FALSE;

  if (options == NULL)
    {
      g_autofree char *message = triage_pg_message_of (parse_error);

      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                   "--database: not a PostgreSQL connection URI: %s", message);
      PQfreemem (parse_error);
      return FALSE;
    }
  for (PQconninfoOption *option = options; option->keyword != NULL; option++)
    {
      if (strcmp (option->keyword, "password") == 0 && option->val != NULL &&
          *option->val != '\0')
        has_password = TRUE;
      /* The server gives libpq its own connect_timeout (triage_pg_link_connect_params
       * ()), so libpq would not say when the URI's is not a number. */
      else if (strcmp (option->keyword, "connect_timeout") == 0 && option->val != NULL)
        {
          env_timeout = NULL;
          if (!valid_seconds (option->val))
            bad_timeout = g_strdup (option->val);
        }
    }
  PQconninfoFree (options);
  if (bad_timeout != NULL)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                   "--database: connect_timeout “%s” is not a whole number of seconds",
                   bad_timeout);
      return FALSE;
    }
  if (env_timeout != NULL && *env_timeout != '\0' && !valid_seconds (env_timeout))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                   "PGCONNECT_TIMEOUT “%s” is not a whole number of seconds", env_timeout);
      return FALSE;
    }
  if (has_password)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                   "--database: the URI holds a password, which the command line would show to "
                   "every user of this machine; give it in a file with --database-password-file, "
                   "or through PGPASSFILE or PGPASSWORD");
      return FALSE;
    }
  return TRUE;
}

/* The host, hostaddr and port lists of @options (a URI's, or a
 * connection's) that the link has none of yet, and how many hosts libpq
 * takes from them (those of hostaddr if given, else of host). */
static void
read_hosts (TriagePgLink     *self,
            PQconninfoOption *options)
{
  for (PQconninfoOption *option = options; option != NULL && option->keyword != NULL; option++)
    {
      if (option->val == NULL || *option->val == '\0')
        continue;
      if (strcmp (option->keyword, "host") == 0 && self->hosts == NULL)
        self->hosts = g_strsplit (option->val, ",", -1);
      else if (strcmp (option->keyword, "hostaddr") == 0 && self->hostaddrs == NULL)
        self->hostaddrs = g_strsplit (option->val, ",", -1);
      else if (strcmp (option->keyword, "port") == 0 && self->ports == NULL)
        self->ports = g_strsplit (option->val, ",", -1);
    }
  self->n_listed = self->hostaddrs != NULL ? g_strv_length (self->hostaddrs)
                 : self->hosts != NULL ? g_strv_length (self->hosts) : 0;
}

/* The URI had no hosts (libpq took them from PGHOST, PGHOSTADDR or a
 * service file, which the server does not read): they are read from
 * @conn, the first connection made (PQconninfo () has libpq's lists
 * whole), and from then on ordered and looked up as a URI's would be. */
void
triage_pg_link_learn_hosts (TriagePgLink *self,
                            PGconn       *conn)
{
  PQconninfoOption *options;

  if (self->hosts != NULL || self->hostaddrs != NULL || (options = PQconninfo (conn)) == NULL)
    return;
  read_hosts (self, options);
  PQconninfoFree (options);
  if (self->hosts != NULL || self->hostaddrs != NULL)
    g_debug ("the hosts libpq was given elsewhere than the URI: %u", self->n_listed);
}

TriagePgLink *
triage_pg_link_new (const char *uri,
                    const char *password,
                    GError    **error)
{
  TriagePgLink *self;
  PQconninfoOption *options;

  if (!triage_pg_check_uri (uri, error))
    return NULL;
  self = g_new0 (TriagePgLink, 1);
  self->ref_count = 1;
  self->uri = g_strdup (uri);
  self->password = g_strdup (password);
  self->members = g_ptr_array_new ();
  self->lingering = g_ptr_array_new_with_free_func ((GDestroyNotify) triage_pg_dial_unref);
  options = PQconninfoParse (uri, NULL);
  read_hosts (self, options);
  PQconninfoFree (options);
  return self;
}

TriagePgLink *
triage_pg_link_ref (TriagePgLink *self)
{
  g_atomic_int_inc (&self->ref_count);
  return self;
}

void
triage_pg_link_unref (TriagePgLink *self)
{
  if (self == NULL || !g_atomic_int_dec_and_test (&self->ref_count))
    return;
  g_free (self->uri);
  if (self->password != NULL)
    memset (self->password, 0, strlen (self->password));
  g_free (self->password);
  g_ptr_array_unref (self->members);
  g_ptr_array_unref (self->lingering);
  g_strfreev (self->hosts);
  g_strfreev (self->hostaddrs);
  g_strfreev (self->ports);
  g_free (self->last_host);
  g_free (self->last_address);
  g_free (self->lock_probe);
  g_free (self->locked);
  g_free (self);
}

/* @list (of the URI's n_listed hosts) from its entry @first on, then the
 * ones before: NULL if it is not one entry a host. */
static char *
rotated (TriagePgLink *self,
         char        **list)
{
  GString *text;

  if (list == NULL || g_strv_length (list) != self->n_listed)
    return NULL;
  text = g_string_new (NULL);
  for (guint i = 0; i < self->n_listed; i++)
    g_string_append_printf (text, "%s%s", i > 0 ? "," : "",
                            list[(self->first + i) % self->n_listed]);
  return g_string_free (text, FALSE);
}

/* What libpq's PQconnectdbParams () takes (@keywords and @values, both
 * NULL-terminated) to make a connection. The URI's own values override
 * those before it; its hosts come in the same order from the one last
 * connected to on (triage_pg_link_connected ()); connect_timeout is the one
 * the server keeps (the URI's unless 0), and the password file overrides
 * everything. */
void
triage_pg_link_connect_params (TriagePgLink *self,
                               const char   *name,
                               char       ***keywords,
                               char       ***values)
{
  g_autofree char *user_timeout = g_strdup_printf ("%d", TRIAGE_PG_STATEMENT_TIMEOUT_MS +
                                                   TRIAGE_PG_ANSWER_GRACE_MS);
  /* libpq gives each host that long; without it, a host that accepts and
   * says nothing would be waited for until the main loop gives the try up. */
  g_autofree char *connect_timeout =
    g_strdup_printf ("%" G_GINT64_FORMAT, triage_pg_link_connect_timeout (self) / G_USEC_PER_SEC);
  const char *keys[] = { "fallback_application_name", "keepalives", "keepalives_idle",
                         "keepalives_interval", "keepalives_count", "tcp_user_timeout",
                         "dbname", "connect_timeout" };
  const char *vals[] = { name, "1", "5", "2", "3", user_timeout, self->uri, connect_timeout };
  GPtrArray *keys_out = g_ptr_array_new ();
  GPtrArray *values_out = g_ptr_array_new ();

  for (guint i = 0; i < G_N_ELEMENTS (keys); i++)
    {
      g_ptr_array_add (keys_out, g_strdup (keys[i]));
      g_ptr_array_add (values_out, g_strdup (vals[i]));
    }
  if (self->first > 0)
    {
      const char *listed[] = { "host", "hostaddr", "port" };
      char **lists[] = { self->hosts, self->hostaddrs, self->ports };

      for (guint i = 0; i < G_N_ELEMENTS (listed); i++)
        {
          char *list = rotated (self, lists[i]);

          if (list == NULL)
            continue;
          g_ptr_array_add (keys_out, g_strdup (listed[i]));
          g_ptr_array_add (values_out, list);
        }
    }
  if (self->password != NULL)
    {
      g_ptr_array_add (keys_out, g_strdup ("password"));
      g_ptr_array_add (values_out, g_strdup (self->password));
    }
  g_ptr_array_add (keys_out, NULL);
  g_ptr_array_add (values_out, NULL);
  *keywords = (char **) g_ptr_array_free (keys_out, FALSE);
  *values = (char **) g_ptr_array_free (values_out, FALSE);
}

/* @dial is to look up the host names of the URI's host list (in the order
 * triage_pg_link_connect_params () gives them) and try the address last
 * connected to first (triage_pg_dial_look_up ()); not if the URI or
 * PGHOSTADDR gives addresses (nothing to look up). Hosts from elsewhere
 * (PGHOST, a service file) are looked up so too once the first connection
 * has named them (triage_pg_link_learn_hosts ()); until then libpq does. */
void
triage_pg_link_look_up (TriagePgLink *self,
                        TriagePgDial *dial)
{
  const char *env_addresses = g_getenv ("PGHOSTADDR");
  g_auto(GStrv) hosts = NULL;
  g_auto(GStrv) ports = NULL;
  g_autofree char *host_list = NULL, *port_list = NULL;
  guint n_ports = self->ports != NULL ? g_strv_length (self->ports) : 0;

  /* A port list that fits no host list is libpq's to refuse, counting the
   * URI's hosts, not their addresses. */
  if (self->hosts == NULL || self->hostaddrs != NULL ||
      (env_addresses != NULL && *env_addresses != '\0') ||
      (n_ports > 1 && n_ports != self->n_listed))
    return;
  host_list = rotated (self, self->hosts);
  port_list = rotated (self, self->ports);
  hosts = g_strsplit (host_list, ",", -1);
  ports = port_list != NULL ? g_strsplit (port_list, ",", -1) : g_strdupv (self->ports);
  triage_pg_dial_look_up (dial, (const char * const *) hosts, (const char * const *) ports,
                          self->last_host, self->last_address);
}

/* The URI's host @host (PQhost ()) at @port (PQport ()) is, or -1. */
static int
listed_index (TriagePgLink *self,
              const char   *host,
              const char   *port)
{
  guint n_hosts = self->hosts != NULL ? g_strv_length (self->hosts) : 0;
  guint n_ports = self->ports != NULL ? g_strv_length (self->ports) : 0;

  for (guint i = 0; i < self->n_listed && host != NULL; i++)
    {
      /* PQhost () is the host's name, or its address when it has none. */
      const char *listed = n_hosts == self->n_listed && *self->hosts[i] != '\0'
                             ? self->hosts[i]
                             : self->hostaddrs != NULL ? self->hostaddrs[i] : NULL;
      const char *listed_port = n_ports == self->n_listed ? self->ports[i]
                              : n_ports == 1 ? self->ports[0] : NULL;

      if (g_strcmp0 (listed, host) == 0 &&
          (listed_port == NULL || *listed_port == '\0' || port == NULL ||
           g_strcmp0 (listed_port, port) == 0))
        return (int) i;
    }
  return -1;
}

/* A connection was made to @host (PQhost ()) at @port (PQport ()), its
 * address @address (PQhostaddr ()): if it is another host of the URI than
 * the first, new connections try it first (and then the others in the
 * URI's order), and that address of it before its others, so that once a
 * host or an address stopped answering, every connection does not wait
 * connect_timeout on it again, each holding the main loop; the host that
 * stops answering next is passed over as any. */
void
triage_pg_link_connected (TriagePgLink *self,
                          const char   *host,
                          const char   *port,
                          const char   *address)
{
  int i = listed_index (self, host, port);

  self->connections++;
  g_free (self->last_host);
  g_free (self->last_address);
  self->last_host = g_strdup (host);
  self->last_address = address != NULL && *address != '\0' ? g_strdup (address) : NULL;

  if (i < 0 || (guint) i == self->first)
    return;
  g_message ("connected to the PostgreSQL database at %s (host %d of the URI's %u): "
             "new connections try it first", host, i + 1, self->n_listed);
  self->first = (guint) i;
}

/* A connection was made to @host at @port, but its first statements were
 * not answered in time (a backend that hangs, a pool in front of a
 * database that does): libpq took it for a good host, so the next try
 * starts at the URI's host after it, or it would meet the same one again
 * and never reach the others. */
void
triage_pg_link_unanswered (TriagePgLink *self,
                           const char   *host,
                           const char   *port)
{
  int i = listed_index (self, host, port);

  /* Nor is the address it reached tried first. */
  g_clear_pointer (&self->last_address, g_free);
  if (i < 0 || self->n_listed < 2)
    return;
  self->first = ((guint) i + 1) % self->n_listed;
  g_message ("the PostgreSQL database at %s (host %d of the URI's %u) took a connection and "
             "did not answer its first statements: new connections try host %u first", host,
             i + 1, self->n_listed, self->first + 1);
}

/* The µs a connection gets to be made: connect_timeout as libpq takes it
 * (from the URI or PGCONNECT_TIMEOUT; at least 2 s), else 10 s. 0 ("wait
 * for ever") is 10 s too: a connection that never ends would keep the
 * server from trying another. */
gint64
triage_pg_link_connect_timeout (TriagePgLink *self)
{
  PQconninfoOption *options = PQconninfoParse (self->uri, NULL);
  const char *given = NULL;
  gint64 seconds = 0;

  for (PQconninfoOption *option = options; option != NULL && option->keyword != NULL; option++)
    if (strcmp (option->keyword, "connect_timeout") == 0)
      given = option->val;
  if (given == NULL || *given == '\0')
    given = g_getenv ("PGCONNECT_TIMEOUT");
  if (given != NULL)
    seconds = g_ascii_strtoll (given, NULL, 10);
  PQconninfoFree (options);
  if (seconds <= 0)
    seconds = TRIAGE_PG_CONNECT_TIMEOUT_S;
  return MAX (seconds, 2) * G_USEC_PER_SEC;
}

void
triage_pg_link_add (TriagePgLink       *self,
                    TriagePgConnection *member)
{
  g_ptr_array_add (self->members, member);
}

void
triage_pg_link_remove (TriagePgLink       *self,
                       TriagePgConnection *member)
{
  g_ptr_array_remove (self->members, member);
}

/* A wait for the database passed its deadline (@what says which): every
 * connection is cut, and none is made again until one made in the
 * background answers. */
void
triage_pg_link_stall (TriagePgLink *self,
                      const char   *what)
{
  if (!self->down)
    g_message ("the PostgreSQL database did not answer (%s): it is taken as unreachable; "
               "requests that need it are answered 503 until a new connection answers", what);
  self->down = TRUE;
  for (guint i = 0; i < self->members->len; i++)
    triage_pg_connection_cut (self->members->pdata[i]);
}

gboolean
triage_pg_link_is_down (TriagePgLink *self)
{
  return self->down;
}

/* @dial (a connection being made) is given up by its member: if its thread
 * still runs (a lookup that hangs), no member starts another until it is
 * done, so a lookup that hangs leaves one thread, not one a try. */
void
triage_pg_link_let_go (TriagePgLink *self,
                       TriagePgDial *dial)
{
  if (dial == NULL)
    return;
  if (triage_pg_dial_is_running (dial))
    g_ptr_array_add (self->lingering, triage_pg_dial_ref (dial));
  triage_pg_dial_abandon (dial);
}

/* Whether a member may start a connection in the background now: none is
 * under way or given up and still running, and the last ended a while
 * ago. */
gboolean
triage_pg_link_may_attempt (TriagePgLink *self)
{
  for (guint i = self->lingering->len; i > 0; i--)
    if (!triage_pg_dial_is_running (self->lingering->pdata[i - 1]))
      g_ptr_array_remove_index_fast (self->lingering, i - 1);
  return !self->attempting && self->lingering->len == 0 &&
         g_get_monotonic_time () >= self->attempt_at;
}

void
triage_pg_link_attempt_started (TriagePgLink *self)
{
  self->attempting = TRUE;
}

/* The connection tried in the background is made and answered (the
 * database answers again), or not. */
void
triage_pg_link_attempt_done (TriagePgLink *self,
                             gboolean      answered)
{
  self->attempting = FALSE;
  self->attempt_at = g_get_monotonic_time () + ATTEMPT_INTERVAL_US;
  if (answered && self->down)
    {
      g_message ("the PostgreSQL database answers again");
      self->down = FALSE;
    }
}

/* Waits until @fd is readable (@read) or writable (@write), or the
 * monotonic time @deadline passes: FALSE then. */
gboolean
triage_pg_wait_socket (int      fd,
                       gboolean read,
                       gboolean write,
                       gint64   deadline)
{
  struct pollfd pfd = { fd, (read ? POLLIN : 0) | (write ? POLLOUT : 0), 0 };

  for (;;)
    {
      gint64 left = deadline - g_get_monotonic_time ();
      int ready;

      if (left <= 0)
        return FALSE;
      ready = poll (&pfd, 1, (int) MIN (left / 1000 + 1, G_MAXINT));
      if (ready > 0)
        return TRUE;
      if (ready < 0 && errno != EINTR)
        /* A bad descriptor: libpq finds out on its next call. */
        return TRUE;
    }
}

/* How many connections the server's have made so far (every one the link
 * was told of): one made since a count was taken may be to a database
 * dropped and made again in between. */
guint
triage_pg_link_get_connections (TriagePgLink *self)
{
  return self->connections;
}

/* ---- a locked database ---- */

/* @sql takes, without waiting, the locks the server's writes take (the
 * schema's, known once it is made): a database found locked is probed with
 * it. Without one, a lock wait given up fails its statement only. */
void
triage_pg_link_set_lock_probe (TriagePgLink *self,
                               const char   *sql)
{
  g_free (self->lock_probe);
  self->lock_probe = g_strdup (sql);
}

const char *
triage_pg_link_get_lock_probe (TriagePgLink *self)
{
  return self->lock_probe;
}

/* Another session holds a table the server needs (@message: the database's
 * error): until the lock is found free, statements fail at once rather than
 * each wait lock_timeout on the main loop. */
void
triage_pg_link_set_locked (TriagePgLink *self,
                           const char   *message)
{
  if (self->lock_probe == NULL || self->locked != NULL)
    return;
  g_message ("the PostgreSQL database is taken as locked (a LOCK TABLE, VACUUM FULL or "
             "restore holds a table): requests that need a table held are answered 503 at "
             "once, and /readyz says so, until the lock is free; %s", message);
  self->locked = g_strdup (message);
  self->probed_at = g_get_monotonic_time ();
}

/* The database gave up a lock wait (@message, its error). The next
 * statement probes at once: the lock may have been a row's (a server
 * stopped with a batch open), which the probe does not meet, and then
 * nothing is to be refused. */
void
triage_pg_link_lock_waited (TriagePgLink *self,
                            const char   *message)
{
  self->lock_waits++;
  triage_pg_link_set_locked (self, message);
  self->probed_at = 0;
}

/* The lock wait given up that made the database locked, or NULL while it
 * is not. */
const char *
triage_pg_link_get_locked (TriagePgLink *self)
{
  return self->locked;
}

/* Whether a statement is to probe the locked database now; if so, the next
 * one waits its turn. */
gboolean
triage_pg_link_take_probe (TriagePgLink *self)
{
  gint64 now = g_get_monotonic_time ();

  if (now - self->probed_at < LOCK_PROBE_INTERVAL_US)
    return FALSE;
  self->probed_at = now;
  return TRUE;
}

/* How many lock waits the database gave up for this server. */
guint64
triage_pg_link_get_lock_waits (TriagePgLink *self)
{
  return self->lock_waits;
}

/* A probe took every lock: the database serves again. */
void
triage_pg_link_lock_free (TriagePgLink *self)
{
  if (self->locked == NULL)
    return;
  g_message ("the PostgreSQL database's lock is free again");
  g_clear_pointer (&self->locked, g_free);
}
