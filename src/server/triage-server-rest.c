/* triage-server-rest.c
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "triage-server-rest"

#include <string.h>
#include <unistd.h>
#include <sys/random.h>
#include <gio/gio.h>

#include "triage-server-private.h"

char *
triage_random_token (const char *prefix)
{
  guint8 bytes[24];
  GString *text = g_string_new (prefix);
  gsize got = 0;

  while (got < sizeof bytes)
    {
      ssize_t n = getrandom (bytes + got, sizeof bytes - got, 0);

      if (n < 0)
        g_error ("getrandom failed");
      got += (gsize) n;
    }
  for (gsize i = 0; i < sizeof bytes; i++)
    g_string_append_printf (text, "%02x", bytes[i]);
  return g_string_free (text, FALSE);
}

char *
triage_hash_token (const char *token)
{
  return g_compute_checksum_for_string (G_CHECKSUM_SHA256, token, -1);
}

static gboolean
constant_time_equal (const char *a,
                     const char *b)
{
  gsize la = strlen (a), lb = strlen (b);
  guint8 diff = la != lb;

  for (gsize i = 0; i < la && i < lb; i++)
    diff |= (guint8) (a[i] ^ b[i]);
  return diff == 0;
}

/* The answer's body becomes @body (taken). soup_server_message_set_response()
 * appends to what is there: an answer held for the group commit already has
 * its 201 body when a failed commit turns it into an error. */
static void
replace_body (SoupServerMessage *msg,
              char              *body)
{
  soup_message_body_truncate (soup_server_message_get_response_body (msg));
  soup_server_message_set_response (msg, "application/json", SOUP_MEMORY_TAKE,
                                    body, strlen (body));
}

/* The reason phrase of @status where libsoup 3.2 has none (NULL: libsoup's
 * own): RFC 6585's codes, of which the server sends 429; its status line
 * said "429 Unknown Error". */
static const char *
reason_phrase (guint status)
{
  switch (status)
    {
    case 428:
      return "Precondition Required";
    case 429:
      return "Too Many Requests";
    case 431:
      return "Request Header Fields Too Large";
    default:
      return NULL;
    }
}

void
reply_text (SoupServerMessage *msg,
            guint              status,
            char              *body)   /* takes */
{
  triage_server_request_id (msg);
  soup_server_message_set_status (msg, status, reason_phrase (status));
  replace_body (msg, body);
}

/* ---- answers wait for the group commit ---- */

typedef struct
{
  SoupServerMessage *msg;   /* NULL once the client is gone */
  gulong             finished;
} Held;

static void
held_finished (SoupServerMessage *msg,
               gpointer           data)
{
  Held *held = data;

  g_clear_object (&held->msg);
}

static void
held_release (gpointer data,
              gboolean committed)
{
  Held *held = data;

  if (held->msg != NULL)
    {
      /* By its id: a search by function walked every handler of the message. */
      g_signal_handler_disconnect (held->msg, held->finished);
      if (!committed)
        reply_error (held->msg, ATP_ERROR_STORAGE_UNAVAILABLE,
                     "The change could not be stored (the server cannot write its database "
                     "now); nothing was changed, try again later");
      /* Its headers and body in one segment (uncorked once written). */
      triage_server_cork_answer (held->msg);
      soup_server_message_unpause (held->msg);
      g_object_unref (held->msg);
    }
  g_free (held);
}

/* Sends @msg's answer (already set) once everything it reports on is durable:
 * at once when no batch is open, else after the batch's commit. @paused says
 * whether the handler had paused @msg (a long-poll). */
void
triage_server_send_when_durable (TriageServer      *self,
                                 SoupServerMessage *msg,
                                 gboolean           paused)
{
  Held *held;

  if (!triage_store_in_batch (self->store))
    {
      if (paused)
        soup_server_message_unpause (msg);
      return;
    }
  held = g_new0 (Held, 1);
  held->msg = g_object_ref (msg);
  held->finished = g_signal_connect (msg, "finished", G_CALLBACK (held_finished), held);
  if (!paused)
    soup_server_message_pause (msg);
  triage_store_after_commit_of (self->store, triage_server_request_id (msg), held_release,
                                held);
}

