/* triage-mcp-owed.c — withdrawals still owed, kept in a file for the next triage-mcp run
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "triage-mcp"

#include "triage-mcp-server-private.h"

#include <errno.h>
#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>
#include <glib/gstdio.h>

#include "atp.h"
#include "triage-service.h"

/*
 * A withdrawal the server could not take before triage-mcp exits (the server
 * was away when the session ended) would leave its question in the person's
 * inbox for its deadline, or for ever without one. Each withdrawal under way
 * or owed is written to $XDG_STATE_HOME/triage/mcp-owed-HASH.json (HASH: of
 * the server's URL, or of "unix:" and the local server's socket), and taken
 * out again once the server took it or answered that the request is gone or
 * settled; the next triage-mcp run for that server, whatever its session,
 * withdraws what the file holds as it starts.
 *
 * The changes are written together FLUSH_DELAY_MS after the first (a
 * withdrawal the server takes at once is never written), when the session
 * ends, and at once when it must end now. Several triage-mcp runs for one
 * server share the file: each change is merged into what the file holds
 * under a lock (flock on the file's ".lock" beside it), and written whole
 * (g_file_set_contents: a crash leaves the old file or the new, never half).
 */

#define FLUSH_DELAY_MS 200
/* The most a file keeps: a server that never comes back must not grow it for ever. */
#define OWED_SAVED_MAX 1000
#define REASON_MAX     1000

struct _TriageMcpOwedFile
{
  char       *server;     /* the URL, or "unix:" and the socket path */
  char       *path;
  GHashTable *changes;    /* id → TriageMcpOwedEntry to add, or NULL to take out */
  GHashTable *known;      /* ids the file holds, as far as this run knows */
  guint       flush_id;
};

void
triage_mcp_owed_entry_free (TriageMcpOwedEntry *entry)
{
  if (entry == NULL)
    return;

  g_free (entry->id);
  g_free (entry->service);
  g_free (entry->reason);
  g_free (entry);
}

static TriageMcpOwedEntry *
entry_new (const char *id,
           const char *service,
           const char *reason)
{
  TriageMcpOwedEntry *entry = g_new0 (TriageMcpOwedEntry, 1);

  entry->id = g_strdup (id);
  entry->service = g_strdup (service);
  /* A reason comes from the MCP client without a limit: cut to whole characters, so what
   * is written always reads back. */
  if (reason != NULL)
    entry->reason = g_utf8_substring (reason, 0, MIN (g_utf8_strlen (reason, -1), REASON_MAX));
  return entry;
}

TriageMcpOwedFile *
triage_mcp_owed_file_new (AtpClient *client)
{
  TriageMcpOwedFile *self = g_new0 (TriageMcpOwedFile, 1);
  const char *socket_path = atp_client_get_socket_path (client);
  g_autofree char *hash = NULL;
  g_autofree char *name = NULL;

  self->server = socket_path != NULL ? g_strconcat ("unix:", socket_path, NULL)
                                     : g_strdup (atp_client_get_base_url (client));
  hash = g_compute_checksum_for_string (G_CHECKSUM_SHA256, self->server, -1);
  name = g_strdup_printf ("mcp-owed-%.16s.json", hash);
  self->path = g_build_filename (g_get_user_state_dir (), "triage", name, NULL);
  self->changes = g_hash_table_new_full (g_str_hash, g_str_equal, g_free,
                                         (GDestroyNotify) triage_mcp_owed_entry_free);
  self->known = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  return self;
}

void
triage_mcp_owed_file_free (TriageMcpOwedFile *self)
{
  if (self == NULL)
    return;

  g_clear_handle_id (&self->flush_id, g_source_remove);
  g_free (self->server);
  g_free (self->path);
  g_hash_table_unref (self->changes);
  g_hash_table_unref (self->known);
  g_free (self);
}

const char *
triage_mcp_owed_file_get_path (TriageMcpOwedFile *self)
{
  return self->path;
}

/* The lock other runs for the server wait for while this one reads and writes the file;
 * -1 when it cannot be had (said: the file is then used without it). */
static int
lock_file (TriageMcpOwedFile *self)
{
  g_autofree char *dir = g_path_get_dirname (self->path);
  g_autofree char *lock = g_strconcat (self->path, ".lock", NULL);
  int fd;

  if (g_mkdir_with_parents (dir, 0700) != 0)
    {
      int saved = errno;

      g_message ("cannot make %s, where withdrawals still owed are kept: %s", dir,
                 g_strerror (saved));
      return -1;
    }
  fd = g_open (lock, O_RDWR | O_CREAT | O_CLOEXEC, 0600);
  while (fd >= 0 && flock (fd, LOCK_EX) != 0)
    if (errno != EINTR)
      {
        int saved = errno;

        close (fd);
        errno = saved;
        fd = -1;
      }
  if (fd < 0)
    g_message ("cannot lock %s (the withdrawals still owed are read and written without "
               "it): %s", lock, g_strerror (errno));
  return fd;
}

