/* atp-types.c
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "atp-types"

#include "atp-types.h"

#include <string.h>

#include "atp-error.h"

static const char * const protocol_names[] = {
  [ATP_PROTOCOL_ATP] = "atp",
  [ATP_PROTOCOL_AITP] = "aitp",
  [ATP_PROTOCOL_AFP] = "afp",
};

static const char * const response_type_names[] = {
  [ATP_RESPONSE_TYPE_SIMPLE] = "simple",
  [ATP_RESPONSE_TYPE_BINARY] = "binary",
  [ATP_RESPONSE_TYPE_CHOICE] = "choice",
  [ATP_RESPONSE_TYPE_MULTI_CHOICE] = "multi_choice",
  [ATP_RESPONSE_TYPE_TEXT] = "text",
  [ATP_RESPONSE_TYPE_NUMBER] = "number",
  [ATP_RESPONSE_TYPE_SCALE] = "scale",
};

static const char * const status_names[] = {
  [ATP_STATUS_CREATED] = "created",
  [ATP_STATUS_DELIVERED] = "delivered",
  [ATP_STATUS_ACKNOWLEDGED] = "acknowledged",
  [ATP_STATUS_RESPONDED] = "responded",
  [ATP_STATUS_EXPIRED] = "expired",
  [ATP_STATUS_INVALIDATED] = "invalidated",
};

static const struct
{
  AtpFlags    flag;
  const char *name;
} flag_names[] = {
  { ATP_FLAG_DESTRUCTIVE, "destructive" },
  { ATP_FLAG_IRREVERSIBLE, "irreversible" },
  { ATP_FLAG_TIME_SENSITIVE, "time_sensitive" },
  { ATP_FLAG_AFFECTS_OTHERS, "affects_others" },
  { ATP_FLAG_COSTLY, "costly" },
  { ATP_FLAG_EXPERIMENTAL, "experimental" },
  { ATP_FLAG_REQUIRES_CONFIRMATION, "requires_confirmation" },
};

static const char * const responder_type_names[] = {
  [ATP_RESPONDER_HUMAN] = "human",
  [ATP_RESPONDER_AGENT] = "agent",
};

/**
 * atp_protocol_to_string:
 * @protocol: an #AtpProtocol
 *
 * Returns: (transfer none): the wire name of @protocol, or %NULL if out of range
 */
const char *
atp_protocol_to_string (AtpProtocol protocol)
{
  if ((guint) protocol >= G_N_ELEMENTS (protocol_names))
    return NULL;
  return protocol_names[protocol];
}

/**
 * atp_protocol_from_string:
 * @str: (nullable): a wire name
 * @protocol: (out) (optional): the protocol
 *
 * Returns: %TRUE if @str names a protocol (case-sensitive)
 */
gboolean
atp_protocol_from_string (const char  *str,
                          AtpProtocol *protocol)
{
  if (str == NULL)
    return FALSE;

  for (guint i = 0; i < G_N_ELEMENTS (protocol_names); i++)
    {
      if (strcmp (str, protocol_names[i]) == 0)
        {
          if (protocol != NULL)
            *protocol = (AtpProtocol) i;
          return TRUE;
        }
    }

  return FALSE;
}

/**
 * atp_protocol_mask_from_string:
 * @str: a `protocols=` value: wire names separated by commas, or `all`
 * @mask: (out): a bit per #AtpProtocol
 * @error: %ATP_ERROR_INVALID_FIELD_VALUE naming the word not understood
 *
 * Returns: %TRUE if @str is a list of protocols
 */
gboolean
atp_protocol_mask_from_string (const char  *str,
                               guint       *mask,
                               GError     **error)
{
  g_auto(GStrv) names = NULL;
  guint bits = 0;

  g_return_val_if_fail (str != NULL, FALSE);

  if (strcmp (str, "all") == 0)
    {
      *mask = ATP_PROTOCOL_MASK_ALL;
      return TRUE;
    }

  names = g_strsplit (str, ",", -1);
  for (guint i = 0; names[i] != NULL; i++)
    {
      AtpProtocol protocol;

      if (!atp_protocol_from_string (names[i], &protocol))
        {
          g_set_error (error, ATP_ERROR, ATP_ERROR_INVALID_FIELD_VALUE,
                       "protocols: unknown protocol \"%s\" (a comma-separated list of "
                       "atp, aitp and afp, or all)", names[i]);
          return FALSE;
        }
      bits |= 1u << protocol;
    }
  if (bits == 0)
    {
      g_set_error_literal (error, ATP_ERROR, ATP_ERROR_INVALID_FIELD_VALUE,
                           "protocols: must name at least one of atp, aitp and afp, or be all");
      return FALSE;
    }

  *mask = bits;
  return TRUE;
}