static void
reply_error_object (SoupServerMessage *msg,
                    guint              status,
                    const char        *code,
                    const char        *message,
                    JsonObject        *details)
{
  const char *request_id = triage_server_request_id (msg);
  char *body = atp_json_error_body (code, message, details, request_id);
  SoupMessageHeaders *headers = soup_server_message_get_response_headers (msg);

  /* The database did not answer or take the change: every such answer says
   * when to try again, whichever path gave it (a POST whose insert failed,
   * the answers held for a commit that failed), as docs/protocol.md says. */
  if (g_str_equal (code, atp_error_code_to_string (ATP_ERROR_STORAGE_UNAVAILABLE)) &&
      soup_message_headers_get_one (headers, "Retry-After") == NULL)
    soup_message_headers_replace (headers, "Retry-After", "1");
  soup_server_message_set_status (msg, status, reason_phrase (status));
  replace_body (msg, body);
}

void
reply_error_full (SoupServerMessage *msg,
                  guint              status,
                  const char        *code,
                  const char        *message,
                  const char        *field)
{
  g_autoptr(JsonObject) details = NULL;

  if (field != NULL)
    {
      details = json_object_new ();
      json_object_set_string_member (details, "field", field);
    }
  reply_error_object (msg, status, code, message, details);
}

/* 405 with the Allow header naming what is allowed. */
void
reply_method_not_allowed (SoupServerMessage *msg,
                          const char        *allow)
{
  soup_message_headers_replace (soup_server_message_get_response_headers (msg), "Allow", allow);
  reply_error (msg, ATP_ERROR_METHOD_NOT_ALLOWED, "This method is not allowed here");
}

/* The database did not answer @error while the request needed it: 503
 * STORAGE_UNAVAILABLE with Retry-After: 1 and @message, never the answer
 * its silence would imply (404, 401: a client drops an answer or a token it
 * is told is gone or invalid). @what, for the log, names what was read or
 * (an answer's change of status) written; the line names the request by
 * its request id, as the access log does. */
void
reply_unanswered (SoupServerMessage *msg,
                  const char        *what,
                  const char        *message,
                  const GError      *error)
{
  triage_log_failure ("cannot read or store %s (request %s): %s", what,
                      triage_server_request_id (msg), error->message);
  reply_error (msg, ATP_ERROR_STORAGE_UNAVAILABLE, message);
}

void
reply_error (SoupServerMessage *msg,
             AtpErrorCode       code,
             const char        *message)
{
  reply_error_field (msg, code, message, NULL);
}

/* @code's status and name, with `details.field` naming what was wrong. */
void
reply_error_field (SoupServerMessage *msg,
                   AtpErrorCode       code,
                   const char        *message,
                   const char        *field)
{
  reply_error_full (msg, atp_error_code_http_status (code), atp_error_code_to_string (code),
                    message, field);
}

/* @code with @details (may be NULL) as they are. */
void
reply_error_details (SoupServerMessage *msg,
                     AtpErrorCode       code,
                     const char        *message,
                     JsonObject        *details)
{
  reply_error_object (msg, atp_error_code_http_status (code), atp_error_code_to_string (code),
                      message, details);
}

void
reply_gerror (SoupServerMessage *msg,
              const GError      *error)
{
  AtpErrorCode code = error->domain == ATP_ERROR ? (AtpErrorCode) error->code
                                                 : ATP_ERROR_INVALID_REQUEST;

  reply_error (msg, code, error->message);
}

/* As reply_gerror(), with `details.field` the path the message starts with
 * ("request_decision.options[2].id: …"), when it starts with one. */
