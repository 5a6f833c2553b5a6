/* triage-credentials.c
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "triage-credentials"

#include <glib/gi18n.h>
#include <libsecret/secret.h>
#include <string.h>

#include "atp-token.h"
#include "triage-credentials.h"

/*
 * The user token of a remote server, kept in the Secret Service (the login
 * keyring) under the server's address, never in GSettings, files, logs or a
 * command line. Only libsecret's asynchronous calls are used, each bounded by
 * a timer: a locked keyring whose unlock prompt nobody can see (or a hung
 * one) ends in a clear TIMED_OUT error instead of a frozen app.
 *
 * A token goes in and out without the white space around it, and one that
 * holds a space or a control character (which no request can carry) is
 * neither stored nor given back (atp_token_check (), triage-ask's rule too):
 * the person is told what is wrong with it, never the token.
 *
 * triage_credentials_new_in_memory() is the fake for unit tests: the same
 * object, the same timer and error paths, a hash table instead of the
 * keyring. triage_credentials_set_unresponsive() makes it, or the real one,
 * behave like a keyring that never answers.
 */

struct _TriageCredentials
{
  GObject     parent_instance;

  guint       timeout_ms;
  GHashTable *memory;        /* server url -> token; NULL for the real keyring */
  gboolean    unresponsive;  /* every call hangs (tests) */
};

G_DEFINE_FINAL_TYPE (TriageCredentials, triage_credentials, G_TYPE_OBJECT)
G_DEFINE_QUARK (triage-credentials-error-quark, triage_credentials_error)

/* Designated initializers: a positional one warns about the reserved fields. */
static const SecretSchema token_schema = {
  .name = "io.github.atptriage.Triage.UserToken",
  .flags = SECRET_SCHEMA_NONE,
  .attributes = {
    { .name = "server", .type = SECRET_SCHEMA_ATTRIBUTE_STRING },
    { .name = NULL, .type = 0 },
  },
};

typedef struct
{
  GCancellable *cancellable;     /* cancelled by the timer or by the caller's */
  GCancellable *caller;
  gulong        caller_handler;
  GTask        *task;            /* unowned: the task owns the Op */
  guint         timeout_id;
  gboolean      returned;        /* the task has its result (the timer may give it first) */
  char         *server_url;
  char         *token;
  GError       *lookup_error;    /* why an unlocking lookup failed, while we look without unlocking */
} Op;

static void
op_free (Op *op)
{
  g_clear_handle_id (&op->timeout_id, g_source_remove);
  if (op->caller != NULL && op->caller_handler != 0)
    g_cancellable_disconnect (op->caller, op->caller_handler);
  g_clear_object (&op->caller);
  g_clear_object (&op->cancellable);
  g_clear_error (&op->lookup_error);
  g_free (op->server_url);
  if (op->token != NULL)
    memset (op->token, 0, strlen (op->token));
  g_free (op->token);
  g_free (op);
}

static void
on_caller_cancelled (GCancellable *caller,
                     GCancellable *ours)
{
  g_cancellable_cancel (ours);
}

/* Every result goes through these: the first one wins, a late libsecret answer is dropped. */
static gboolean
op_claim (GTask *task)
{
  Op *op = g_task_get_task_data (task);

  if (op->returned)
    return FALSE;

  op->returned = TRUE;
  g_clear_handle_id (&op->timeout_id, g_source_remove);
  return TRUE;
}

static void
op_return_boolean (GTask    *task,
                   gboolean  value)
{
  if (op_claim (task))
    g_task_return_boolean (task, value);
}

static void
op_return_pointer (GTask          *task,
                   gpointer        value,
                   GDestroyNotify  destroy)
{
  if (op_claim (task))
    g_task_return_pointer (task, value, destroy);
  else if (value != NULL && destroy != NULL)
    destroy (value);
}

/*
 * libsecret does not give up a call that waits on an unlock prompt when it is
 * cancelled, so the timer answers the caller itself; the call's own answer,
 * if it ever comes, is dropped.
 */
static gboolean
op_timeout_cb (gpointer data)
{
  Op *op = data;
  TriageCredentials *self = g_task_get_source_object (op->task);
  guint seconds = (self->timeout_ms + 999) / 1000;

  op->timeout_id = 0;
  if (op_claim (op->task))
    g_task_return_new_error (op->task, TRIAGE_CREDENTIALS_ERROR, TRIAGE_CREDENTIALS_ERROR_TIMED_OUT,
                             ngettext ("The keyring did not answer within %u second. "
                                       "It may be locked: unlock it (for example by logging in "
                                       "again) and try again.",
                                       "The keyring did not answer within %u seconds. "
                                       "It may be locked: unlock it (for example by logging in "
                                       "again) and try again.",
                                       seconds),
                             seconds);
  g_cancellable_cancel (op->cancellable);

  return G_SOURCE_REMOVE;
}