static void
unlock_file (int fd)
{
  if (fd >= 0)
    close (fd);   /* lets the lock go */
}

/* The problem with one element of "withdrawals", or NULL when it reads. */
static const char *
entry_problem (JsonNode            *node,
               TriageMcpOwedEntry **entry)
{
  JsonObject *object;
  const char *id;
  const char *service;
  const char *reason;

  if (!JSON_NODE_HOLDS_OBJECT (node))
    return "a withdrawal is not an object";
  object = json_node_get_object (node);
  id = triage_service_string_member (object, "id");
  service = triage_service_string_member (object, "service");
  reason = triage_service_string_member (object, "reason");
  if (id == NULL || !atp_is_uuid_v4 (id))
    return "a withdrawal's id is not a request id (a UUID)";
  if (json_object_has_member (object, "service") &&
      (service == NULL || atp_str_is_blank (service) ||
       g_utf8_strlen (service, -1) > TRIAGE_SERVICE_ID_MAX))
    return "a withdrawal's service is not a service id";
  for (const char *p = service; p != NULL && *p != '\0'; p++)
    if (g_ascii_iscntrl (*p))
      return "a withdrawal's service holds a control character";
  /* A reason too long (as an older run wrote them) is cut, never a reason to drop it. */
  if (json_object_has_member (object, "reason") && reason == NULL)
    return "a withdrawal's reason is not a string";

  *entry = entry_new (id, service, reason);
  return NULL;
}

/* Reads what the file holds into @entries; a file that does not read is said once and
 * set aside (renamed *.damaged), keeping the withdrawals that read: TRUE then, and the
 * caller writes them to a new file. */
static gboolean
read_entries (TriageMcpOwedFile *self,
              GPtrArray         *entries)
{
  g_autoptr(JsonParser) parser = json_parser_new_immutable ();
  g_autoptr(GError) error = NULL;
  g_autofree char *contents = NULL;
  g_autofree char *aside = NULL;
  const char *problem = NULL;
  JsonObject *root = NULL;
  JsonArray *array;
  gsize length;

  if (!g_file_get_contents (self->path, &contents, &length, &error))
    {
      if (!g_error_matches (error, G_FILE_ERROR, G_FILE_ERROR_NOENT))
        g_message ("cannot read the withdrawals still owed: %s", error->message);
      return FALSE;
    }

  if (!json_parser_load_from_data (parser, contents, length, &error))
    problem = error->message;
  else if (!JSON_NODE_HOLDS_OBJECT (json_parser_get_root (parser)))
    problem = "not a JSON object";
  else
    root = json_node_get_object (json_parser_get_root (parser));

  if (root == NULL)
    ;
  else if (g_strcmp0 (triage_service_string_member (root, "server"), self->server) != 0)
    problem = "its \"server\" is not the server it is named after";
  else if (!json_object_has_member (root, "withdrawals") ||
           !JSON_NODE_HOLDS_ARRAY (json_object_get_member (root, "withdrawals")))
    problem = "\"withdrawals\" is not an array";
  else
    {
      array = json_object_get_array_member (root, "withdrawals");
      for (guint i = 0; i < json_array_get_length (array); i++)
        {
          TriageMcpOwedEntry *entry = NULL;
          const char *wrong = entry_problem (json_array_get_element (array, i), &entry);

          if (wrong != NULL)
            problem = wrong;
          else
            g_ptr_array_add (entries, entry);
        }
    }
  if (problem == NULL)
    return FALSE;

  aside = g_strconcat (self->path, ".damaged", NULL);
  if (g_rename (self->path, aside) == 0)
    g_message ("%s is damaged (%s): set aside as %s; %u withdrawals in it read", self->path,
               problem, aside, entries->len);
  else
    g_message ("%s is damaged (%s), and cannot be set aside: %s", self->path, problem,
               g_strerror (errno));
  return TRUE;
}

static void
write_entries (TriageMcpOwedFile *self,
               GPtrArray         *entries)
{
  g_autoptr(JsonBuilder) builder = json_builder_new ();
  g_autoptr(JsonNode) root = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *text = NULL;

  if (entries->len == 0)
    {
      if (g_unlink (self->path) != 0 && errno != ENOENT)
        g_message ("cannot remove %s: %s", self->path, g_strerror (errno));
      return;
    }

  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "server");
  json_builder_add_string_value (builder, self->server);
  json_builder_set_member_name (builder, "withdrawals");
  json_builder_begin_array (builder);
  for (guint i = 0; i < entries->len; i++)
    {
      TriageMcpOwedEntry *entry = g_ptr_array_index (entries, i);

      json_builder_begin_object (builder);
      json_builder_set_member_name (builder, "id");
      json_builder_add_string_value (builder, entry->id);
      if (entry->service != NULL)
        {
          json_builder_set_member_name (builder, "service");
          json_builder_add_string_value (builder, entry->service);
        }
      if (entry->reason != NULL)
        {
          json_builder_set_member_name (builder, "reason");
          json_builder_add_string_value (builder, entry->reason);
        }
      json_builder_end_object (builder);
    }
  json_builder_end_array (builder);
  json_builder_end_object (builder);
  root = json_builder_get_root (builder);
  text = atp_json_to_string (root, NULL);

  if (!g_file_set_contents_full (self->path, text, -1, G_FILE_SET_CONTENTS_CONSISTENT, 0600,
                                 &error))
    g_message ("cannot keep the withdrawals still owed for the next run: %s", error->message);
}

