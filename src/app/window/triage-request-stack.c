/* triage-request-stack.c
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "triage-request-stack"

#include <glib/gi18n.h>
#include <string.h>

#include "triage-afp-view.h"
#include "triage-aitp-view.h"
#include "triage-application.h"
#include "triage-decision-view.h"
#include "triage-request-stack.h"
#include "triage-status-page-a11y.h"

/*
 * Where the window shows a request: one view per protocol, made the first
 * time a request of that protocol is shown, the one for the request's
 * protocol visible. The stack is itself a #TriageRequestView: the window
 * talks to it as to any view, and it passes everything on to the view shown
 * (and the view's signals back), so the window knows no protocol.
 *
 * triage_request_stack_view_type() is the one place that lists the views.
 * A request of a protocol this version has no view for shows a page saying
 * so (the server lists only the protocols the app asks for, so this is a
 * request kept from another version).
 *
 * How the views' drafts are written, in any view (a draft is written as
 * another request opens, in the view of another protocol), is told by
 * ::draft-written, for the window to tell the person when they are not.
 */

struct _TriageRequestStack
{
  AdwBin             parent_instance;

  GtkStack          *stack;
  AdwStatusPage     *unsupported;
  GtkWidget         *views[ATP_N_PROTOCOLS];
  TriageRequestView *current;                 /* the view of the request shown, or NULL */
  AtpNotification   *request;
  GObject           *store;                   /* nullable: the app's store, for drafts */
};

