/* triage-history-entry.c
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "triage-history"

#include <glib/gi18n.h>
#include <string.h>

#include "atp-action.h"
#include "triage-atp-protocol.h"
#include "triage-history-entry.h"
#include "triage-protocol.h"

/*
 * One request of the history with what became of it: an immutable snapshot
 * of its row. The history model makes these a page at a time; a changed row
 * is a new entry (the model says so with items-changed).
 */

struct _TriageHistoryEntry
{
  GObject                 parent_instance;

  TriageHistoryEntryData  data;
};

G_DEFINE_FINAL_TYPE (TriageHistoryEntry, triage_history_entry, G_TYPE_OBJECT)

enum {
  PROP_0,
  PROP_ID,
  PROP_TITLE,
  PROP_SERVICE_NAME,
  PROP_PROJECT,
  PROP_OUTCOME,
  N_PROPS
};

static GParamSpec *properties [N_PROPS];

void
triage_history_entry_data_clear (TriageHistoryEntryData *data)
{
  g_clear_pointer (&data->id, g_free);
  g_clear_pointer (&data->service_id, g_free);
  g_clear_pointer (&data->service_name, g_free);
  g_clear_pointer (&data->project, g_free);
  g_clear_pointer (&data->title, g_free);
  g_clear_pointer (&data->description, g_free);
  g_clear_pointer (&data->status_reason, g_free);
  g_clear_pointer (&data->action_id, g_free);
  g_clear_pointer (&data->action_label, g_free);
  g_clear_pointer (&data->response_data, g_free);
  g_clear_pointer (&data->responder_id, g_free);
  g_clear_pointer (&data->responder_type, g_free);
  g_clear_pointer (&data->action_json, g_free);
}

static void
triage_history_entry_finalize (GObject *object)
{
  TriageHistoryEntry *self = (TriageHistoryEntry *)object;

  triage_history_entry_data_clear (&self->data);

  G_OBJECT_CLASS (triage_history_entry_parent_class)->finalize (object);
}