static GTask *
op_task_new (TriageCredentials   *self,
             const char          *server_url,
             const char          *token,
             gpointer             source_tag,
             GCancellable        *cancellable,
             GAsyncReadyCallback  callback,
             gpointer             user_data)
{
  GTask *task = g_task_new (self, cancellable, callback, user_data);
  Op *op = g_new0 (Op, 1);

  g_task_set_source_tag (task, source_tag);

  op->task = task;
  op->cancellable = g_cancellable_new ();
  op->server_url = g_strdup (server_url);
  op->token = g_strdup (token);
  if (cancellable != NULL)
    {
      op->caller = g_object_ref (cancellable);
      op->caller_handler = g_cancellable_connect (cancellable, G_CALLBACK (on_caller_cancelled),
                                                  g_object_ref (op->cancellable),
                                                  g_object_unref);
    }
  op->timeout_id = g_timeout_add (self->timeout_ms, op_timeout_cb, op);
  g_task_set_task_data (task, op, (GDestroyNotify) op_free);

  return task;
}

/* Turns libsecret's failure into one a person can act on. */
static void
op_return_error (GTask  *task,
                 GError *error)
{
  if (!op_claim (task))
    return;

  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    {
      g_task_return_error (task, g_error_copy (error));
    }
  else if (g_error_matches (error, G_DBUS_ERROR, G_DBUS_ERROR_SERVICE_UNKNOWN) ||
           g_error_matches (error, G_DBUS_ERROR, G_DBUS_ERROR_NAME_HAS_NO_OWNER) ||
           g_error_matches (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND) ||
           g_error_matches (error, G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED))
    {
      g_task_return_new_error (task, TRIAGE_CREDENTIALS_ERROR, TRIAGE_CREDENTIALS_ERROR_UNAVAILABLE,
                               _("No keyring is available in this session (%s). "
                                 "Install and start a Secret Service such as GNOME Keyring "
                                 "to keep the token."),
                               error->message);
    }
  else if (g_error_matches (error, SECRET_ERROR, SECRET_ERROR_IS_LOCKED))
    {
      g_task_return_new_error (task, TRIAGE_CREDENTIALS_ERROR, TRIAGE_CREDENTIALS_ERROR_LOCKED,
                               "%s", _("The keyring is locked. Unlock it and try again."));
    }
  else
    {
      g_task_return_new_error (task, TRIAGE_CREDENTIALS_ERROR, TRIAGE_CREDENTIALS_ERROR_FAILED,
                               _("The keyring failed: %s"), error->message);
    }
}

/* The in-memory fake answers from an idle, like a keyring would, or never. */

typedef enum { MEMORY_STORE, MEMORY_LOOKUP, MEMORY_CLEAR } MemoryOp;

static void
memory_complete (GTask    *task,
                 MemoryOp  kind)
{
  TriageCredentials *self = g_task_get_source_object (task);
  Op *op = g_task_get_task_data (task);

  switch (kind)
    {
    case MEMORY_STORE:
      g_hash_table_replace (self->memory, g_strdup (op->server_url), g_strdup (op->token));
      op_return_boolean (task, TRUE);
      break;

    case MEMORY_LOOKUP:
      op_return_pointer (task, g_strdup (g_hash_table_lookup (self->memory, op->server_url)),
                             g_free);
      break;

    case MEMORY_CLEAR:
      g_hash_table_remove (self->memory, op->server_url);
      op_return_boolean (task, TRUE);
      break;

    default:
      g_assert_not_reached ();
    }
}

static void
on_hung_op_cancelled (GCancellable *cancellable,
                      GTask        *task)
{
  g_autoptr(GError) error = g_error_new_literal (G_IO_ERROR, G_IO_ERROR_CANCELLED,
                                                 "Operation was cancelled");

  g_signal_handlers_disconnect_by_func (cancellable, on_hung_op_cancelled, task);
  op_return_error (task, error);
  g_object_unref (task);
}

/* Runs @task here, without libsecret, when the keyring is the in-memory fake
 * or made unresponsive; FALSE when libsecret is to run it. */
