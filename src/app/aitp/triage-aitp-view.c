/* triage-aitp-view.c
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "triage-aitp"

#include <glib/gi18n.h>

#include "triage-aitp-view-private.h"
#include "triage-decision-format.h"
#include "triage-send-shortcut.h"
#include "triage-status-page-a11y.h"
#include "triage-whole-text.h"
#include "triage-widgets-style.h"
#include "triage-wrap-box.h"

/*
 * The window's view of an AITP-02 decision (TriageRequestView): the banner
 * and the header every request view has (who asks, what, by when), the
 * request's pictures behind a "Show Images from <host>" button per host, and
 * the options as the decision's type asks (triage-aitp-view-options.c).
 *
 * An answer is checked by libatp as the server checks it before it leaves
 * through ::submit (action "decision", the `decision` object as data); an
 * agent that sent `x-triage.confirm` gets the confirmation dialog an ATP
 * `requires_confirmation` action gets. From then on, as when the request is
 * settled while open or its deadline passes, the view is read-only: what was
 * chosen stays in sight, insensitive, and the banner says why.
 *
 * Everything the agent sent is untrusted: names, descriptions and prices are
 * plain text, product links open only on a click, pictures load only when
 * asked for (https only), and hosts are remembered only when the person
 * says so (the `image-hosts` setting).
 */

static void triage_aitp_view_request_view_init (TriageRequestViewInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (TriageAitpView, triage_aitp_view, ADW_TYPE_BIN,
                               G_IMPLEMENT_INTERFACE (TRIAGE_TYPE_REQUEST_VIEW,
                                                      triage_aitp_view_request_view_init))

enum {
  PROP_0,
  PROP_SETTINGS,
  PROP_STORE,
  N_PROPS
};

static GParamSpec *properties [N_PROPS];

/* State */

/* @widget's accessible name: @label without its mnemonic's underscores. */
static void
accessible_label_from_mnemonic (GtkWidget  *widget,
                                const char *label)
{
  g_autoptr(GString) name = g_string_new (NULL);

  for (const char *c = label; *c != '\0'; c++)
    {
      if (*c == '_' && c[1] != '\0')
        c++;
      g_string_append_c (name, *c);
    }
  gtk_accessible_update_property (GTK_ACCESSIBLE (widget), GTK_ACCESSIBLE_PROPERTY_LABEL, name->str, -1);
}

/* Why the answer cannot be sent yet, as the ATP editors say it beside their
 * Send button; %NULL once it can. */
static char *
dup_reason (TriageAitpView *self,
            guint           n_chosen)
{
  if (_triage_aitp_view_can_send (self))
    return NULL;

  switch ((int) self->request->type)
    {
    case ATP_AITP_DECISION_RADIO:
      return g_strdup (_("Choose an option"));
    case ATP_AITP_DECISION_PRODUCTS:
      /* Translators: no product chosen yet, and why Send is disabled */
      return g_strdup (_("No product chosen, at least 1 required."));
    default:
      /* Translators: %u options checked (0), and why Send is disabled */
      return g_strdup_printf (_("%u selected, at least 1 required."), n_chosen);
    }
}

/* The line beside Send: how many are chosen, or why it cannot be sent yet
 * (also Send's tooltip and description, as an ATP editor's). */
static void
update_summary (TriageAitpView *self,
                gboolean        read_only)
{
  g_autoptr(GArray) choices = NULL;
  g_autofree char *text = NULL;
  g_autofree char *reason = NULL;

  if (self->request == NULL || self->request->type == ATP_AITP_DECISION_CONFIRMATION)
    {
      gtk_label_set_label (self->summary_label, "");
      return;
    }

  choices = _triage_aitp_view_dup_choices (self);
  reason = read_only ? NULL : dup_reason (self, choices->len);
  if (reason != NULL)
    text = g_strdup (reason);
  else if (self->request->type == ATP_AITP_DECISION_RADIO)
    text = g_strdup ("");
  else if (self->request->type == ATP_AITP_DECISION_PRODUCTS)
    /* Translators: how many products are chosen */
    text = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u product chosen", "%u products chosen",
                                         choices->len), choices->len);
  else
    /* Translators: how many options are checked */
    text = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u selected", "%u selected", choices->len),
                            choices->len);
  gtk_label_set_label (self->summary_label, text);
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->send_button), reason != NULL ? reason : _("Send (Ctrl+Return)"));
  gtk_accessible_update_property (GTK_ACCESSIBLE (self->send_button),
                                  GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, reason != NULL ? reason : "",
                                  -1);
}