static void
triage_history_entry_get_property (GObject    *object,
                                   guint       prop_id,
                                   GValue     *value,
                                   GParamSpec *pspec)
{
  TriageHistoryEntry *self = TRIAGE_HISTORY_ENTRY (object);

  switch (prop_id)
    {
    case PROP_ID:
      g_value_set_string (value, self->data.id);
      break;

    case PROP_TITLE:
      g_value_set_string (value, self->data.title);
      break;

    case PROP_SERVICE_NAME:
      g_value_set_string (value, self->data.service_name);
      break;

    case PROP_PROJECT:
      g_value_set_string (value, self->data.project);
      break;

    case PROP_OUTCOME:
      g_value_set_uint (value, triage_history_entry_get_outcome (self));
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
triage_history_entry_class_init (TriageHistoryEntryClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = triage_history_entry_finalize;
  object_class->get_property = triage_history_entry_get_property;

  properties [PROP_ID] =
    g_param_spec_string ("id", NULL, NULL, NULL,
                         (G_PARAM_READABLE | G_PARAM_STATIC_STRINGS));
  properties [PROP_TITLE] =
    g_param_spec_string ("title", NULL, NULL, NULL,
                         (G_PARAM_READABLE | G_PARAM_STATIC_STRINGS));
  properties [PROP_SERVICE_NAME] =
    g_param_spec_string ("service-name", NULL, NULL, NULL,
                         (G_PARAM_READABLE | G_PARAM_STATIC_STRINGS));
  properties [PROP_PROJECT] =
    g_param_spec_string ("project", NULL, NULL, NULL,
                         (G_PARAM_READABLE | G_PARAM_STATIC_STRINGS));
  properties [PROP_OUTCOME] =
    g_param_spec_uint ("outcome", NULL, NULL,
                       TRIAGE_OUTCOME_NONE, TRIAGE_OUTCOME_GONE, TRIAGE_OUTCOME_NONE,
                       (G_PARAM_READABLE | G_PARAM_STATIC_STRINGS));

  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
triage_history_entry_init (TriageHistoryEntry *self)
{
}

/**
 * triage_history_entry_new:
 * @data: the row; its contents are taken over and @data is left cleared
 *
 * Returns: (transfer full): a new entry
 */
TriageHistoryEntry *
triage_history_entry_new (TriageHistoryEntryData *data)
{
  TriageHistoryEntry *self;

  g_return_val_if_fail (data != NULL, NULL);

  self = g_object_new (TRIAGE_TYPE_HISTORY_ENTRY, NULL);
  self->data = *data;
  memset (data, 0, sizeof *data);

  return self;
}

const TriageHistoryEntryData *
triage_history_entry_get_data (TriageHistoryEntry *self)
{
  g_return_val_if_fail (TRIAGE_IS_HISTORY_ENTRY (self), NULL);

  return &self->data;
}

gint64
triage_history_entry_get_rowid (TriageHistoryEntry *self)
{
  g_return_val_if_fail (TRIAGE_IS_HISTORY_ENTRY (self), 0);

  return self->data.rowid;
}

const char *
triage_history_entry_get_id (TriageHistoryEntry *self)
{
  g_return_val_if_fail (TRIAGE_IS_HISTORY_ENTRY (self), NULL);

  return self->data.id;
}

const char *
triage_history_entry_get_title (TriageHistoryEntry *self)
{
  g_return_val_if_fail (TRIAGE_IS_HISTORY_ENTRY (self), NULL);

  return self->data.title;
}

const char *
triage_history_entry_get_service_name (TriageHistoryEntry *self)
{
  g_return_val_if_fail (TRIAGE_IS_HISTORY_ENTRY (self), NULL);

  return self->data.service_name;
}

const char *
triage_history_entry_get_project (TriageHistoryEntry *self)
{
  g_return_val_if_fail (TRIAGE_IS_HISTORY_ENTRY (self), NULL);

  return self->data.project;
}

/**
 * triage_history_effective_outcome:
 * @stored: the outcome the store recorded
 * @status: the last status the server sent
 *
 * The store records an outcome for what this app did or was told; a terminal
 * status that arrived without one (say, during a resync) still settles the
 * request. This is the same rule as %TRIAGE_HISTORY_EFFECTIVE_OUTCOME_SQL.
 *
 * Returns: what became of the request (%TRIAGE_OUTCOME_NONE: still pending)
 */
TriageOutcome
triage_history_effective_outcome (TriageOutcome stored,
                                  AtpStatus     status)
{
  if (stored != TRIAGE_OUTCOME_NONE)
    return stored;

  switch (status)
    {
    case ATP_STATUS_RESPONDED:
      return TRIAGE_OUTCOME_ANSWERED_ELSEWHERE;
    case ATP_STATUS_EXPIRED:
      return TRIAGE_OUTCOME_EXPIRED;
    case ATP_STATUS_INVALIDATED:
      return TRIAGE_OUTCOME_INVALIDATED;
    case ATP_STATUS_CREATED:
    case ATP_STATUS_DELIVERED:
    case ATP_STATUS_ACKNOWLEDGED:
    default:
      return TRIAGE_OUTCOME_NONE;
    }
}

TriageOutcome
triage_history_entry_get_outcome (TriageHistoryEntry *self)
{
  g_return_val_if_fail (TRIAGE_IS_HISTORY_ENTRY (self), TRIAGE_OUTCOME_NONE);

  return triage_history_effective_outcome (self->data.stored_outcome, self->data.status);
}

/**
 * triage_history_entry_is_queued:
 *
 * Returns: %TRUE if answered here and the answer waits in the outbox
 */
gboolean
triage_history_entry_is_queued (TriageHistoryEntry *self)
{
  g_return_val_if_fail (TRIAGE_IS_HISTORY_ENTRY (self), FALSE);

  return triage_history_entry_get_outcome (self) == TRIAGE_OUTCOME_NONE &&
         self->data.action_id != NULL;
}

/**
 * triage_history_entry_get_response_time:
 *
 * Returns: microseconds from the request to the answer given here, -1 when
 *   there is no answer from this app
 */
gint64
triage_history_entry_get_response_time (TriageHistoryEntry *self)
{
  g_return_val_if_fail (TRIAGE_IS_HISTORY_ENTRY (self), -1);

  if (self->data.answered_at == 0 || self->data.created_at == 0 ||
      self->data.answered_at < self->data.created_at)
    return -1;

  return self->data.answered_at - self->data.created_at;
}

/**
 * triage_history_outcome_label:
 * @outcome: a #TriageOutcome
 *
 * Returns: the outcome in words, translated
 */
const char *
triage_history_outcome_label (TriageOutcome outcome)
{
  switch (outcome)
    {
    case TRIAGE_OUTCOME_ANSWERED:
      return _("Answered here");
    case TRIAGE_OUTCOME_ANSWERED_ELSEWHERE:
      return _("Answered elsewhere");
    case TRIAGE_OUTCOME_EXPIRED:
      return _("Expired");
    case TRIAGE_OUTCOME_INVALIDATED:
      /* Translators: the service withdrew (invalidated) the request */
      return _("Withdrawn");
    case TRIAGE_OUTCOME_REJECTED:
      return _("Refused by the server");
    case TRIAGE_OUTCOME_GONE:
      /* Translators: a request the server no longer has (or no longer shows
       * to this user): whether it was answered is not known */
      return _("No longer on the server");
    case TRIAGE_OUTCOME_NONE:
    default:
      return _("Pending");
    }
}

char *
triage_history_entry_dup_outcome_label (TriageHistoryEntry *self)
{
  g_return_val_if_fail (TRIAGE_IS_HISTORY_ENTRY (self), NULL);

  if (triage_history_entry_is_queued (self))
    return g_strdup (_("Answered, waiting to be sent"));

  return g_strdup (triage_history_outcome_label (triage_history_entry_get_outcome (self)));
}

/* An ATP answer in words, from the action as the request had it: the
 * option's label, not its value ("‘Region’: Dublin", not "Region: \"r1\"").
 * The action is checked by libatp's own rules. */
static char *
describe_atp_answer (const TriageHistoryEntryData *data,
                     JsonNode                     *response_data)
{
  g_autoptr(JsonNode) node = NULL;
  g_autoptr(AtpAction) action = NULL;

  if (data->action_json == NULL)
    return NULL;

  node = atp_json_parse (data->action_json, -1, ATP_MAX_NOTIFICATION_SIZE, NULL);
  if (node != NULL)
    action = atp_action_new_from_json (node, NULL);
  if (action == NULL || g_strcmp0 (action->id, data->action_id) != 0)
    return NULL;

  return triage_atp_describe_answer (action, response_data);
}

/**
 * triage_history_entry_dup_answer_text:
 *
 * The answer as the request's protocol words it from what the history keeps
 * (AITP: the options chosen, with their quantities); else the action chosen
 * here and its data.
 *
 * Returns: (transfer full): the answer, "" when this app gave no answer
 */
char *
triage_history_entry_dup_answer_text (TriageHistoryEntry *self)
{
  TriageProtocol *protocol;
  const char *label;
  const char *data;

  g_return_val_if_fail (TRIAGE_IS_HISTORY_ENTRY (self), NULL);

  if (self->data.action_id == NULL)
    return g_strdup ("");

  label = self->data.action_label ? self->data.action_label : self->data.action_id;
  data = self->data.response_data;

  protocol = triage_protocol_get (self->data.protocol);
  if (protocol != NULL && data != NULL)
    {
      g_autoptr(JsonNode) node = atp_json_parse (data, -1, 0, NULL);
      char *text = node ? triage_protocol_describe_answer (protocol, NULL, self->data.action_id, node)
                        : NULL;

      if (text == NULL && node != NULL && self->data.protocol == ATP_PROTOCOL_ATP &&
          !JSON_NODE_HOLDS_NULL (node))
        text = describe_atp_answer (&self->data, node);
      if (text != NULL)
        return text;
    }

  if (data == NULL || g_str_equal (data, "null"))
    return g_strdup (label);

  /* Translators: an answer in the history: the action's label and the data sent */
  return g_strdup_printf (_("%s: %s"), label, data);
}

/**
 * triage_history_entry_dup_service_text:
 *
 * Returns: (transfer full): the service, with the mark of the protocol it
 *   asked in when it has one ("Shop Bot (AITP)")
 */
char *
triage_history_entry_dup_service_text (TriageHistoryEntry *self)
{
  g_return_val_if_fail (TRIAGE_IS_HISTORY_ENTRY (self), NULL);

  return triage_protocol_dup_marked (self->data.protocol,
                                     self->data.service_name ? self->data.service_name : "");
}

/**
 * triage_history_entry_dup_responder_text:
 *
 * Returns: (transfer full): who answered, "" when nobody did
 */
char *
triage_history_entry_dup_responder_text (TriageHistoryEntry *self)
{
  g_return_val_if_fail (TRIAGE_IS_HISTORY_ENTRY (self), NULL);

  if (self->data.responder_id != NULL)
    return g_strdup (self->data.responder_id);

  switch (triage_history_entry_get_outcome (self))
    {
    case TRIAGE_OUTCOME_ANSWERED:
    case TRIAGE_OUTCOME_REJECTED:
      /* Translators: who answered a request: the person using this app */
      return g_strdup (_("You"));
    case TRIAGE_OUTCOME_ANSWERED_ELSEWHERE:
      return g_strdup (_("Another device"));
    case TRIAGE_OUTCOME_NONE:
      return g_strdup (self->data.action_id != NULL ? _("You") : "");
    case TRIAGE_OUTCOME_EXPIRED:
    case TRIAGE_OUTCOME_INVALIDATED:
    default:
      return g_strdup ("");
    }
}

/**
 * triage_history_format_duration:
 * @usec: a duration in microseconds (negative: unknown)
 *
 * Returns: (transfer full): the duration in words ("45 s", "3 min",
 *   "2 h 5 min", "3 days"), "" when unknown
 */
char *
triage_history_format_duration (gint64 usec)
{
  gint64 seconds;

  if (usec < 0)
    return g_strdup ("");

  seconds = (usec + G_USEC_PER_SEC / 2) / G_USEC_PER_SEC;

  if (seconds < 60)
    /* Translators: a short duration in seconds */
    return g_strdup_printf (_("%d s"), (int) seconds);

  if (seconds < 3600)
    /* Translators: a duration in minutes */
    return g_strdup_printf (_("%d min"), (int) (seconds / 60));

  if (seconds < 86400)
    {
      int hours = seconds / 3600;
      int minutes = (seconds % 3600) / 60;

      if (minutes == 0)
        /* Translators: a duration in hours */
        return g_strdup_printf (_("%d h"), hours);
      /* Translators: a duration in hours and minutes */
      return g_strdup_printf (_("%d h %d min"), hours, minutes);
    }

  {
    int days = seconds / 86400;

    return g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%d day", "%d days", days), days);
  }
}