static gboolean
run_without_keyring (GTask    *task,
                     MemoryOp  kind)
{
  TriageCredentials *self = g_task_get_source_object (task);
  Op *op = g_task_get_task_data (task);

  if (self->unresponsive)
    {
      /* Hangs until the timer or the caller cancels, as a locked keyring would. */
      g_signal_connect (op->cancellable, "cancelled", G_CALLBACK (on_hung_op_cancelled), task);
      return TRUE;
    }

  if (self->memory == NULL)
    return FALSE;

  memory_complete (task, kind);
  g_object_unref (task);

  return TRUE;
}

/* Starts an operation on the token of @server_url: its Op, for libsecret to
 * run (op->task passes to the callback), or NULL when it ran without. */
static Op *
op_start (TriageCredentials   *self,
          const char          *server_url,
          const char          *token,
          MemoryOp             kind,
          gpointer             source_tag,
          GCancellable        *cancellable,
          GAsyncReadyCallback  callback,
          gpointer             user_data)
{
  GTask *task = op_task_new (self, server_url, token, source_tag, cancellable, callback,
                             user_data);

  if (run_without_keyring (task, kind))
    return NULL;

  return g_task_get_task_data (task);
}

/* @token as a request can carry it (without the white space around it), or
 * NULL with TRIAGE_CREDENTIALS_ERROR_UNSENDABLE saying what is wrong with it:
 * @stored, the one read from the keyring (else the one typed). */
static char *
sendable_token (const char  *token,
                gboolean     stored,
                GError     **error)
{
  char *sendable = NULL;
  guint position = 0;
  const char *what;

  switch (atp_token_check (token, &sendable, &position))
    {
    case ATP_TOKEN_SENDABLE:
      return sendable;

    case ATP_TOKEN_BLANK:
      g_set_error_literal (error, TRIAGE_CREDENTIALS_ERROR, TRIAGE_CREDENTIALS_ERROR_UNSENDABLE,
                           stored ? _("The token stored in the keyring for this server is blank. "
                                      "Enter your user token in Preferences.")
                                  : _("The token is blank: enter your user token."));
      return NULL;

    case ATP_TOKEN_LINE_BREAK:
      /* Translators: what a token holds where no token can, in "The token
       * holds %s after its first %u characters" */
      what = C_("token", "a line break");
      break;

    case ATP_TOKEN_SPACE:
      /* Translators: see "a line break" */
      what = C_("token", "a space");
      break;

    case ATP_TOKEN_TAB:
      /* Translators: see "a line break" */
      what = C_("token", "a tab");
      break;

    case ATP_TOKEN_CONTROL:
    default:
      /* Translators: see "a line break" */
      what = C_("token", "a control character");
      break;
    }

  if (stored)
    /* Translators: %s is what the token holds ("a line break"), %u how many
     * of its characters come before it */
    g_set_error (error, TRIAGE_CREDENTIALS_ERROR, TRIAGE_CREDENTIALS_ERROR_UNSENDABLE,
                 g_dngettext (GETTEXT_PACKAGE,
                              "The token stored in the keyring for this server holds %s after "
                              "its first %u character, so it cannot be sent: a token is one word. "
                              "Enter it again in Preferences.",
                              "The token stored in the keyring for this server holds %s after "
                              "its first %u characters, so it cannot be sent: a token is one "
                              "word. Enter it again in Preferences.", position),
                 what, position);
  else
    /* Translators: %s is what the token holds ("a line break"), %u how many
     * of its characters come before it */
    g_set_error (error, TRIAGE_CREDENTIALS_ERROR, TRIAGE_CREDENTIALS_ERROR_UNSENDABLE,
                 g_dngettext (GETTEXT_PACKAGE,
                              "The token holds %s after its first %u character: a token is one "
                              "word. Was something else pasted with it?",
                              "The token holds %s after its first %u characters: a token is one "
                              "word. Was something else pasted with it?", position),
                 what, position);
  return NULL;
}

/* Store */

static void
store_cb (GObject      *object,
          GAsyncResult *result,
          gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  g_autoptr(GError) error = NULL;

  if (!secret_password_store_finish (result, &error))
    op_return_error (task, error);
  else
    op_return_boolean (task, TRUE);
}

/**
 * triage_credentials_store_token_async:
 * @self: a #TriageCredentials
 * @server_url: the server the token is for
 * @token: the user token
 * @cancellable: (nullable): a #GCancellable
 * @callback: called when stored or failed
 * @user_data: data for @callback
 *
 * Stores (or replaces) the token of @server_url in the default keyring,
 * without the white space around it; one that no request could carry is
 * refused (%TRIAGE_CREDENTIALS_ERROR_UNSENDABLE, saying why) and the one
 * stored kept.
 */
