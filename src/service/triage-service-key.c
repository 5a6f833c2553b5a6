/* triage-service-key.c — the service key for a remote server
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "triage-service"

#include "triage-service.h"

#include <string.h>
#include <gmodule.h>
#include <libsecret/secret.h>

#include "atp-token.h"

/*
 * The service key for a remote server: TRIAGE_API_KEY, else the Secret
 * Service. A locked keyring prompts; where nobody sees the prompt libsecret
 * would wait forever, so the lookup is bounded. Where no prompt can be shown
 * at all (no display) the lookup finds nothing: a search that unlocks nothing
 * then tells a key in a locked keyring from no key.
 *
 * libsecret is opened here, when a key is looked up in the keyring, and not
 * linked: with it (and the libgcrypt it pulls in) every start of triage-ask
 * and triage-mcp mapped and relocated three more libraries, about an eighth
 * of the dynamic loader's work, although the local server (most runs) and a
 * key in TRIAGE_API_KEY need none of them. Only its headers are used to build.
 */

#define KEYRING_TIMEOUT_S 10
#define LIBSECRET_SONAME  "libsecret-1.so.0"   /* libsecret's ABI since 0.7 */

/* Items stored by hand with secret-tool have no xdg:schema: match on the attribute only. */
static const SecretSchema service_key_schema = {
  TRIAGE_SERVICE_KEY_SCHEMA, SECRET_SCHEMA_DONT_MATCH_NAME,
  {
    { "server", SECRET_SCHEMA_ATTRIBUTE_STRING },
    { NULL, 0 },
  }
};

/* The functions of libsecret the lookup calls, with their prototypes. */
typedef struct
{
  void   (*lookupv)       (const SecretSchema *, GHashTable *, GCancellable *, GAsyncReadyCallback,
                           gpointer);
  char * (*lookup_finish) (GAsyncResult *, GError **);
  void   (*free)          (char *);
  void   (*disconnect)    (void);
  void   (*search)        (SecretService *, const SecretSchema *, GHashTable *, SecretSearchFlags,
                           GCancellable *, GAsyncReadyCallback, gpointer);
  GList *(*search_finish) (SecretService *, GAsyncResult *, GError **);
  gboolean (*item_get_locked) (SecretItem *);
  char    *error;         /* why libsecret could not be opened */
} Libsecret;

/* The prototypes above are the headers' own. */
#define SAME_TYPE(function, member) \
  G_STATIC_ASSERT (__builtin_types_compatible_p (__typeof__ (&function), \
                                                 __typeof__ (((Libsecret *) NULL)->member)))
SAME_TYPE (secret_password_lookupv, lookupv);
SAME_TYPE (secret_password_lookup_finish, lookup_finish);
SAME_TYPE (secret_password_free, free);
SAME_TYPE (secret_service_disconnect, disconnect);
SAME_TYPE (secret_service_search, search);
SAME_TYPE (secret_service_search_finish, search_finish);
SAME_TYPE (secret_item_get_locked, item_get_locked);

static gpointer
open_libsecret (gpointer data)
{
  Libsecret *lib = g_new0 (Libsecret, 1);
  GModule *module = g_module_open (LIBSECRET_SONAME, G_MODULE_BIND_LAZY | G_MODULE_BIND_LOCAL);

  if (module == NULL)
    {
      lib->error = g_strdup (g_module_error ());
      return lib;
    }

  /* It registers types: it stays loaded for the life of the process. */
  g_module_make_resident (module);
  if (!g_module_symbol (module, "secret_password_lookupv", (gpointer *) &lib->lookupv) ||
      !g_module_symbol (module, "secret_password_lookup_finish", (gpointer *) &lib->lookup_finish) ||
      !g_module_symbol (module, "secret_password_free", (gpointer *) &lib->free) ||
      !g_module_symbol (module, "secret_service_disconnect", (gpointer *) &lib->disconnect) ||
      !g_module_symbol (module, "secret_service_search", (gpointer *) &lib->search) ||
      !g_module_symbol (module, "secret_service_search_finish", (gpointer *) &lib->search_finish) ||
      !g_module_symbol (module, "secret_item_get_locked", (gpointer *) &lib->item_get_locked))
    {
      lib->error = g_strdup (g_module_error ());
      lib->lookupv = NULL;
    }

  return lib;
}

static const Libsecret *
libsecret (void)
{
  static GOnce once = G_ONCE_INIT;

  return g_once (&once, open_libsecret, NULL);
}

typedef struct
{
  const Libsecret *lib;
  GMainLoop       *loop;
  GCancellable    *cancellable;
  GHashTable      *attributes;
  char            *password;
  GError          *error;
  gboolean         locked;     /* no key read, but one is there, locked */
  gboolean         timed_out;
} Lookup;

static void
search_cb (GObject      *object,
           GAsyncResult *result,
           gpointer      user_data)
{
  Lookup *lookup = user_data;
  GList *items = lookup->lib->search_finish (NULL, result, NULL);

  for (GList *l = items; l != NULL; l = l->next)
    lookup->locked |= lookup->lib->item_get_locked (l->data);
  g_list_free_full (items, g_object_unref);
  g_main_loop_quit (lookup->loop);
}

static void
lookup_cb (GObject      *object,
           GAsyncResult *result,
           gpointer      user_data)
{
  Lookup *lookup = user_data;

  lookup->password = lookup->lib->lookup_finish (result, &lookup->error);
  /* Nothing read: a locked keyring whose prompt could not be shown (it was
   * dismissed) reads as no key at all. Search without unlocking (no prompt). */
  if (lookup->password == NULL && lookup->error == NULL)
    {
      lookup->lib->search (NULL, &service_key_schema, lookup->attributes, SECRET_SEARCH_ALL,
                           lookup->cancellable, search_cb, lookup);
      return;
    }
  g_main_loop_quit (lookup->loop);
}