void
reply_gerror_field (SoupServerMessage *msg,
                    const GError      *error)
{
  AtpErrorCode code = error->domain == ATP_ERROR ? (AtpErrorCode) error->code
                                                 : ATP_ERROR_INVALID_REQUEST;
  const char *end = strstr (error->message, ": ");
  g_autofree char *field = NULL;

  if (end != NULL && end > error->message)
    {
      field = g_strndup (error->message, end - error->message);
      if (strpbrk (field, " \"'") != NULL)
        g_clear_pointer (&field, g_free);
    }
  reply_error_field (msg, code, error->message, field);
}

/* The `protocols` query parameter of the client list and streams: which
 * requests a client is sent besides ATP's (docs/architecture.md); ATP only
 * when absent. FALSE after answering 400. */
gboolean
triage_server_parse_protocols (SoupServerMessage *msg,
                               GHashTable        *query,
                               guint             *mask)
{
  const char *text = query ? g_hash_table_lookup (query, "protocols") : NULL;
  g_autoptr(GError) error = NULL;

  *mask = 1u << ATP_PROTOCOL_ATP;
  if (text != NULL && !atp_protocol_mask_from_string (text, mask, &error))
    {
      reply_error_field (msg, ATP_ERROR_INVALID_PARAMETER, error->message, "protocols");
      return FALSE;
    }
  return TRUE;
}

char *
object_to_string (JsonObject *object)
{
  return atp_json_object_to_string (object, NULL);
}

/* The token of @msg's Authorization header: NULL when it has none, "" when
 * it is of another scheme or holds no token. RFC 7235 and RFC 6750: the
 * scheme in any case ("bearer"), one or more spaces before the token (tabs
 * taken too). The whitespace around the header's value is not part of it:
 * libsoup 3.2 drops it. */
static const char *
bearer_token (SoupServerMessage *msg)
{
  const char *auth = soup_message_headers_get_one (soup_server_message_get_request_headers (msg),
                                                   "Authorization");

  if (auth == NULL)
    return NULL;
  if (g_ascii_strncasecmp (auth, "Bearer", 6) != 0 || (auth[6] != ' ' && auth[6] != '\t'))
    return "";
  return auth + 6 + strspn (auth + 6, " \t");
}

/* Whether @msg has at most one Authorization header, or FALSE after
 * answering 400. Two tokens: libsoup 3.2 reads the last, a proxy in front
 * may have checked the first; neither is known to be meant, so none is
 * taken (400, not 401: a client told 401 drops its token). Asked by each
 * endpoint that authenticates: libsoup runs the catch-all early handler
 * only on paths with no handler of their own (streams, /metrics). */
static gboolean
check_one_authorization (SoupServerMessage *msg)
{
  SoupMessageHeadersIter iter;
  const char *name, *value;
  guint count = 0;

  soup_message_headers_iter_init (&iter, soup_server_message_get_request_headers (msg));
  while (soup_message_headers_iter_next (&iter, &name, &value))
    count += g_ascii_strcasecmp (name, "Authorization") == 0;
  if (count <= 1)
    return TRUE;
  reply_error (msg, ATP_ERROR_INVALID_REQUEST,
               "The request has more than one Authorization header: send one token");
  return FALSE;
}

/* RFC 7235 §3.1: a 401 names the scheme it wants; RFC 6750 §3: with
 * error="invalid_token" when a token was sent (@error; NULL when none was),
 * and a 403 for a token of the wrong kind "insufficient_scope". */
static void
set_challenge (SoupServerMessage *msg,
               const char        *error)
{
  g_autoptr(GString) challenge = g_string_new ("Bearer realm=\"triage\"");

  if (error != NULL)
    g_string_append_printf (challenge, ", error=\"%s\"", error);
  soup_message_headers_replace (soup_server_message_get_response_headers (msg),
                                "WWW-Authenticate", challenge->str);
}

/* Local trust: no token, from a Unix socket peer with our uid. A token, when
 * one is sent, always wins over this trust. */