void
triage_credentials_store_token_async (TriageCredentials   *self,
                                      const char          *server_url,
                                      const char          *token,
                                      GCancellable        *cancellable,
                                      GAsyncReadyCallback  callback,
                                      gpointer             user_data)
{
  g_autofree char *label = NULL;
  g_autoptr(GError) error = NULL;
  char *sendable;
  Op *op;

  g_return_if_fail (TRIAGE_IS_CREDENTIALS (self));
  g_return_if_fail (server_url != NULL);
  g_return_if_fail (token != NULL);

  sendable = sendable_token (token, FALSE, &error);
  if (sendable == NULL)
    {
      g_task_report_error (self, callback, user_data, triage_credentials_store_token_async,
                           g_steal_pointer (&error));
      return;
    }
  op = op_start (self, server_url, sendable, MEMORY_STORE, triage_credentials_store_token_async,
                 cancellable, callback, user_data);
  memset (sendable, 0, strlen (sendable));
  g_free (sendable);
  if (op == NULL)
    return;

  /* Translators: the name of the keyring item, %s is a server address */
  label = g_strdup_printf (_("Triage token for %s"), server_url);
  secret_password_store (&token_schema, SECRET_COLLECTION_DEFAULT, label, op->token,
                         op->cancellable, store_cb, op->task,
                         "server", server_url,
                         NULL);
}

gboolean
triage_credentials_store_token_finish (TriageCredentials  *self,
                                       GAsyncResult       *result,
                                       GError            **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}

/* Lookup */

static void
locked_search_cb (GObject      *object,
                  GAsyncResult *result,
                  gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  g_autoptr(GError) error = NULL;
  GList *items;

  Op *op = g_task_get_task_data (task);

  items = secret_password_search_finish (result, &error);
  if (error != NULL)
    {
      op_return_error (task, op->lookup_error != NULL ? op->lookup_error : error);
      return;
    }

  if (items != NULL)
    {
      g_autoptr(GError) locked = g_error_new_literal (SECRET_ERROR, SECRET_ERROR_IS_LOCKED, "locked");

      g_list_free_full (items, g_object_unref);
      op_return_error (task, locked);
      return;
    }

  if (op->lookup_error != NULL)
    op_return_error (task, op->lookup_error);
  else
    op_return_pointer (task, NULL, NULL);
}

static void
lookup_cb (GObject      *object,
           GAsyncResult *result,
           gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  g_autoptr(GError) error = NULL;
  Op *op = g_task_get_task_data (task);
  char *token;

  token = secret_password_lookup_finish (result, &error);
  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    {
      op_return_error (task, error);
      return;
    }
  /* A failed unlock prompt (dismissed, or the prompter died) fails the lookup
   * itself: look without unlocking to tell a locked token from a broken keyring. */
  if (error != NULL)
    op->lookup_error = g_steal_pointer (&error);

  if (token != NULL)
    {
      op_return_pointer (task, token, (GDestroyNotify) secret_password_free);
      return;
    }

  /* Nothing found: truly none, or one in a keyring whose unlock prompt was
   * dismissed (or could not be shown)? Look without unlocking, to tell. */
  secret_password_search (&token_schema, SECRET_SEARCH_NONE, op->cancellable,
                          locked_search_cb, g_steal_pointer (&task),
                          "server", op->server_url,
                          NULL);
}

/**
 * triage_credentials_lookup_token_async:
 * @self: a #TriageCredentials
 * @server_url: the server
 * @cancellable: (nullable): a #GCancellable
 * @callback: called with the token
 * @user_data: data for @callback
 *
 * Looks up the token of @server_url.
 */
void
triage_credentials_lookup_token_async (TriageCredentials   *self,
                                       const char          *server_url,
                                       GCancellable        *cancellable,
                                       GAsyncReadyCallback  callback,
                                       gpointer             user_data)
{
  Op *op;

  g_return_if_fail (TRIAGE_IS_CREDENTIALS (self));
  g_return_if_fail (server_url != NULL);

  op = op_start (self, server_url, NULL, MEMORY_LOOKUP, triage_credentials_lookup_token_async,
                 cancellable, callback, user_data);
  if (op == NULL)
    return;

  secret_password_lookup (&token_schema, op->cancellable, lookup_cb, op->task,
                          "server", server_url,
                          NULL);
}

/**
 * triage_credentials_lookup_token_finish:
 *
 * The token stored, without the white space around it (a token stored by
 * another program, secret-tool from `echo`, has its line break); one that no
 * request could carry is %TRIAGE_CREDENTIALS_ERROR_UNSENDABLE, saying why.
 *
 * Returns: (transfer full) (nullable): the token, or %NULL without an error
 *   when none is stored; free with g_free()
 */
