/* atp-notification.h — the notification (the envelope of every request) and its parts
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib-object.h>
#include <json-glib/json-glib.h>

#include "atp-types.h"

G_BEGIN_DECLS

/*
 * An AtpNotification is immutable and always valid: the only way to get one is
 * to parse JSON, and parsing applies every rule of docs/protocol.md §2. Its
 * parts are plain structs owned by it; their fields are public and read-only.
 * Members a part does not know are kept in its @extra object and written back
 * by atp_notification_to_json(), so a round trip loses nothing.
 */

typedef struct
{
  char       *value;
  char       *label;
  JsonObject *extra;               /* unknown members of the option; never NULL */
} AtpOption;

typedef struct
{
  char            *id;
  char            *label;
  AtpResponseType  response_type;
  AtpFlags         flags;          /* known flags */
  GStrv            flag_names;     /* every flag as sent, in order, unknown ones included; never NULL */

  /* binary */
  char            *true_label;
  char            *false_label;

  /* choice, multi_choice: AtpOption*, NULL for the other types */
  GPtrArray       *options;

  /* multi_choice: min_selections defaults to 0, max_selections -1 = unlimited */
  gint64           min_selections;
  gint64           max_selections;

  /* text: min_length defaults to 0, max_length -1 = unlimited; Unicode characters */
  gint64           min_length;
  gint64           max_length;

  /* number and scale (scale values are integral; step defaults to 1 for scale) */
  gboolean         has_min;
  gboolean         has_max;
  gboolean         has_step;
  double           min;
  double           max;
  double           step;

  char            *placeholder;    /* text, number */
  char            *unit;           /* number */
  char            *min_label;      /* scale */
  char            *max_label;      /* scale */

  /* Unknown members, NULL when there are none (nearly always: an app keeps
   * thousands of requests, and an empty object is 260 bytes). */
  JsonObject      *extra;          /* of the action */
  JsonObject      *extra_constraints; /* of constraints */
  JsonObject      *extra_options;  /* of a binary's options object */
} AtpAction;

typedef struct
{
  char       *type;                /* MIME type */
  char       *description;         /* nullable */
  char       *uri;                 /* exactly one of uri and data is set */
  char       *data;                /* base64, as sent */
  gsize       decoded_size;        /* size of data once decoded, 0 for uri */
  JsonObject *extra;
} AtpAttachment;

typedef struct
{
  char       *id;                  /* NULL in a submission (the server fills the service in) */
  char       *name;
  char       *icon;                /* nullable: a URL or a data: URI; never fetched without a user's reason */
  JsonObject *extra;               /* unknown members; NULL when none */
} AtpService;

typedef struct
{
  char       *title;
  char       *description;         /* required for ATP; nullable for other protocols */
  char       *project;             /* nullable */
  JsonObject *metadata;            /* nullable */
  GPtrArray  *attachments;         /* AtpAttachment*, never NULL */
  JsonObject *extra;               /* unknown members; NULL when none */
} AtpContext;

typedef struct _AtpResponse AtpResponse;

/*
 * The envelope: every request, whatever protocol its agent spoke, travels as
 * one of these (docs/architecture.md). An ATP request is the ATP notification
 * (@protocol ATP_PROTOCOL_ATP, no `protocol` member on the wire, @payload
 * NULL). A request of another protocol has `"protocol": "<name>"` and its own
 * message under the member of that name (@payload, an object, kept as sent);
 * it has no actions, and its context's description is optional.
 */
typedef struct
{
  char        *id;
  char        *version;
  AtpProtocol  protocol;
  JsonNode    *payload;            /* the protocol's member; NULL for ATP */
  GDateTime   *timestamp;
  GDateTime   *deadline;           /* nullable */
  AtpService   service;
  AtpContext   context;
  GPtrArray   *actions;            /* AtpAction*: at least one for ATP, none otherwise */
  AtpStatus    status;             /* ATP_STATUS_CREATED in a submission */
  AtpResponse *response;           /* nullable: present in a service GET once answered */
  char        *reason;             /* nullable: the service's reason, in a read once it withdrew it */
  JsonObject  *extra;              /* unknown members; NULL when none */
} AtpNotification;

