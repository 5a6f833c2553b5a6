/* triage-response-editor-private.h — the editor's parts, shared by its files and the tests
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "triage-choice-option-list.h"
#include "triage-response-editor.h"
#include "triage-wrap-box.h"

G_BEGIN_DECLS

/*
 * TriageResponseEditor spans these files:
 *
 *   triage-response-editor.c          the object, the answer its control holds
 *                                     (checked with libatp on every change) and its API
 *   triage-response-editor-a11y.c     what a screen reader hears of the control: its
 *                                     description, set only when what it says changes
 *   triage-response-editor-controls.c the controls: buttons, options, drop-down, text
 *                                     (and their getters for the tests), their names
 *   triage-response-editor-number.c   the number field and the slider
 *   triage-response-editor-list.c     a long multi_choice's options: a list view over a
 *                                     model of them, and its search
 *   triage-response-editor-draft.c    what the person entered, kept aside and put back
 */

struct _TriageResponseEditor
{
  AdwBin            parent_instance;

  AtpNotification  *notification;
  const AtpAction  *action;
  gboolean          editable;
  gboolean          valid;
  gboolean          chosen;
  char             *reason;
  char             *problem;        /* the reason without what changes at each key */
  char             *description;    /* the control's accessible description, as set */

  GtkWidget        *input;
  char             *input_hint;     /* what the input asks: its accessible description */
  GPtrArray        *option_buttons; /* a few options' check buttons, in order */
  TriageChoiceOptionList *option_list; /* multi_choice of many options */
  GtkCustomFilter  *option_list_filter;
  char             *option_query;   /* what its search shows, folded; NULL for all */
  GtkWidget        *option_filter;  /* its search */
  GtkWidget        *option_filter_empty;
  GtkWidget        *submit_button;
  GtkWidget        *true_button;
  GtkWidget        *false_button;
  GtkWidget        *answer_buttons; /* binary: the group of its two buttons */
  GtkWidget        *counter_label;
  GtkWidget        *placeholder_label;
  GtkWidget        *scale_spin;
  GtkTextBuffer    *buffer;
  GtkAdjustment    *adjustment;

  /* number: a value was typed or stepped to; scale: the slider was moved */
  gboolean          has_value;
  int               digits;       /* number: decimals shown, -1 for as many as needed */
  double            grid_base;
  double            grid_top;     /* scale: the highest value on the grid */

  /* template */
  GtkWidget        *header;
  GtkLabel         *title_label;
  TriageWrapBox    *badges;
  GtkWidget        *chosen_marker;
  GtkLabel         *chosen_label;
  GtkBox           *input_box;
  GtkLabel         *reason_label;
  GtkBox           *button_box;
};

/* triage-response-editor.c */
void       _triage_response_editor_update          (TriageResponseEditor *self);
void       _triage_response_editor_emit_submit     (TriageResponseEditor *self,
                                                    JsonNode             *data);
void       _triage_response_editor_sync_header     (TriageResponseEditor *self);

/* triage-response-editor-controls.c */
void       _triage_response_editor_build           (TriageResponseEditor *self);
void       _triage_response_editor_show_answer     (TriageResponseEditor *self,
                                                    JsonNode             *response_data);
void       _triage_response_editor_label_input     (TriageResponseEditor *self,
                                                    GtkWidget            *widget);
void       _triage_response_editor_add_send_button (TriageResponseEditor *self);
GtkWidget *_triage_response_editor_new_option_button (gboolean             radio);
void       _triage_response_editor_set_option_label (GtkWidget            *button,
                                                    const char           *text);
GtkWidget *_triage_response_editor_add_counter     (TriageResponseEditor *self);

/* triage-response-editor-a11y.c */
char      *_triage_response_editor_describe_problem (TriageResponseEditor *self,
                                                     const GError         *error,
                                                     const char           *reason);
void       _triage_response_editor_sync_description (TriageResponseEditor *self);

/* triage-response-editor-number.c */
gboolean   _triage_response_parse_number           (const char           *text,
                                                    double               *value);
gboolean   _triage_response_text_is_blank          (const char           *text);
gboolean   _triage_response_number_is_ambiguous    (const char           *text);
void       _triage_response_editor_build_number    (TriageResponseEditor *self);
void       _triage_response_editor_build_scale     (TriageResponseEditor *self);
void       _triage_response_editor_show_number     (TriageResponseEditor *self,
                                                    double                value);

/* triage-response-editor-list.c */
void       _triage_response_editor_build_option_list (TriageResponseEditor *self);
gboolean   _triage_response_editor_get_option_active (TriageResponseEditor *self,
                                                      guint                 position);
void       _triage_response_editor_set_option_active (TriageResponseEditor *self,
                                                      guint                 position,
                                                      gboolean              active);
void       _triage_response_editor_foreach_option_button (TriageResponseEditor *self,
                                                          GFunc                 func,
                                                          gpointer              user_data);

/* For the tests */

/* The input: GtkTextView, GtkSpinButton, GtkScale, GtkDropDown, the GtkBox
 * holding the radio/check buttons, or a long multi_choice's GtkListView;
 * NULL for simple and binary. */
GtkWidget *triage_response_editor_get_input          (TriageResponseEditor *self);
/* The radio or check buttons of a choice/multi_choice, in option order
 * (none for a long multi_choice: its options are self->option_list). */
GPtrArray *triage_response_editor_get_option_buttons (TriageResponseEditor *self);
/* The button that sends (simple: the only button; binary: NULL). */
GtkWidget *triage_response_editor_get_submit_button  (TriageResponseEditor *self);
GtkWidget *triage_response_editor_get_true_button    (TriageResponseEditor *self);
GtkWidget *triage_response_editor_get_false_button   (TriageResponseEditor *self);
GtkWidget *triage_response_editor_get_counter_label  (TriageResponseEditor *self);
GtkWidget *triage_response_editor_get_reason_label   (TriageResponseEditor *self);
GtkWidget *triage_response_editor_get_placeholder_label (TriageResponseEditor *self);
GtkWidget *triage_response_editor_get_badges         (TriageResponseEditor *self);

G_END_DECLS