char *
triage_credentials_lookup_token_finish (TriageCredentials  *self,
                                        GAsyncResult       *result,
                                        GError            **error)
{
  char *token;
  char *copy;
  char *sendable;

  g_return_val_if_fail (g_task_is_valid (result, self), NULL);

  token = g_task_propagate_pointer (G_TASK (result), error);
  if (token == NULL)
    return NULL;

  /* Callers free with g_free(); libsecret's copy is wiped by its own free. */
  copy = g_strdup (token);
  if (self->memory != NULL)
    g_free (token);
  else
    secret_password_free (token);

  sendable = sendable_token (copy, TRUE, error);
  memset (copy, 0, strlen (copy));
  g_free (copy);
  return sendable;
}

/* Clear */

static void
clear_cb (GObject      *object,
          GAsyncResult *result,
          gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  g_autoptr(GError) error = NULL;

  /* FALSE without an error: there was nothing to remove, which is fine. */
  if (!secret_password_clear_finish (result, &error) && error != NULL)
    op_return_error (task, error);
  else
    op_return_boolean (task, TRUE);
}

/**
 * triage_credentials_clear_token_async:
 * @self: a #TriageCredentials
 * @server_url: the server
 * @cancellable: (nullable): a #GCancellable
 * @callback: called when done
 * @user_data: data for @callback
 *
 * Removes the token of @server_url, if there is one.
 */
void
triage_credentials_clear_token_async (TriageCredentials   *self,
                                      const char          *server_url,
                                      GCancellable        *cancellable,
                                      GAsyncReadyCallback  callback,
                                      gpointer             user_data)
{
  Op *op;

  g_return_if_fail (TRIAGE_IS_CREDENTIALS (self));
  g_return_if_fail (server_url != NULL);

  op = op_start (self, server_url, NULL, MEMORY_CLEAR, triage_credentials_clear_token_async,
                 cancellable, callback, user_data);
  if (op == NULL)
    return;

  secret_password_clear (&token_schema, op->cancellable, clear_cb, op->task,
                         "server", server_url,
                         NULL);
}

gboolean
triage_credentials_clear_token_finish (TriageCredentials  *self,
                                       GAsyncResult       *result,
                                       GError            **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}

/* GObject */

static void
triage_credentials_finalize (GObject *object)
{
  TriageCredentials *self = (TriageCredentials *)object;

  g_clear_pointer (&self->memory, g_hash_table_unref);

  G_OBJECT_CLASS (triage_credentials_parent_class)->finalize (object);
}

static void
triage_credentials_class_init (TriageCredentialsClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = triage_credentials_finalize;
}

static void
triage_credentials_init (TriageCredentials *self)
{
  self->timeout_ms = TRIAGE_CREDENTIALS_DEFAULT_TIMEOUT_MS;
}

/**
 * triage_credentials_new:
 *
 * Returns: (transfer full): credentials kept in the Secret Service
 */
TriageCredentials *
triage_credentials_new (void)
{
  return g_object_new (TRIAGE_TYPE_CREDENTIALS, NULL);
}

/**
 * triage_credentials_new_in_memory:
 *
 * Returns: (transfer full): credentials kept in memory only (for tests)
 */
TriageCredentials *
triage_credentials_new_in_memory (void)
{
  TriageCredentials *self = g_object_new (TRIAGE_TYPE_CREDENTIALS, NULL);

  self->memory = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);

  return self;
}

gboolean
triage_credentials_is_in_memory (TriageCredentials *self)
{
  g_return_val_if_fail (TRIAGE_IS_CREDENTIALS (self), FALSE);

  return self->memory != NULL;
}

/**
 * triage_credentials_set_timeout:
 * @self: a #TriageCredentials
 * @timeout_ms: how long a keyring call may take (at least 1 ms)
 */
void
triage_credentials_set_timeout (TriageCredentials *self,
                                guint              timeout_ms)
{
  g_return_if_fail (TRIAGE_IS_CREDENTIALS (self));

  self->timeout_ms = MAX (timeout_ms, 1);
}

/**
 * triage_credentials_set_unresponsive:
 * @self: a #TriageCredentials
 * @unresponsive: whether calls hang (until the timeout) like a locked keyring
 *
 * For tests: the keyring is not asked while this is set.
 */
void
triage_credentials_set_unresponsive (TriageCredentials *self,
                                     gboolean           unresponsive)
{
  g_return_if_fail (TRIAGE_IS_CREDENTIALS (self));

  self->unresponsive = !!unresponsive;
}