static void triage_request_stack_request_view_init (TriageRequestViewInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (TriageRequestStack, triage_request_stack, ADW_TYPE_BIN,
                               G_IMPLEMENT_INTERFACE (TRIAGE_TYPE_REQUEST_VIEW,
                                                      triage_request_stack_request_view_init))

enum {
  DRAFT_WRITTEN,
  N_SIGNALS
};

static guint signals [N_SIGNALS];

/**
 * triage_request_stack_view_type:
 * @protocol: a protocol
 *
 * Returns: the #TriageRequestView that shows requests of @protocol, or
 *   %G_TYPE_INVALID when this version has none
 */
GType
triage_request_stack_view_type (AtpProtocol protocol)
{
  switch (protocol)
    {
    case ATP_PROTOCOL_ATP:
      return TRIAGE_TYPE_DECISION_VIEW;

    case ATP_PROTOCOL_AITP:
      return TRIAGE_TYPE_AITP_VIEW;

    case ATP_PROTOCOL_AFP:
      return TRIAGE_TYPE_AFP_VIEW;

    case ATP_N_PROTOCOLS:
    default:
      return G_TYPE_INVALID;
    }
}

static void
on_view_submit (TriageRequestStack *self,
                const char         *action_id,
                JsonNode           *response_data,
                TriageRequestView  *view)
{
  if (view == self->current)
    triage_request_view_emit_submit (TRIAGE_REQUEST_VIEW (self), action_id, response_data);
}

static void
on_view_attachment_activated (TriageRequestStack *self,
                              guint               index,
                              TriageRequestView  *view)
{
  if (view == self->current)
    triage_request_view_emit_attachment_activated (TRIAGE_REQUEST_VIEW (self), index);
}

static void
on_draft_written (TriageRequestStack *self,
                  const GError       *error)
{
  g_signal_emit (self, signals [DRAFT_WRITTEN], 0, error);
}

static TriageRequestView *
ensure_view (TriageRequestStack *self,
             AtpProtocol         protocol)
{
  GType type = triage_request_stack_view_type (protocol);
  TriageDraftKeeper *drafts;
  GtkWidget *view;

  if (type == G_TYPE_INVALID)
    return NULL;
  if (self->views[protocol] != NULL)
    return TRIAGE_REQUEST_VIEW (self->views[protocol]);

  view = g_object_new (type, "vexpand", TRUE, NULL);
  /* A view that keeps choices in the settings (AITP: sites whose pictures
   * are always shown) gets the app's. */
  if (g_object_class_find_property (G_OBJECT_GET_CLASS (view), "settings") != NULL)
    {
      GSettingsSchemaSource *source = g_settings_schema_source_get_default ();
      g_autoptr(GSettingsSchema) schema =
        source ? g_settings_schema_source_lookup (source, TRIAGE_SETTINGS_SCHEMA, TRUE) : NULL;

      if (schema != NULL)
        {
          g_autoptr(GSettings) settings = g_settings_new_full (schema, NULL, NULL);

          g_object_set (view, "settings", settings, NULL);
        }
    }
  /* A view that keeps drafts (ATP: what the cards hold; AFP: the feedback
   * being written) gets the store. */
  if (g_object_class_find_property (G_OBJECT_GET_CLASS (view), "store") != NULL)
    g_object_set (view, "store", self->store, NULL);
  g_signal_connect_object (view, "submit", G_CALLBACK (on_view_submit), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (view, "attachment-activated",
                          G_CALLBACK (on_view_attachment_activated), self, G_CONNECT_SWAPPED);
  drafts = triage_request_view_get_drafts (TRIAGE_REQUEST_VIEW (view));
  if (drafts != NULL)
    g_signal_connect_object (drafts, "written", G_CALLBACK (on_draft_written), self, G_CONNECT_SWAPPED);
  gtk_stack_page_set_title (gtk_stack_add_named (self->stack, view, atp_protocol_to_string (protocol)),
                            _("Request"));
  self->views[protocol] = view;

  return TRIAGE_REQUEST_VIEW (view);
}

/* TriageRequestView: passed on to the view shown */

static AtpNotification *
triage_request_stack_get_request (TriageRequestView *view)
{
  return TRIAGE_REQUEST_STACK (view)->request;
}

static void
triage_request_stack_set_request (TriageRequestView *view,
                                  AtpNotification   *request)
{
  TriageRequestStack *self = TRIAGE_REQUEST_STACK (view);
  TriageRequestView *next = request ? ensure_view (self, request->protocol) : self->current;

  if (request != self->request)
    {
      g_clear_pointer (&self->request, atp_notification_unref);
      self->request = request ? atp_notification_ref (request) : NULL;
    }

  /* The view of another protocol lets go of its request (and its dialogs). */
  if (self->current != NULL && next != self->current)
    triage_request_view_set_request (self->current, NULL);
  self->current = next;

  if (next != NULL)
    {
      triage_request_view_set_request (next, request);
      gtk_stack_set_visible_child (self->stack, GTK_WIDGET (next));
    }
  else if (request != NULL)
    {
      g_autofree char *text = NULL;

      /* Translators: %s is the name of a protocol, e.g. "afp" */
      text = g_strdup_printf (_("This version of Triage cannot show requests made in %s. "
                                "Answer it with a newer version, or where it was made."),
                              atp_protocol_to_string (request->protocol));
      adw_status_page_set_description (self->unsupported, text);
      gtk_stack_set_visible_child (self->stack, GTK_WIDGET (self->unsupported));
    }
}

static AtpStatus
triage_request_stack_get_status (TriageRequestView *view)
{
  TriageRequestStack *self = TRIAGE_REQUEST_STACK (view);

  if (self->current != NULL)
    return triage_request_view_get_status (self->current);

  return self->request ? self->request->status : ATP_STATUS_CREATED;
}

static void
triage_request_stack_set_status (TriageRequestView *view,
                                 AtpStatus          status,
                                 const char        *reason,
                                 GDateTime         *when,
                                 const char        *detail)
{
  TriageRequestStack *self = TRIAGE_REQUEST_STACK (view);

  if (self->current != NULL)
    triage_request_view_set_status (self->current, status, reason, when, detail);
}

static TriageDeliveryState
triage_request_stack_get_delivery_state (TriageRequestView *view)
{
  TriageRequestStack *self = TRIAGE_REQUEST_STACK (view);

  return self->current ? triage_request_view_get_delivery_state (self->current)
                       : TRIAGE_DELIVERY_NONE;
}

static void
triage_request_stack_set_delivery_state (TriageRequestView   *view,
                                         TriageDeliveryState  state)
{
  TriageRequestStack *self = TRIAGE_REQUEST_STACK (view);

  if (self->current != NULL)
    triage_request_view_set_delivery_state (self->current, state);
}

static void
triage_request_stack_set_sent_answer (TriageRequestView *view,
                                      const char        *action_id,
                                      JsonNode          *response_data)
{
  TriageRequestStack *self = TRIAGE_REQUEST_STACK (view);

  if (self->current != NULL)
    triage_request_view_set_sent_answer (self->current, action_id, response_data);
}

static gboolean
triage_request_stack_focus_heading (TriageRequestView *view)
{
  TriageRequestStack *self = TRIAGE_REQUEST_STACK (view);

  return self->current != NULL && triage_request_view_focus_heading (self->current);
}

static void
triage_request_stack_show_delivery_error (TriageRequestView *view,
                                          const char        *message)
{
  TriageRequestStack *self = TRIAGE_REQUEST_STACK (view);

  if (self->current != NULL)
    triage_request_view_show_delivery_error (self->current, message);
}

static void
triage_request_stack_show_answer_error (TriageRequestView *view,
                                        const char        *message)
{
  TriageRequestStack *self = TRIAGE_REQUEST_STACK (view);

  if (self->current != NULL)
    triage_request_view_show_answer_error (self->current, message);
}

static void
triage_request_stack_set_response (TriageRequestView *view,
                                   AtpResponse       *response)
{
  TriageRequestStack *self = TRIAGE_REQUEST_STACK (view);

  if (self->current != NULL)
    triage_request_view_set_response (self->current, response);
}

static void
triage_request_stack_set_delivery_wait (TriageRequestView *view,
                                        GDateTime         *until)
{
  TriageRequestStack *self = TRIAGE_REQUEST_STACK (view);

  if (self->current != NULL)
    triage_request_view_set_delivery_wait (self->current, until);
}

static void
triage_request_stack_request_view_init (TriageRequestViewInterface *iface)
{
  iface->get_request = triage_request_stack_get_request;
  iface->set_request = triage_request_stack_set_request;
  iface->get_status = triage_request_stack_get_status;
  iface->set_status = triage_request_stack_set_status;
  iface->get_delivery_state = triage_request_stack_get_delivery_state;
  iface->set_delivery_state = triage_request_stack_set_delivery_state;
  iface->set_sent_answer = triage_request_stack_set_sent_answer;
  iface->focus_heading = triage_request_stack_focus_heading;
  iface->show_delivery_error = triage_request_stack_show_delivery_error;
  iface->show_answer_error = triage_request_stack_show_answer_error;
  iface->set_response = triage_request_stack_set_response;
  iface->set_delivery_wait = triage_request_stack_set_delivery_wait;
}

/**
 * triage_request_stack_set_store:
 * @self: a #TriageRequestStack
 * @store: (nullable) (type TriageStore): the app's store, open or opening
 *
 * Where views that keep drafts keep them (ATP's decision view, AFP's
 * feedback editor).
 */
void
triage_request_stack_set_store (TriageRequestStack *self,
                                gpointer            store)
{
  g_return_if_fail (TRIAGE_IS_REQUEST_STACK (self));
  g_return_if_fail (store == NULL || G_IS_OBJECT (store));

  if (!g_set_object (&self->store, store))
    return;

  for (guint i = 0; i < ATP_N_PROTOCOLS; i++)
    if (self->views[i] != NULL &&
        g_object_class_find_property (G_OBJECT_GET_CLASS (self->views[i]), "store") != NULL)
      g_object_set (self->views[i], "store", store, NULL);
}

/* GObject */

static void
triage_request_stack_dispose (GObject *object)
{
  TriageRequestStack *self = (TriageRequestStack *)object;

  self->current = NULL;
  memset (self->views, 0, sizeof self->views);
  adw_bin_set_child (ADW_BIN (self), NULL);
  self->stack = NULL;
  self->unsupported = NULL;

  G_OBJECT_CLASS (triage_request_stack_parent_class)->dispose (object);
}

static void
triage_request_stack_finalize (GObject *object)
{
  TriageRequestStack *self = (TriageRequestStack *)object;

  g_clear_pointer (&self->request, atp_notification_unref);
  g_clear_object (&self->store);

  G_OBJECT_CLASS (triage_request_stack_parent_class)->finalize (object);
}

static void
triage_request_stack_class_init (TriageRequestStackClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = triage_request_stack_dispose;
  object_class->finalize = triage_request_stack_finalize;

  /**
   * TriageRequestStack::draft-written:
   * @self: the stack
   * @error: (nullable): why a view's draft is not on disk, %NULL when it is
   *
   * A view's draft was written to the store, or could not be
   * (#TriageDraftKeeper::written).
   */
  signals [DRAFT_WRITTEN] =
    g_signal_new ("draft-written", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                  G_TYPE_NONE, 1, G_TYPE_ERROR | G_SIGNAL_TYPE_STATIC_SCOPE);
}

static void
triage_request_stack_init (TriageRequestStack *self)
{
  self->stack = GTK_STACK (gtk_stack_new ());
  gtk_stack_set_transition_type (self->stack, GTK_STACK_TRANSITION_TYPE_NONE);
  gtk_widget_set_vexpand (GTK_WIDGET (self->stack), TRUE);

  self->unsupported = ADW_STATUS_PAGE (adw_status_page_new ());
  adw_status_page_set_icon_name (self->unsupported, "dialog-question-symbolic");
  adw_status_page_set_title (self->unsupported, _("Cannot Show This Request"));
  gtk_stack_page_set_title (gtk_stack_add_named (self->stack, GTK_WIDGET (self->unsupported), "unsupported"),
                            _("Cannot Show This Request"));
  triage_status_page_name_scroller (self->unsupported);

  adw_bin_set_child (ADW_BIN (self), GTK_WIDGET (self->stack));

  /* ATP's view is there from the start: most requests are ATP's. */
  gtk_stack_set_visible_child (self->stack, GTK_WIDGET (ensure_view (self, ATP_PROTOCOL_ATP)));
}

/**
 * triage_request_stack_new:
 *
 * Returns: (transfer floating): a new stack of request views
 */
GtkWidget *
triage_request_stack_new (void)
{
  return g_object_new (TRIAGE_TYPE_REQUEST_STACK, NULL);
}

/**
 * triage_request_stack_get_view:
 *
 * Returns: (transfer none) (nullable): the view of the request shown (ATP's
 *   decision view before any request), %NULL when no view can show it
 */
TriageRequestView *
triage_request_stack_get_view (TriageRequestStack *self)
{
  g_return_val_if_fail (TRIAGE_IS_REQUEST_STACK (self), NULL);

  if (self->request == NULL && self->current == NULL)
    return TRIAGE_REQUEST_VIEW (self->views[ATP_PROTOCOL_ATP]);

  return self->current;
}