static void
cancel_confirmation (TriageAitpView *self)
{
  if (self->confirm_cancellable != NULL)
    g_cancellable_cancel (self->confirm_cancellable);
  g_clear_object (&self->confirm_cancellable);
  self->confirm_dialog = NULL;
}

void
_triage_aitp_view_update_state (TriageAitpView *self)
{
  gboolean focus_within = triage_request_banner_focus_within (GTK_WIDGET (self));
  gboolean read_only = triage_request_view_show_state (TRIAGE_REQUEST_VIEW (self), self->banner,
                                                       self->header,
                                                       triage_aitp_protocol_get_default ());

  if (self->request != NULL)
    _triage_aitp_view_set_editable (self, !read_only);
  /* Answered here or settled: nothing is left to come back to. */
  triage_draft_keeper_set_read_only (self->drafts, read_only);
  update_summary (self, read_only);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "aitp.send",
                                 !read_only && _triage_aitp_view_can_send (self));
  if (read_only)
    {
      cancel_confirmation (self);
      triage_request_banner_keep_focus (self->banner, GTK_WIDGET (self), focus_within);
    }

  self->read_only = read_only;
}

static void
on_deadline_passed (TriageAitpView *self)
{
  _triage_aitp_view_update_state (self);
}

static void
on_whole_text_clicked (TriageAitpView *self)
{
  g_autofree char *text = NULL;

  if (self->notification == NULL || self->request == NULL)
    return;
  text = _triage_aitp_view_dup_whole_text (self);
  triage_whole_text_show_text (GTK_WIDGET (self), text, self->notification->service.name);
}

/* Pictures */

static void
on_image_loaded (TriageAitpView *self,
                 const char     *url,
                 GdkPaintable   *image)
{
  _triage_aitp_view_take_picture (self, url, image, NULL);
}

static void
on_image_failed (TriageAitpView *self,
                 const char     *url,
                 const char     *message)
{
  _triage_aitp_view_take_picture (self, url, NULL, message);
}

static gboolean
host_remembered (TriageAitpView *self,
                 const char     *host)
{
  g_auto(GStrv) hosts = self->settings ? g_settings_get_strv (self->settings, "image-hosts") : NULL;

  return hosts != NULL && g_strv_contains ((const char * const *) hosts, host);
}

static void
remember_host (TriageAitpView *self,
               const char     *host)
{
  g_auto(GStrv) hosts = NULL;
  g_autoptr(GStrvBuilder) builder = g_strv_builder_new ();
  g_auto(GStrv) remembered = NULL;

  if (self->settings == NULL || host_remembered (self, host))
    return;

  hosts = g_settings_get_strv (self->settings, "image-hosts");
  g_strv_builder_addv (builder, (const char **) hosts);
  g_strv_builder_add (builder, host);
  remembered = g_strv_builder_end (builder);
  g_settings_set_strv (self->settings, "image-hosts", (const char * const *) remembered);
}

static void
on_show_images_clicked (TriageAitpView *self,
                        GtkButton      *button)
{
  const char *host = g_object_get_data (G_OBJECT (button), "triage-host");
  GtkCheckButton *always = g_object_get_data (G_OBJECT (button), "triage-always");
  GtkWidget *row = gtk_widget_get_parent (GTK_WIDGET (button));

  if (gtk_check_button_get_active (always))
    remember_host (self, host);
  triage_aitp_images_show (self->images, host);

  /* Asked once: the offer goes. */
  gtk_box_remove (self->images_box, row);
}

/* A row per host: pictures are not fetched until the person asks; a host is
 * remembered only if they say so. */