gboolean
triage_server_trusts (SoupServerMessage *msg)
{
  GSocket *socket = soup_server_message_get_socket (msg);
  g_autoptr(GCredentials) credentials = NULL;

  if (bearer_token (msg) != NULL ||
      socket == NULL || g_socket_get_family (socket) != G_SOCKET_FAMILY_UNIX)
    return FALSE;
  credentials = g_socket_get_credentials (socket, NULL);
  return credentials != NULL &&
         g_credentials_get_unix_user (credentials, NULL) == getuid ();
}

static gboolean
is_admin_hash (TriageServer *self,
               const char   *hash)
{
  return self->admin_hash != NULL && constant_time_equal (hash, self->admin_hash);
}

/* The kinds of token, as an answer names them. */
typedef enum
{
  TOKEN_ADMIN,
  TOKEN_USER,
  TOKEN_SERVICE,
} TokenKind;

static const char * const token_kinds[] = { "the admin token", "a user token", "a service API key" };

/* A token whose lookup failed (@error: the database did not answer) is not
 * known to be wrong: the caller is told to try again, never that it is
 * invalid (a client drops a token it is told is invalid: the app stops its
 * stream and asks for a new one). The lookup's own outcome decides: a second
 * question to the database could find it answering again. */
static void
refuse_unchecked (SoupServerMessage *msg,
                  const GError      *error)
{
  reply_unanswered (msg, "a token", "Cannot check the token now (the server's database did "
                    "not answer); try again later", error);
}

/* Refuses a request whose token (@hash; NULL when none was sent) is not of
 * the kind the endpoint needs (@needed, already looked for): 401
 * AUTH_INVALID_TOKEN with @required when the token is missing or unknown,
 * 403 AUTH_INSUFFICIENT_PERMISSIONS when it is a valid token of another kind
 * (the caller holds it, so saying which kind tells nothing new, and it names
 * the mistake), both with their WWW-Authenticate challenge (set_challenge
 * ()); 503 STORAGE_UNAVAILABLE when a lookup failed before any found it, or
 * none found it in a database whose schema is not whole (triage_store_check
 * ()). */
static void
refuse_token (TriageServer      *self,
              SoupServerMessage *msg,
              const char        *hash,
              TokenKind          needed,
              const char        *required)
{
  g_autofree char *user = NULL;
  g_autoptr(TriageServiceRow) service = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *message = NULL;
  int kind = -1;

  if (hash != NULL)
    {
      if (needed != TOKEN_ADMIN && is_admin_hash (self, hash))
        kind = TOKEN_ADMIN;
      else if (needed != TOKEN_USER &&
               (user = triage_store_user_by_token (self->store, hash, &error)) != NULL)
        kind = TOKEN_USER;
      else if (error == NULL && needed != TOKEN_SERVICE &&
               (service = triage_store_service_by_key (self->store, hash, &error)) != NULL)
        kind = TOKEN_SERVICE;
    }
  if (kind < 0 && error != NULL)
    {
      refuse_unchecked (msg, error);
      return;
    }
  /* Not found in a database being restored, or emptied, under the server
   * (its users or its keys not loaded yet): not judged, as a client told
   * 401 may drop its token. A schema of another version, or a database
   * that is read-only, is whole: a wrong token is still wrong; so is one
   * with a table locked (G_IO_ERROR_BUSY), as the lookup read the keys (a
   * restore in one transaction holds them locked too, and the lookup
   * failed). Asked of the database each time, not taken from check_schema
   * ()'s trust: a restore with --clean into the same database meets no
   * missing table to raise a doubt. */
  if (kind < 0 && hash != NULL && !triage_store_check (self->store, &error) &&
      !g_error_matches (error, G_IO_ERROR, G_IO_ERROR_FAILED) &&
      !g_error_matches (error, G_IO_ERROR, G_IO_ERROR_READ_ONLY) &&
      !g_error_matches (error, G_IO_ERROR, G_IO_ERROR_BUSY))
    {
      reply_unanswered (msg, "a token", "Cannot check the token now (the server's database is "
                        "not whole: being restored, or not answering); try again later", error);
      return;
    }
  if (kind < 0)
    {
      set_challenge (msg, hash != NULL ? "invalid_token" : NULL);
      /* "Bearer" and nothing (a script's unset variable), or another
       * scheme: said so, not left to look like a wrong token. */
      if (hash == NULL && bearer_token (msg) != NULL)
        message = g_strdup_printf ("%s; the Authorization header holds none (it should read "
                                   "\"Bearer TOKEN\")", required);
      reply_error (msg, ATP_ERROR_AUTH_INVALID_TOKEN, message != NULL ? message : required);
      return;
    }
  set_challenge (msg, "insufficient_scope");
  message = g_strdup_printf ("This endpoint needs %s; the token sent is %s", token_kinds[needed],
                             token_kinds[kind]);
  reply_error (msg, ATP_ERROR_AUTH_INSUFFICIENT_PERMISSIONS, message);
}