/**
 * atp_response_type_to_string:
 * @type: an #AtpResponseType
 *
 * Returns: (transfer none): the wire name of @type, or %NULL if out of range
 */
const char *
atp_response_type_to_string (AtpResponseType type)
{
  if ((guint) type >= G_N_ELEMENTS (response_type_names))
    return NULL;
  return response_type_names[type];
}

/**
 * atp_response_type_from_string:
 * @str: (nullable): a wire name
 * @type: (out) (optional): the response type
 *
 * Returns: %TRUE if @str names a response type (case-sensitive)
 */
gboolean
atp_response_type_from_string (const char      *str,
                               AtpResponseType *type)
{
  if (str == NULL)
    return FALSE;

  for (guint i = 0; i < G_N_ELEMENTS (response_type_names); i++)
    {
      if (strcmp (str, response_type_names[i]) == 0)
        {
          if (type != NULL)
            *type = (AtpResponseType) i;
          return TRUE;
        }
    }

  return FALSE;
}

/**
 * atp_status_to_string:
 * @status: an #AtpStatus
 *
 * Returns: (transfer none): the wire name of @status, or %NULL if out of range
 */
const char *
atp_status_to_string (AtpStatus status)
{
  if ((guint) status >= G_N_ELEMENTS (status_names))
    return NULL;
  return status_names[status];
}

/**
 * atp_status_from_string:
 * @str: (nullable): a wire name
 * @status: (out) (optional): the status
 *
 * Returns: %TRUE if @str names a status
 */
gboolean
atp_status_from_string (const char *str,
                        AtpStatus  *status)
{
  if (str == NULL)
    return FALSE;

  for (guint i = 0; i < G_N_ELEMENTS (status_names); i++)
    {
      if (strcmp (str, status_names[i]) == 0)
        {
          if (status != NULL)
            *status = (AtpStatus) i;
          return TRUE;
        }
    }

  return FALSE;
}

/**
 * atp_status_is_terminal:
 * @status: an #AtpStatus
 *
 * Returns: %TRUE for responded, expired and invalidated
 */
gboolean
atp_status_is_terminal (AtpStatus status)
{
  return status == ATP_STATUS_RESPONDED ||
         status == ATP_STATUS_EXPIRED ||
         status == ATP_STATUS_INVALIDATED;
}

/**
 * atp_status_is_pending:
 * @status: an #AtpStatus
 *
 * Returns: %TRUE for created, delivered and acknowledged
 */
gboolean
atp_status_is_pending (AtpStatus status)
{
  return status == ATP_STATUS_CREATED ||
         status == ATP_STATUS_DELIVERED ||
         status == ATP_STATUS_ACKNOWLEDGED;
}

/**
 * atp_flag_to_string:
 * @flag: exactly one #AtpFlags bit
 *
 * Returns: (transfer none) (nullable): its wire name, %NULL if @flag is not one known bit
 */
const char *
atp_flag_to_string (AtpFlags flag)
{
  for (guint i = 0; i < G_N_ELEMENTS (flag_names); i++)
    {
      if (flag_names[i].flag == flag)
        return flag_names[i].name;
    }

  return NULL;
}

/**
 * atp_flag_from_string:
 * @str: (nullable): a wire name
 *
 * Returns: the flag bit, %ATP_FLAG_NONE for an unknown name
 */
AtpFlags
atp_flag_from_string (const char *str)
{
  if (str == NULL)
    return ATP_FLAG_NONE;

  for (guint i = 0; i < G_N_ELEMENTS (flag_names); i++)
    {
      if (strcmp (str, flag_names[i].name) == 0)
        return flag_names[i].flag;
    }

  return ATP_FLAG_NONE;
}

/**
 * atp_responder_type_to_string:
 * @type: an #AtpResponderType
 *
 * Returns: (transfer none): "human" or "agent", %NULL if out of range
 */
const char *
atp_responder_type_to_string (AtpResponderType type)
{
  if ((guint) type >= G_N_ELEMENTS (responder_type_names))
    return NULL;
  return responder_type_names[type];
}

/**
 * atp_responder_type_from_string:
 * @str: (nullable): a wire name
 * @type: (out) (optional): the responder type
 *
 * Returns: %TRUE if @str is "human" or "agent"
 */
gboolean
atp_responder_type_from_string (const char       *str,
                                AtpResponderType *type)
{
  if (str == NULL)
    return FALSE;

  for (guint i = 0; i < G_N_ELEMENTS (responder_type_names); i++)
    {
      if (strcmp (str, responder_type_names[i]) == 0)
        {
          if (type != NULL)
            *type = (AtpResponderType) i;
          return TRUE;
        }
    }

  return FALSE;
}