typedef enum
{
  ATP_PARSE_DEFAULT    = 0,
  /*
   * A service's POST body: `service` and `status` are ignored (the server
   * fills them); `id` and `timestamp` may be missing (the server fills them);
   * `version` defaults to "1.0".
   */
  ATP_PARSE_SUBMISSION = 1 << 0,
} AtpParseFlags;

#define ATP_TYPE_NOTIFICATION (atp_notification_get_type ())

GType            atp_notification_get_type        (void) G_GNUC_CONST;

/**
 * atp_notification_new_from_json:
 * @node: the parsed JSON
 * @flags: #AtpParseFlags
 * @error: an %ATP_ERROR naming the field (e.g. "actions[1].options.true_label")
 *   and the rule it breaks
 *
 * Returns: (transfer full) (nullable): a valid notification
 */
AtpNotification *atp_notification_new_from_json   (JsonNode        *node,
                                                   AtpParseFlags    flags,
                                                   GError         **error);
/* atp_json_parse() with ATP_MAX_NOTIFICATION_SIZE, then the above. */
AtpNotification *atp_notification_new_from_data   (const char      *data,
                                                   gssize           length,
                                                   AtpParseFlags    flags,
                                                   GError         **error);
AtpNotification *atp_notification_ref             (AtpNotification *self);
void             atp_notification_unref           (AtpNotification *self);

/* The server-side fields replaced in place (NULL / -1 leave them as they are). */
void             atp_notification_complete        (AtpNotification *self,
                                                   const char      *id,
                                                   GDateTime       *timestamp,
                                                   const char      *service_id,
                                                   const char      *service_name,
                                                   const char      *service_icon,
                                                   int              status);
/* A copy with the server-side fields replaced (NULL / -1 leave them as they are). */
AtpNotification *atp_notification_copy_with       (AtpNotification *self,
                                                   const char      *id,
                                                   GDateTime       *timestamp,
                                                   const char      *service_id,
                                                   const char      *service_name,
                                                   const char      *service_icon,
                                                   int              status);
AtpNotification *atp_notification_copy_with_response (AtpNotification *self,
                                                      AtpResponse     *response);

/* @node, the JSON @self was parsed from, completed in place to what
 * atp_notification_to_json() says (in the agent's member order). */
void             atp_notification_complete_json   (AtpNotification *self,
                                                   JsonNode        *node);
JsonNode        *atp_notification_to_json         (AtpNotification *self);
char            *atp_notification_to_string       (AtpNotification *self,
                                                   gsize           *length);

const AtpAction *atp_notification_find_action     (AtpNotification *self,
                                                   const char      *action_id);
/* The union of the flags of all actions. */
AtpFlags         atp_notification_get_flags       (AtpNotification *self);

/**
 * atp_action_validate_response:
 * @action: the action answered
 * @response_data: (nullable): the answer; %NULL counts as JSON null
 * @error: %ATP_ERROR_INVALID_RESPONSE_DATA for a wrong JSON type (a string
 *   where a boolean belongs, a non-string in a multi_choice array, a
 *   fractional scale value), or %ATP_ERROR_CONSTRAINT_VIOLATION for the right
 *   type outside the constraints (an option value that does not exist, a
 *   repeated selection, lengths, counts, bounds, the step grid)
 *
 * Checks an answer against its action exactly as the server does.
 */
gboolean         atp_action_validate_response     (const AtpAction *action,
                                                   JsonNode        *response_data,
                                                   GError         **error);
gboolean         atp_action_needs_confirmation    (const AtpAction *action);

/* Decoded inline data; %ATP_ERROR_INVALID_FIELD_VALUE for a uri attachment. */
GBytes          *atp_attachment_decode            (const AtpAttachment *attachment,
                                                   GError             **error);
gboolean         atp_attachment_type_is_json      (const char          *mime_type);
gboolean         atp_attachment_type_is_text      (const char          *mime_type);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (AtpNotification, atp_notification_unref)

G_END_DECLS
