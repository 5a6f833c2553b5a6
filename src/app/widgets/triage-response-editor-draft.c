/* triage-response-editor-draft.c — what the person entered, kept aside and put back
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "triage-response-editor"

#include "triage-response-editor-private.h"

/*
 * A draft is what the control holds, valid or not, so that the person finds
 * it again after opening another request: the text as typed (a text answer,
 * or a number field's text, even "12," half typed), otherwise the answer the
 * control holds (the option chosen, the options ticked, the slider's value).
 * Simple and binary actions are answered with a click and hold nothing.
 */

/**
 * triage_response_editor_dup_draft:
 * @self: a #TriageResponseEditor
 *
 * Returns: (transfer full) (nullable): what the person entered, for
 *   triage_response_editor_restore_draft(); %NULL when nothing was
 */
JsonNode *
triage_response_editor_dup_draft (TriageResponseEditor *self)
{
  g_autoptr(JsonNode) answer = NULL;
  g_autofree char *typed = NULL;
  const char *text;
  JsonNode *draft;

  g_return_val_if_fail (TRIAGE_IS_RESPONSE_EDITOR (self), NULL);

  switch (self->action->response_type)
    {
    case ATP_RESPONSE_TYPE_TEXT:
      {
        GtkTextIter start, end;

        if (gtk_text_buffer_get_char_count (self->buffer) == 0)
          return NULL;
        gtk_text_buffer_get_bounds (self->buffer, &start, &end);
        text = typed = gtk_text_buffer_get_text (self->buffer, &start, &end, FALSE);
        break;
      }

    case ATP_RESPONSE_TYPE_NUMBER:
      text = gtk_editable_get_text (GTK_EDITABLE (self->input));
      if (_triage_response_text_is_blank (text))
        return NULL;
      break;

    case ATP_RESPONSE_TYPE_CHOICE:
    case ATP_RESPONSE_TYPE_MULTI_CHOICE:
    case ATP_RESPONSE_TYPE_SCALE:
      answer = triage_response_editor_dup_response (self);
      if (answer != NULL && JSON_NODE_HOLDS_ARRAY (answer) &&
          json_array_get_length (json_node_get_array (answer)) == 0)
        return NULL;
      return g_steal_pointer (&answer);

    case ATP_RESPONSE_TYPE_SIMPLE:
    case ATP_RESPONSE_TYPE_BINARY:
    default:
      return NULL;
    }

  draft = json_node_new (JSON_NODE_VALUE);
  json_node_set_string (draft, text);
  return draft;
}

/**
 * triage_response_editor_restore_draft:
 * @self: a #TriageResponseEditor
 * @draft: what triage_response_editor_dup_draft() returned for the same action
 *
 * Puts a draft back in a control that holds nothing yet: it is checked again
 * as if the person had entered it.
 */
void
triage_response_editor_restore_draft (TriageResponseEditor *self,
                                      JsonNode             *draft)
{
  g_return_if_fail (TRIAGE_IS_RESPONSE_EDITOR (self));
  g_return_if_fail (draft != NULL);

  switch (self->action->response_type)
    {
    case ATP_RESPONSE_TYPE_NUMBER:
      if (JSON_NODE_HOLDS_VALUE (draft) && json_node_get_value_type (draft) == G_TYPE_STRING &&
          _triage_response_text_is_blank (gtk_editable_get_text (GTK_EDITABLE (self->input))))
        gtk_editable_set_text (GTK_EDITABLE (self->input), json_node_get_string (draft));
      break;

    case ATP_RESPONSE_TYPE_TEXT:
    case ATP_RESPONSE_TYPE_CHOICE:
    case ATP_RESPONSE_TYPE_MULTI_CHOICE:
    case ATP_RESPONSE_TYPE_SCALE:
      /* What shows an answer given shows a draft as well: only in an empty control. */
      _triage_response_editor_show_answer (self, draft);
      break;

    case ATP_RESPONSE_TYPE_SIMPLE:
    case ATP_RESPONSE_TYPE_BINARY:
    default:
      break;
    }
}