/* The hash of @token, NULL when none (or an empty one) was sent. */
static char *
hash_of (const char *token)
{
  return token != NULL && *token != '\0' ? triage_hash_token (token) : NULL;
}

/* Whether the database's schema is whole (triage_store_trust_schema ()),
 * or @msg answered 503: nothing is read or written in a database being
 * restored, or emptied, under the server. A token not found there may be
 * one not loaded yet (a client told 401 may drop it), and a request stored
 * there may take an id the restore is about to load, and fail its keys. */
gboolean
check_schema (TriageServer      *self,
              SoupServerMessage *msg)
{
  g_autoptr(GError) error = NULL;

  if (triage_store_trust_schema (self->store, &error))
    return TRUE;
  reply_unanswered (msg, "the database's schema", "Cannot serve this now (the server's "
                    "database is being restored, or does not answer); try again later", error);
  return FALSE;
}

gboolean
check_admin (TriageServer      *self,
             SoupServerMessage *msg)
{
  const char *token = bearer_token (msg);
  g_autofree char *hash = NULL;
  g_autofree char *address = NULL, *guesses = NULL;

  if (!check_one_authorization (msg))
    return FALSE;
  if (triage_server_trusts (msg))
    {
      triage_server_note_caller (msg, "admin", NULL);
      return TRUE;
    }
  /* The right token is always taken: a flood of wrong ones, from the same
   * address (a proxy's) or not, never locks the administrator out. Guessing
   * is defeated by the token's length (triage-server refuses one shorter
   * than 16 characters), not by the limit; wrong tokens, counted per address
   * (an IPv6 one by its /64) on every admin endpoint, are refused 429 past
   * it before the database is asked whose token they are (refuse_token ()). */
  hash = hash_of (token);
  if (hash != NULL && is_admin_hash (self, hash))
    {
      triage_server_note_caller (msg, "admin", NULL);
      return TRUE;
    }
  address = triage_server_peer_key (msg);
  guesses = g_strconcat ("admin-token ", address, NULL);
  if (triage_server_rate_check_as (self, msg, TRIAGE_LIMIT_REGISTRATIONS, guesses,
                                   "wrong admin tokens from this address"))
    refuse_token (self, msg, hash, TOKEN_ADMIN, "A valid admin token is required");
  return FALSE;
}

/* The user a request acts for, or NULL after answering 401 (503 when the
 * database cannot tell: check_schema (), refuse_token ()). @query_token is
 * the `?token=` of a stream URL (NULL elsewhere: tokens in URLs end up in
 * logs); the Authorization header wins over it. */