/* The keyring did not answer in time. The lookup is cancelled, and not
 * waited for: libsecret 0.20.5 may never complete one whose unlock prompt
 * went wrong (its prompter started without a display), cancelled or not. */
static gboolean
lookup_timeout_cb (gpointer user_data)
{
  Lookup *lookup = user_data;

  lookup->timed_out = TRUE;
  g_cancellable_cancel (lookup->cancellable);
  g_main_loop_quit (lookup->loop);
  return G_SOURCE_REMOVE;
}

/* @key without the white space around it (the line break of $(cat keyfile) or
 * of a secret stored from `echo`: keys hold none), or NULL with an error naming
 * @source when what is left is empty or holds a space or control character,
 * which an HTTP header cannot carry (atp_token_check (), the app's rule too).
 * Never says the key. */
static char *
checked_key (const char  *key,
             const char  *source,
             GError     **error)
{
  char *sendable = NULL;
  guint position = 0;
  AtpTokenFault fault = atp_token_check (key, &sendable, &position);

  if (fault == ATP_TOKEN_SENDABLE)
    return sendable;
  if (fault == ATP_TOKEN_BLANK)
    g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                 "%s holds only white space: set it to the API key", source);
  else
    g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                 "%s holds %s after its %u first characters: an API key is one word "
                 "(was something else pasted or printed with it?)", source,
                 fault == ATP_TOKEN_LINE_BREAK ? "a line break"
                 : fault == ATP_TOKEN_SPACE ? "a space"
                 : fault == ATP_TOKEN_TAB ? "a tab" : "a control character",
                 position);
  return NULL;
}

char *
triage_service_lookup_key (const char  *server_url,
                           GError     **error)
{
  g_autoptr(GMainContext) context = NULL;
  g_autoptr(GCancellable) cancellable = NULL;
  g_autoptr(GSource) timeout = NULL;
  g_autoptr(GHashTable) attributes = NULL;
  Lookup lookup = { 0 };
  const char *env = g_getenv ("TRIAGE_API_KEY");
  g_autofree char *where = NULL;
  char *key;

  if (env != NULL && *env != '\0')
    return checked_key (env, "TRIAGE_API_KEY", error);

  lookup.lib = libsecret ();
  if (lookup.lib->lookupv == NULL)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND,
                   "no API key for %s: TRIAGE_API_KEY is not set and the keyring cannot be "
                   "used (%s)", server_url, lookup.lib->error);
      return NULL;
    }

  context = g_main_context_new ();
  cancellable = g_cancellable_new ();
  attributes = g_hash_table_new (g_str_hash, g_str_equal);
  g_hash_table_insert (attributes, "server", (gpointer) server_url);
  g_main_context_push_thread_default (context);

  lookup.loop = g_main_loop_new (context, FALSE);
  lookup.cancellable = cancellable;
  lookup.attributes = attributes;
  timeout = g_timeout_source_new_seconds (KEYRING_TIMEOUT_S);
  g_source_set_callback (timeout, lookup_timeout_cb, &lookup, NULL);
  g_source_attach (timeout, context);

  lookup.lib->lookupv (&service_key_schema, attributes, cancellable, lookup_cb, &lookup);
  g_main_loop_run (lookup.loop);

  g_source_destroy (timeout);
  /* The Secret Service proxy lives in @context, which ends here: let it go
   * with its D-Bus traffic (one lookup a run; a later one connects again).
   * A lookup given up may still call back meanwhile: the loop lives till then. */
  lookup.lib->disconnect ();
  while (g_main_context_iteration (context, FALSE))
    ;
  g_main_context_pop_thread_default (context);
  g_main_loop_unref (lookup.loop);

  if (lookup.timed_out && lookup.password == NULL)
    {
      g_clear_error (&lookup.error);
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_TIMED_OUT,
                   "no API key for %s: TRIAGE_API_KEY is not set and the keyring did not "
                   "answer within %d s (locked?)", server_url, KEYRING_TIMEOUT_S);
      return NULL;
    }
  if (lookup.error != NULL)
    {
      if (g_error_matches (lookup.error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        g_set_error (error, G_IO_ERROR, G_IO_ERROR_TIMED_OUT,
                     "no API key for %s: TRIAGE_API_KEY is not set and the keyring did not "
                     "answer within %d s (locked?)", server_url, KEYRING_TIMEOUT_S);
      else
        g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND,
                     "no API key for %s: TRIAGE_API_KEY is not set and the keyring could not be "
                     "read: %s", server_url, lookup.error->message);
      g_error_free (lookup.error);
      return NULL;
    }

  if (lookup.password == NULL && lookup.locked)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND,
                   "no API key for %s: the keyring that holds it is locked and was not "
                   "unlocked (its prompt could not be shown, or was dismissed); unlock it (log "
                   "in to the desktop, or run secret-tool lookup server %s where a prompt can "
                   "show), or set TRIAGE_API_KEY", server_url, server_url);
      return NULL;
    }
  if (lookup.password == NULL)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND,
                   "no API key for %s: set TRIAGE_API_KEY, or store the key in the keyring: "
                   "secret-tool store --label='Triage service key' xdg:schema "
                   TRIAGE_SERVICE_KEY_SCHEMA " server %s", server_url, server_url);
      return NULL;
    }

  where = g_strdup_printf ("the keyring's key for %s", server_url);
  key = checked_key (lookup.password, where, error);
  lookup.lib->free (lookup.password);
  return key;
}