static void
build_image_offers (TriageAitpView *self)
{
  g_auto(GStrv) hosts = triage_aitp_images_dup_hosts (self->images);
  GtkWidget *child;

  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self->images_box))) != NULL)
    gtk_box_remove (self->images_box, child);

  for (guint i = 0; hosts[i] != NULL; i++)
    {
      g_autofree char *text = NULL;
      g_autofree char *show = NULL;
      g_autofree char *host = triage_format_shown_text (hosts[i], TRIAGE_SHOWN_NAME_CHARS);
      GtkWidget *row, *label, *button, *always;

      if (host_remembered (self, hosts[i]))
        {
          triage_aitp_images_show (self->images, hosts[i]);
          continue;
        }

      row = triage_wrap_box_new ();
      gtk_widget_add_css_class (row, "aitp-image-offer");
      /* Translators: %s is a host name; the request's pictures are on it */
      text = g_strdup_printf (_("Pictures from %s are not shown: loading them tells the site you opened this request."),
                              host);
      label = gtk_label_new (text);
      gtk_label_set_wrap (GTK_LABEL (label), TRUE);
      gtk_label_set_xalign (GTK_LABEL (label), 0);
      gtk_widget_add_css_class (label, "dim-label");

      /* Translators: %s is a host name */
      show = g_strdup_printf (_("Show Images from %s"), host);
      button = gtk_button_new_with_label (show);
      /* A long host name wraps rather than widen the view past 360 px. */
      gtk_label_set_wrap (GTK_LABEL (gtk_button_get_child (GTK_BUTTON (button))), TRUE);
      gtk_label_set_wrap_mode (GTK_LABEL (gtk_button_get_child (GTK_BUTTON (button))), PANGO_WRAP_WORD_CHAR);
      always = gtk_check_button_new_with_mnemonic (_("_Always for this site"));
      /* GTK 4.8 would read the mnemonic's underscore out: the name as it reads. */
      accessible_label_from_mnemonic (always, gtk_check_button_get_label (GTK_CHECK_BUTTON (always)));
      g_object_set_data_full (G_OBJECT (button), "triage-host", g_strdup (hosts[i]), g_free);
      g_object_set_data (G_OBJECT (button), "triage-always", always);
      g_signal_connect_object (button, "clicked", G_CALLBACK (on_show_images_clicked), self,
                               G_CONNECT_SWAPPED);

      triage_wrap_box_append (TRIAGE_WRAP_BOX (row), label);
      triage_wrap_box_append (TRIAGE_WRAP_BOX (row), button);
      triage_wrap_box_append (TRIAGE_WRAP_BOX (row), always);
      gtk_box_append (self->images_box, row);
    }
}

/* Answers */

typedef struct
{
  TriageAitpView *self;
  JsonNode       *response_data;
} PendingAnswer;