char *
authenticate_user (TriageServer      *self,
                   SoupServerMessage *msg,
                   const char        *query_token)
{
  const char *token = bearer_token (msg);
  g_autofree char *hash = NULL;
  g_autoptr(GError) error = NULL;
  char *user = NULL;

  if (!check_one_authorization (msg) || !check_schema (self, msg))
    return NULL;
  if (token == NULL)
    token = query_token;
  if (token == NULL && triage_server_trusts (msg))
    {
      triage_server_note_caller (msg, "user", TRIAGE_DEFAULT_USER);
      return g_strdup (TRIAGE_DEFAULT_USER);
    }
  hash = hash_of (token);
  if (hash != NULL)
    user = triage_store_user_by_token (self->store, hash, &error);
  if (user != NULL)
    {
      triage_server_note_caller (msg, "user", user);
      return user;
    }
  if (error != NULL)
    refuse_unchecked (msg, error);
  else
    refuse_token (self, msg, hash, TOKEN_USER, "A valid user token is required");
  return NULL;
}

/* The trusted local peer's service, registered on first use; NULL with
 * @error set when the database did not answer its lookup. */
static TriageServiceRow *
local_service (TriageServer      *self,
               SoupServerMessage *msg,
               GError           **error)
{
  SoupMessageHeaders *headers = soup_server_message_get_request_headers (msg);
  const char *id = soup_message_headers_get_one (headers, "X-Triage-Service");
  const char *name = soup_message_headers_get_one (headers, "X-Triage-Service-Name");
  const char *recipients[] = { TRIAGE_DEFAULT_USER, NULL };
  TriageServiceRow *row;
  TriageStoreInsert inserted;

  if (id == NULL || *id == '\0')
    id = "local";
  if (name == NULL || *name == '\0')
    name = id;
  row = triage_store_service_by_id (self->store, id, error);
  if (row != NULL || (error != NULL && *error != NULL))
    return row;
  inserted = triage_store_add_service (self->store, id, name, name, NULL, NULL, NULL, recipients);
  /* Its name taken by another service: named after its id too. */
  if (inserted == TRIAGE_STORE_INSERT_EXISTS)
    {
      g_autofree char *unique = g_strdup_printf ("%s (%s)", name, id);

      inserted = triage_store_add_service (self->store, id, unique, name, NULL, NULL, NULL,
                                           recipients);
    }
  /* Not taken (a busy file, a database that did not answer): not known to
   * be unregistrable either. */
  if (inserted == TRIAGE_STORE_INSERT_FAILED)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_CONNECTED,
                   "the database did not take the local service %s", id);
      return NULL;
    }
  return triage_store_service_by_id (self->store, id, error);
}

TriageServiceRow *
authenticate_service (TriageServer      *self,
                      SoupServerMessage *msg)
{
  const char *token = bearer_token (msg);
  g_autofree char *hash = NULL;
  g_autoptr(GError) error = NULL;
  TriageServiceRow *row = NULL;

  if (!check_one_authorization (msg) || !check_schema (self, msg))
    return NULL;
  if (triage_server_trusts (msg))
    {
      row = local_service (self, msg, &error);
      if (row != NULL)
        {
          triage_server_note_caller (msg, "service", row->id);
          return row;
        }
      if (error != NULL)
        {
          /* not known to be unregistrable: the caller is told to try again */
          reply_unanswered (msg, "the local service", "Cannot look up or register the local "
                            "service now (the server's database did not answer); try again "
                            "later", error);
        }
      else
        reply_error (msg, ATP_ERROR_INTERNAL_ERROR, "Cannot register the local service");
      return NULL;
    }
  hash = hash_of (token);
  if (hash != NULL)
    row = triage_store_service_by_key (self->store, hash, &error);
  if (row != NULL)
    {
      triage_server_note_caller (msg, "service", row->id);
      return row;
    }
  if (error != NULL)
    refuse_unchecked (msg, error);
  else
    refuse_token (self, msg, hash, TOKEN_SERVICE, "A valid service API key is required");
  return NULL;
}