static int
find_entry (GPtrArray  *entries,
            const char *id)
{
  for (guint i = 0; i < entries->len; i++)
    if (g_str_equal (((TriageMcpOwedEntry *) g_ptr_array_index (entries, i))->id, id))
      return (int) i;
  return -1;
}

GPtrArray *
triage_mcp_owed_file_load (TriageMcpOwedFile *self)
{
  GPtrArray *entries = g_ptr_array_new_with_free_func ((GDestroyNotify) triage_mcp_owed_entry_free);
  int lock = lock_file (self);

  /* A file set aside: what read of it is kept in a new one. */
  if (read_entries (self, entries))
    write_entries (self, entries);
  unlock_file (lock);

  for (guint i = 0; i < entries->len; i++)
    g_hash_table_add (self->known,
                      g_strdup (((TriageMcpOwedEntry *) g_ptr_array_index (entries, i))->id));
  return entries;
}

void
triage_mcp_owed_file_flush (TriageMcpOwedFile *self)
{
  g_autoptr(GPtrArray) entries = NULL;
  GHashTableIter iter;
  gpointer key;
  gpointer value;
  gboolean changed = FALSE;
  int lock;

  g_clear_handle_id (&self->flush_id, g_source_remove);
  if (g_hash_table_size (self->changes) == 0)
    return;

  entries = g_ptr_array_new_with_free_func ((GDestroyNotify) triage_mcp_owed_entry_free);
  lock = lock_file (self);
  changed = read_entries (self, entries);
  g_hash_table_iter_init (&iter, self->changes);
  while (g_hash_table_iter_next (&iter, &key, &value))
    {
      int at = find_entry (entries, key);

      if (value != NULL && at < 0)
        {
          g_ptr_array_add (entries, g_steal_pointer (&value));
          g_hash_table_iter_steal (&iter);
          g_hash_table_add (self->known, key);
          changed = TRUE;
          continue;
        }
      if (value == NULL && at >= 0)
        {
          g_ptr_array_remove_index (entries, at);
          changed = TRUE;
        }
      if (value == NULL)
        g_hash_table_remove (self->known, key);
      else
        g_hash_table_add (self->known, g_strdup (key));
      g_hash_table_iter_remove (&iter);
    }
  if (entries->len > OWED_SAVED_MAX)
    {
      g_message ("more than %d withdrawals owed to %s: the %u owed longest are given up",
                 OWED_SAVED_MAX, self->server, entries->len - OWED_SAVED_MAX);
      for (guint i = 0; i < entries->len - OWED_SAVED_MAX; i++)
        g_hash_table_remove (self->known,
                             ((TriageMcpOwedEntry *) g_ptr_array_index (entries, i))->id);
      g_ptr_array_remove_range (entries, 0, entries->len - OWED_SAVED_MAX);
    }
  if (changed)
    write_entries (self, entries);
  unlock_file (lock);
}

static gboolean
flush_cb (gpointer data)
{
  TriageMcpOwedFile *self = data;

  self->flush_id = 0;
  triage_mcp_owed_file_flush (self);
  return G_SOURCE_REMOVE;
}

static void
schedule_flush (TriageMcpOwedFile *self)
{
  if (self->flush_id == 0)
    self->flush_id = g_timeout_add (FLUSH_DELAY_MS, flush_cb, self);
}

void
triage_mcp_owed_file_add (TriageMcpOwedFile *self,
                          const char        *id,
                          const char        *service,
                          const char        *reason)
{
  if (g_hash_table_contains (self->known, id) &&
      !g_hash_table_contains (self->changes, id))
    return;

  g_hash_table_replace (self->changes, g_strdup (id), entry_new (id, service, reason));
  schedule_flush (self);
}

void
triage_mcp_owed_file_remove (TriageMcpOwedFile *self,
                             const char        *id)
{
  /* Never written: nothing to take out. */
  if (!g_hash_table_contains (self->known, id))
    {
      g_hash_table_remove (self->changes, id);
      return;
    }

  g_hash_table_replace (self->changes, g_strdup (id), NULL);
  schedule_flush (self);
}