static void
pending_answer_free (PendingAnswer *pending)
{
  g_object_unref (pending->self);
  json_node_unref (pending->response_data);
  g_free (pending);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (PendingAnswer, pending_answer_free)

static void
send_answer (TriageAitpView *self,
             JsonNode       *response_data)
{
  triage_request_view_submit_answer (TRIAGE_REQUEST_VIEW (self), ATP_AITP_ACTION_ID, response_data);
}

static void
confirm_cb (GObject      *object,
            GAsyncResult *result,
            gpointer      user_data)
{
  g_autoptr(PendingAnswer) pending = user_data;
  TriageAitpView *self = pending->self;
  g_autoptr(GError) error = NULL;
  gboolean confirmed;

  confirmed = triage_confirm_dialog_run_finish (TRIAGE_CONFIRM_DIALOG (object), result, &error);

  if (self->confirm_dialog == TRIAGE_CONFIRM_DIALOG (object))
    self->confirm_dialog = NULL;

  /* Cancelled: the request changed or turned read-only meanwhile. */
  if (error != NULL)
    return;

  g_clear_object (&self->confirm_cancellable);
  if (confirmed && !self->read_only)
    send_answer (self, pending->response_data);
}

/**
 * _triage_aitp_view_answer:
 * @self: a #TriageAitpView
 * @choices: (element-type TriageAitpChoice): what the person chose
 * @confirm_label: what the confirmation's button says, if the agent asks for one
 *
 * Checks the answer as the server will, asks for the confirmation the agent
 * asked for, and sends it; an invalid answer stays here with the reason.
 */
void
_triage_aitp_view_answer (TriageAitpView *self,
                          GArray         *choices,
                          const char     *confirm_label)
{
  g_autoptr(JsonNode) data = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *answer = NULL;
  g_autofree char *body = NULL;
  PendingAnswer *pending;
  GtkRoot *root;

  if (self->read_only || self->request == NULL || self->confirm_dialog != NULL)
    return;

  data = triage_aitp_response_data_new (self->request, (TriageAitpChoice *) (gpointer) choices->data,
                                        choices->len);
  if (!triage_protocol_validate_answer (triage_aitp_protocol_get_default (), self->notification,
                                        ATP_AITP_ACTION_ID, data, &error))
    {
      triage_request_view_show_answer_error (TRIAGE_REQUEST_VIEW (self), error->message);
      return;
    }

  if (!self->request->confirm)
    {
      send_answer (self, data);
      return;
    }

  answer = triage_protocol_describe_answer (triage_aitp_protocol_get_default (), self->notification,
                                            ATP_AITP_ACTION_ID, data);
  /* Translators: %1$s is a service's name, %2$s the answer about to be sent */
  body = g_strdup_printf (_("Your answer will be sent to %1$s: %2$s"),
                          self->notification->service.name, answer);
  root = gtk_widget_get_root (GTK_WIDGET (self));
  self->confirm_dialog = triage_confirm_dialog_new_full (GTK_IS_WINDOW (root) ? GTK_WINDOW (root) : NULL,
                                                         self->notification->context.title, body,
                                                         confirm_label);
  triage_confirm_dialog_set_grace_period (self->confirm_dialog, self->confirm_grace_period);

  pending = g_new0 (PendingAnswer, 1);
  pending->self = g_object_ref (self);
  pending->response_data = g_steal_pointer (&data);
  self->confirm_cancellable = g_cancellable_new ();
  triage_confirm_dialog_run_async (self->confirm_dialog, self->confirm_cancellable, confirm_cb, pending);
}

static void
send_action (GtkWidget  *widget,
             const char *action_name,
             GVariant   *parameter)
{
  TriageAitpView *self = TRIAGE_AITP_VIEW (widget);
  g_autoptr(GArray) choices = NULL;

  if (!_triage_aitp_view_can_send (self))
    return;

  choices = _triage_aitp_view_dup_choices (self);
  _triage_aitp_view_answer (self, choices, _("Send"));
}

/* TriageRequestView */

static AtpNotification *
triage_aitp_view_get_request (TriageRequestView *view)
{
  return TRIAGE_AITP_VIEW (view)->notification;
}

static void
reset (TriageAitpView *self)
{
  cancel_confirmation (self);
  triage_request_state_clear (&self->state);
  g_clear_pointer (&self->request, atp_aitp_request_unref);
  _triage_aitp_view_clear_options (self);
  gtk_widget_set_visible (self->whole_text_button, FALSE);
  triage_aitp_images_set_request (self->images, NULL);
}

static void
triage_aitp_view_set_request (TriageRequestView *view,
                              AtpNotification   *notification)
{
  TriageAitpView *self = TRIAGE_AITP_VIEW (view);
  g_autoptr(GError) error = NULL;
  g_autofree char *request_id = NULL;
  g_autofree char *decision_id = NULL;
  gboolean same;

  same = triage_request_view_keep_request (&self->notification, notification);

  /* A resync of the same request keeps what the person chose. */
  if (same && self->request != NULL)
    {
      triage_request_header_set_request (self->header, notification);
      gtk_stack_set_visible_child_name (self->stack, "decision");
      return;
    }

  /* What was chosen for the request left waits for its return. */
  triage_draft_keeper_leave (self->drafts);
  reset (self);
  triage_request_header_set_request (self->header, notification);
  if (notification == NULL)
    {
      _triage_aitp_view_update_state (self);
      gtk_stack_set_visible_child_name (self->stack, "empty");
      return;
    }

  self->state.status = notification->status;
  self->request = triage_aitp_request_from (notification, &error);
  if (self->request == NULL)
    {
      triage_request_view_show_unreadable (self->stack, self->error_page, error);
      return;
    }

  g_clear_pointer (&self->built_at, g_date_time_unref);
  self->built_at = g_date_time_new_now_utc ();
  _triage_aitp_view_build_options (self);
  gtk_widget_set_visible (self->whole_text_button,
                          triage_whole_text_is_cut (notification) || _triage_aitp_view_options_are_cut (self));
  triage_aitp_images_set_request (self->images, self->request);
  build_image_offers (self);

  /* Translators: %s is the request's id (a UUID), for quoting it */
  decision_id = triage_format_shown_text (self->request->id, TRIAGE_SHOWN_VALUE_CHARS);
  request_id = g_strdup_printf (_("Request %s · AITP decision %s"), notification->id, decision_id);
  gtk_label_set_label (self->id_label, request_id);

  _triage_aitp_view_update_state (self);
  triage_draft_keeper_show (self->drafts, notification->id);
  gtk_adjustment_set_value (gtk_scrolled_window_get_vadjustment (self->scroller), 0);
  gtk_stack_set_visible_child_name (self->stack, "decision");
}

static gboolean
triage_aitp_view_focus_heading (TriageRequestView *view)
{
  TriageAitpView *self = TRIAGE_AITP_VIEW (view);

  if (self->request != NULL && triage_request_header_take_focus (self->header))
    return TRUE;

  gtk_widget_child_focus (GTK_WIDGET (self), GTK_DIR_TAB_FORWARD);
  return FALSE;
}

static TriageRequestState *
triage_aitp_view_get_state (TriageRequestView *view)
{
  return &TRIAGE_AITP_VIEW (view)->state;
}

/* An answer given (here, read back, or elsewhere) shown as chosen. */
static void
triage_aitp_view_show_answer (TriageRequestView *view,
                              const char        *action_id,
                              JsonNode          *response_data)
{
  _triage_aitp_view_show_answer (TRIAGE_AITP_VIEW (view), response_data);
}

/* The rest of TriageRequestView is its default implementation, on self->state. */
static void
triage_aitp_view_request_view_init (TriageRequestViewInterface *iface)
{
  iface->get_request = triage_aitp_view_get_request;
  iface->set_request = triage_aitp_view_set_request;
  iface->focus_heading = triage_aitp_view_focus_heading;
  iface->get_state = triage_aitp_view_get_state;
  iface->update_state = (gpointer) _triage_aitp_view_update_state;
  iface->show_answer = triage_aitp_view_show_answer;
  iface->get_drafts = _triage_aitp_view_get_drafts;
}

/* GObject */

static void
triage_aitp_view_dispose (GObject *object)
{
  TriageAitpView *self = (TriageAitpView *)object;

  /* The window closes or the app quits: a draft waiting to be written is. */
  triage_draft_keeper_close (self->drafts);
  cancel_confirmation (self);
  if (self->images != NULL)
    g_signal_handlers_disconnect_by_data (self->images, self);
  g_clear_object (&self->images);
  adw_bin_set_child (ADW_BIN (self), NULL);
  gtk_widget_dispose_template (GTK_WIDGET (self), TRIAGE_TYPE_AITP_VIEW);

  G_OBJECT_CLASS (triage_aitp_view_parent_class)->dispose (object);
}

static void
triage_aitp_view_finalize (GObject *object)
{
  TriageAitpView *self = (TriageAitpView *)object;

  g_clear_pointer (&self->notification, atp_notification_unref);
  g_clear_pointer (&self->request, atp_aitp_request_unref);
  g_clear_pointer (&self->built_at, g_date_time_unref);
  g_clear_pointer (&self->option_widgets, g_ptr_array_unref);
  g_clear_pointer (&self->pictures, g_ptr_array_unref);
  g_clear_object (&self->settings);
  g_clear_object (&self->drafts);
  triage_request_state_clear (&self->state);

  G_OBJECT_CLASS (triage_aitp_view_parent_class)->finalize (object);
}

static void
triage_aitp_view_get_property (GObject    *object,
                               guint       prop_id,
                               GValue     *value,
                               GParamSpec *pspec)
{
  TriageAitpView *self = TRIAGE_AITP_VIEW (object);

  switch (prop_id)
    {
    case PROP_SETTINGS:
      g_value_set_object (value, self->settings);
      break;

    case PROP_STORE:
      g_value_set_object (value, triage_draft_keeper_get_store (self->drafts));
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
triage_aitp_view_set_property (GObject      *object,
                               guint         prop_id,
                               const GValue *value,
                               GParamSpec   *pspec)
{
  TriageAitpView *self = TRIAGE_AITP_VIEW (object);

  switch (prop_id)
    {
    case PROP_SETTINGS:
      g_set_object (&self->settings, g_value_get_object (value));
      break;

    case PROP_STORE:
      if (triage_draft_keeper_set_store (self->drafts, g_value_get_object (value)))
        g_object_notify_by_pspec (object, pspec);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
triage_aitp_view_class_init (TriageAitpViewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = triage_aitp_view_dispose;
  object_class->finalize = triage_aitp_view_finalize;
  object_class->get_property = triage_aitp_view_get_property;
  object_class->set_property = triage_aitp_view_set_property;

  /**
   * TriageAitpView:settings:
   *
   * The app's settings, for the hosts whose pictures are always shown
   * (`image-hosts`); without them no host is remembered.
   */
  properties [PROP_SETTINGS] =
    g_param_spec_object ("settings", NULL, NULL, G_TYPE_SETTINGS,
                         (G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS));

  /**
   * TriageAitpView:store:
   *
   * The app's store, where drafts (what is chosen and was not sent) are kept
   * over a quit or a crash; without one they are kept in memory only.
   */
  properties [PROP_STORE] =
    g_param_spec_object ("store", NULL, NULL, TRIAGE_TYPE_STORE,
                         (G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));
  g_object_class_install_properties (object_class, N_PROPS, properties);

  g_type_ensure (TRIAGE_TYPE_REQUEST_BANNER);
  g_type_ensure (TRIAGE_TYPE_REQUEST_HEADER);

  gtk_widget_class_set_template_from_resource (widget_class, RESOURCE_BASE "/aitp/triage-aitp-view.ui");
  gtk_widget_class_bind_template_child (widget_class, TriageAitpView, stack);
  gtk_widget_class_bind_template_child (widget_class, TriageAitpView, error_page);
  gtk_widget_class_bind_template_child (widget_class, TriageAitpView, banner);
  gtk_widget_class_bind_template_child (widget_class, TriageAitpView, scroller);
  gtk_widget_class_bind_template_child (widget_class, TriageAitpView, header);
  gtk_widget_class_bind_template_child (widget_class, TriageAitpView, whole_text_button);
  gtk_widget_class_bind_template_child (widget_class, TriageAitpView, images_box);
  gtk_widget_class_bind_template_child (widget_class, TriageAitpView, answer_box);
  gtk_widget_class_bind_template_child (widget_class, TriageAitpView, answer_heading);
  gtk_widget_class_bind_template_child (widget_class, TriageAitpView, options_box);
  gtk_widget_class_bind_template_child (widget_class, TriageAitpView, send_row);
  gtk_widget_class_bind_template_child (widget_class, TriageAitpView, summary_label);
  gtk_widget_class_bind_template_child (widget_class, TriageAitpView, send_button);
  gtk_widget_class_bind_template_child (widget_class, TriageAitpView, id_label);
  gtk_widget_class_bind_template_callback (widget_class, on_deadline_passed);
  gtk_widget_class_bind_template_callback (widget_class, on_whole_text_clicked);

  /* Send, also Ctrl+Return from the options (triage_aitp_view_init ()). */
  gtk_widget_class_install_action (widget_class, "aitp.send", NULL, send_action);
}

static void
triage_aitp_view_init (TriageAitpView *self)
{
  triage_widgets_style_init ();
  triage_widgets_style_add (RESOURCE_BASE "/aitp/style.css");
  gtk_widget_init_template (GTK_WIDGET (self));
  /* Said as it reads when it takes the keyboard (nothing else on it can). */
  triage_status_page_name_scroller (self->error_page);
  /* The button is labelled by its label too, which GTK 4.8 adds to the name
   * the template gives it ("Send Send"): one name, as it reads. */
  gtk_accessible_reset_relation (GTK_ACCESSIBLE (self->send_button),
                                 GTK_ACCESSIBLE_RELATION_LABELLED_BY);
  /* Ctrl+Return sends from the answer, never from the heading a request
   * opens at (triage-send-shortcut.c). */
  triage_send_shortcut_attach (self->answer_box, gtk_named_action_new ("aitp.send"));

  self->drafts = _triage_aitp_view_new_drafts (self);
  self->option_widgets = g_ptr_array_new ();
  self->pictures = g_ptr_array_new ();
  self->confirm_grace_period = TRIAGE_CONFIRM_DEFAULT_GRACE_PERIOD;
  self->images = triage_aitp_images_new ();
  g_signal_connect_object (self->images, "loaded", G_CALLBACK (on_image_loaded), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->images, "failed", G_CALLBACK (on_image_failed), self, G_CONNECT_SWAPPED);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "aitp.send", FALSE);
  gtk_stack_set_visible_child_name (self->stack, "empty");
}

/**
 * triage_aitp_view_new:
 *
 * Returns: (transfer floating): a new, empty view of AITP decisions
 */
GtkWidget *
triage_aitp_view_new (void)
{
  return g_object_new (TRIAGE_TYPE_AITP_VIEW, NULL);
}

/**
 * triage_aitp_view_get_read_only:
 *
 * Returns: whether the request can no longer be answered here
 */
gboolean
triage_aitp_view_get_read_only (TriageAitpView *self)
{
  g_return_val_if_fail (TRIAGE_IS_AITP_VIEW (self), FALSE);

  return self->read_only;
}

guint
triage_aitp_view_get_confirm_grace_period (TriageAitpView *self)
{
  g_return_val_if_fail (TRIAGE_IS_AITP_VIEW (self), 0);

  return self->confirm_grace_period;
}

/**
 * triage_aitp_view_set_confirm_grace_period:
 * @self: a #TriageAitpView
 * @msec: milliseconds after a confirmation dialog appears during which it
 *   cannot be confirmed (tests shorten it)
 */
void
triage_aitp_view_set_confirm_grace_period (TriageAitpView *self,
                                           guint           msec)
{
  g_return_if_fail (TRIAGE_IS_AITP_VIEW (self));

  self->confirm_grace_period = msec;
}

/**
 * triage_aitp_view_set_image_session:
 * @self: a #TriageAitpView
 * @session: (nullable): the session pictures are fetched with
 */
void
triage_aitp_view_set_image_session (TriageAitpView *self,
                                    SoupSession    *session)
{
  g_return_if_fail (TRIAGE_IS_AITP_VIEW (self));

  triage_aitp_images_set_session (self->images, session);
}

AdwComboRow *
triage_aitp_view_get_combo (TriageAitpView *self)
{
  g_return_val_if_fail (TRIAGE_IS_AITP_VIEW (self), NULL);

  return self->combo;
}

TriageConfirmDialog *
triage_aitp_view_get_confirm_dialog (TriageAitpView *self)
{
  g_return_val_if_fail (TRIAGE_IS_AITP_VIEW (self), NULL);

  return self->confirm_dialog;
}

TriageAitpImages *
triage_aitp_view_get_images (TriageAitpView *self)
{
  g_return_val_if_fail (TRIAGE_IS_AITP_VIEW (self), NULL);

  return self->images;
}