/* Parses the request body as a JSON object; replies and returns NULL on error. */
JsonNode *
parse_body (SoupServerMessage *msg)
{
  SoupMessageBody *body = soup_server_message_get_request_body (msg);
  g_autoptr(GBytes) bytes = soup_message_body_flatten (body);
  g_autoptr(GError) error = NULL;
  JsonNode *node;

  if (g_bytes_get_size (bytes) > ATP_MAX_NOTIFICATION_SIZE)
    {
      reply_error (msg, ATP_ERROR_PAYLOAD_TOO_LARGE, "The request body is too large");
      return NULL;
    }
  node = atp_json_parse (g_bytes_get_data (bytes, NULL), (gssize) g_bytes_get_size (bytes),
                         ATP_MAX_NOTIFICATION_SIZE, &error);
  if (node == NULL)
    {
      reply_gerror (msg, error);
      return NULL;
    }
  if (!JSON_NODE_HOLDS_OBJECT (node))
    {
      json_node_unref (node);
      reply_error (msg, ATP_ERROR_INVALID_REQUEST, "The request body must be a JSON object");
      return NULL;
    }
  return node;
}

const char *
get_string (SoupServerMessage *msg,
            JsonObject        *object,
            const char        *name,
            gboolean           required,
            gboolean          *failed)
{
  return get_string_or (msg, object, name, required, ATP_ERROR_INVALID_FIELD_VALUE, failed);
}

/* get_string() with @invalid as the code of a value that is not a
 * (non-empty, when @required) string. */
const char *
get_string_or (SoupServerMessage *msg,
               JsonObject        *object,
               const char        *name,
               gboolean           required,
               AtpErrorCode       invalid,
               gboolean          *failed)
{
  JsonNode *node = json_object_get_member (object, name);
  g_autofree char *message = NULL;

  if (node == NULL || JSON_NODE_HOLDS_NULL (node))
    {
      if (required)
        {
          message = g_strdup_printf ("The field '%s' is required", name);
          reply_error_field (msg, ATP_ERROR_MISSING_REQUIRED_FIELD, message, name);
          *failed = TRUE;
        }
      return NULL;
    }
  if (!JSON_NODE_HOLDS_VALUE (node) || json_node_get_value_type (node) != G_TYPE_STRING ||
      (required && *json_node_get_string (node) == '\0'))
    {
      message = g_strdup_printf ("The field '%s' must be a non-empty string", name);
      reply_error_field (msg, invalid, message, name);
      *failed = TRUE;
      return NULL;
    }
  return json_node_get_string (node);
}

/* An optional string member that, given, must hold more than whitespace: an
 * empty one is refused naming it, never read as a text or as none. @value is
 * NULL when the member is absent or null. */
gboolean
get_text (SoupServerMessage *msg,
          JsonObject        *object,
          const char        *name,
          char             **value)
{
  JsonNode *node = json_object_get_member (object, name);
  g_autofree char *stripped = NULL;
  g_autofree char *message = NULL;

  *value = NULL;
  if (node == NULL || JSON_NODE_HOLDS_NULL (node))
    return TRUE;
  if (JSON_NODE_HOLDS_VALUE (node) && json_node_get_value_type (node) == G_TYPE_STRING)
    {
      stripped = g_strstrip (g_strdup (json_node_get_string (node)));
      if (*stripped != '\0')
        {
          *value = g_strdup (json_node_get_string (node));
          return TRUE;
        }
    }

  message = g_strdup_printf ("%s: must be a non-empty string", name);
  reply_error_field (msg, ATP_ERROR_INVALID_FIELD_VALUE, message, name);
  return FALSE;
}

/* A PATCH's optional "reason" in *@value: a string, or nothing. ATP lets it
 * be any string; one that shows nothing (empty, spaces, zero-width or other
 * invisible characters alone: atp_str_is_blank (), a title's rule) says
 * nothing and is read as no reason (the withdrawal goes through), never
 * kept as one. */
gboolean
get_reason (SoupServerMessage *msg,
            JsonObject        *object,
            char             **value)
{
  gboolean failed = FALSE;
  const char *reason = get_string (msg, object, "reason", FALSE, &failed);

  *value = !atp_str_is_blank (reason) ? g_strdup (reason) : NULL;
  return !failed;
}
