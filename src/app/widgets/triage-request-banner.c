/* triage-request-banner.c
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "triage-request-banner"

#include <glib/gi18n.h>

#include "triage-decision-format.h"
#include "triage-decision-outcome.h"
#include "triage-request-banner.h"
#include "triage-widgets-style.h"

/*
 * The banner above a request, for the view of every protocol (ATP's
 * decision view, AITP's, AFP's): a settled status says
 * what happened, when and why (answered elsewhere with what and by whom,
 * expired, withdrawn); an answer given here says where it stands (sending,
 * queued, sent, refused); a deadline passed on the local clock and an answer
 * that could not leave say so too. Each case has its icon and its words,
 * never a colour alone. The banner is a status region: a screen reader
 * reads its title, then the rest.
 *
 * triage_request_banner_update() also says whether the state makes the
 * request read-only, so every view turns read-only on the same rules.
 */

struct _TriageRequestBanner
{
  AdwBin       parent_instance;

  GtkRevealer *revealer;
  GtkWidget   *box;
  GtkImage    *icon;
  GtkSpinner  *spinner;
  GtkLabel    *title;
  GtkLabel    *detail;
};

G_DEFINE_FINAL_TYPE (TriageRequestBanner, triage_request_banner, ADW_TYPE_BIN)

static const char * const banner_styles[] = {
  "banner-neutral", "banner-accent", "banner-success", "banner-warning", "banner-error",
};

static void
join_line (GString    *str,
           const char *line)
{
  if (line == NULL || *line == '\0')
    return;
  if (str->len > 0)
    g_string_append_c (str, '\n');
  g_string_append (str, line);
}

static void
show (TriageRequestBanner *self,
      const char          *style,
      const char          *icon_name,
      const char          *title,
      const char          *detail)
{
  /* What it says holds the service's and the server's words (a label, a
   * reason, an answer): shown as every label shows them, hidden characters
   * made visible and cut. */
  g_autofree char *shown_title = triage_format_shown_text (title, TRIAGE_SHOWN_DESCRIPTION_CHARS);
  g_autofree char *shown_detail = triage_format_shown_text (detail ? detail : "",
                                                            TRIAGE_SHOWN_DESCRIPTION_CHARS);

  for (guint i = 0; i < G_N_ELEMENTS (banner_styles); i++)
    gtk_widget_remove_css_class (self->box, banner_styles[i]);
  gtk_widget_add_css_class (self->box, style);

  gtk_widget_set_visible (GTK_WIDGET (self->icon), icon_name != NULL);
  gtk_widget_set_visible (GTK_WIDGET (self->spinner), icon_name == NULL);
  gtk_spinner_set_spinning (self->spinner, icon_name == NULL);
  if (icon_name != NULL)
    gtk_image_set_from_icon_name (self->icon, icon_name);

  gtk_label_set_label (self->title, shown_title);
  gtk_label_set_label (self->detail, shown_detail);
  gtk_widget_set_visible (GTK_WIDGET (self->detail), *shown_detail != '\0');
  gtk_accessible_update_property (GTK_ACCESSIBLE (self->box),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, shown_title,
                                  GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, shown_detail,
                                  -1);

  gtk_widget_set_visible (self->box, TRUE);
  gtk_revealer_set_reveal_child (self->revealer, TRUE);
}

/* Once slid away, the banner leaves the accessibility tree too. */
static void
on_child_revealed (TriageRequestBanner *self)
{
  if (!gtk_revealer_get_child_revealed (self->revealer) &&
      !gtk_revealer_get_reveal_child (self->revealer))
    gtk_widget_set_visible (self->box, FALSE);
}

static void
hide (TriageRequestBanner *self)
{
  gtk_widget_set_focusable (self->box, FALSE);
  gtk_spinner_set_spinning (self->spinner, FALSE);
  gtk_label_set_label (self->title, "");
  gtk_label_set_label (self->detail, "");
  gtk_revealer_set_reveal_child (self->revealer, FALSE);
}

static void
show_status (TriageRequestBanner     *self,
             const TriageBannerState *state)
{
  g_autofree char *title = NULL;
  g_autoptr(GString) detail = g_string_new (NULL);
  const char *icon_name;

  switch (state->status)
    {
    case ATP_STATUS_RESPONDED:
      icon_name = "object-select-symbolic";
      break;
    case ATP_STATUS_EXPIRED:
      icon_name = "alarm-symbolic";
      break;
    case ATP_STATUS_INVALIDATED:
    default:
      icon_name = "action-unavailable-symbolic";
      break;
    }

  title = triage_describe_settled (state->request, state->status, state->status_when,
                                   state->status == ATP_STATUS_RESPONDED ? state->response : NULL);

  if (state->status_reason != NULL)
    {
      /* Translators: %s is the reason the server gave for a status change */
      g_autofree char *reason = g_strdup_printf (_("Reason: %s"), state->status_reason);

      join_line (detail, reason);
    }
  join_line (detail, state->status_detail);
  join_line (detail, _("The request is read-only now; nothing you entered was sent."));

  show (self, state->status == ATP_STATUS_RESPONDED ? "banner-neutral" : "banner-warning",
        icon_name, title, detail->str);
}

static void
show_delivery (TriageRequestBanner     *self,
               const TriageBannerState *state)
{
  g_autofree char *answer = NULL;
  g_autoptr(GString) detail = g_string_new (NULL);

  if (state->sent_answer != NULL)
    /* Translators: %s is the answer given here, e.g. ‘Stop’ or JBL Tour One M2 × 2 */
    answer = g_strdup_printf (_("You answered %s"), state->sent_answer);

  switch (state->delivery)
    {
    case TRIAGE_DELIVERY_SENDING:
      if (state->delivery_wait != NULL)
        {
          g_autofree char *time = triage_format_time (state->delivery_wait, NULL);
          /* Translators: a server over its limit asked the app to wait
           * (HTTP 429 or 503 with Retry-After); %s is the time it ends, as
           * "14:32" (a date before it if not today) */
          g_autofree char *title = g_strdup_printf (_("The server asked to wait — sending at %s"),
                                                    time);

          join_line (detail, answer);
          join_line (detail, _("It is saved and goes by itself then."));
          show (self, "banner-accent", "alarm-symbolic", title, detail->str);
        }
      else
        show (self, "banner-accent", NULL, _("Sending your answer…"), answer);
      break;

    case TRIAGE_DELIVERY_SENT:
      show (self, "banner-success", "object-select-symbolic", answer ? answer : _("Answer sent"),
            _("Sent: the service has your answer."));
      break;

    case TRIAGE_DELIVERY_QUEUED:
      join_line (detail, answer);
      join_line (detail, _("It is saved and will be sent as soon as the server can be reached."));
      show (self, "banner-warning", "network-offline-symbolic",
            _("Queued, will send when online"), detail->str);
      break;

    case TRIAGE_DELIVERY_FAILED:
      join_line (detail, state->delivery_message);
      join_line (detail, answer);
      show (self, "banner-error", "dialog-error-symbolic",
            _("The answer was not accepted"), detail->str);
      break;

    case TRIAGE_DELIVERY_NONE:
    default:
      g_assert_not_reached ();
    }
}

/**
 * triage_request_banner_update:
 * @self: a #TriageRequestBanner
 * @state: what the view knows of its request
 *
 * Shows the banner @state calls for, or none.
 *
 * Returns: whether the request can no longer be answered here (settled,
 *   answered here, or past its deadline): the view turns read-only
 */
gboolean
triage_request_banner_update (TriageRequestBanner     *self,
                              const TriageBannerState *state)
{
  g_return_val_if_fail (TRIAGE_IS_REQUEST_BANNER (self), FALSE);
  g_return_val_if_fail (state != NULL, FALSE);

  if (state->request == NULL)
    {
      hide (self);
      return FALSE;
    }

  if (atp_status_is_terminal (state->status))
    {
      show_status (self, state);
      return TRUE;
    }

  /* A detail with a status that is not settled: the request left the
   * server's pending set and what became of it is not known (a lookup got
   * 404): said as such, never as an outcome. */
  if (state->status_detail != NULL && state->delivery == TRIAGE_DELIVERY_NONE)
    {
      g_autoptr(GString) detail = g_string_new (state->status_detail);

      gboolean unreadable = g_strcmp0 (state->status_detail,
                                       triage_request_banner_unreadable_detail ()) == 0;

      join_line (detail, _("The request is read-only now; nothing you entered was sent."));
      show (self, "banner-warning", "action-unavailable-symbolic",
            unreadable ? _("No longer readable on the server") : _("No longer on the server"),
            detail->str);
      return TRUE;
    }

  if (state->delivery != TRIAGE_DELIVERY_NONE)
    {
      show_delivery (self, state);
      return TRUE;
    }

  if (state->expired_locally)
    {
      g_autofree char *time = state->request->deadline ? triage_format_time (state->request->deadline, NULL)
                                                       : NULL;
      /* Translators: %s is the time of the deadline */
      g_autofree char *title = g_strdup_printf (_("The deadline passed at %s"), time ? time : "—");

      show (self, "banner-warning", "alarm-symbolic", title,
            _("Answers are no longer accepted; nothing you entered was sent."));
      return TRUE;
    }

  if (state->answer_error != NULL)
    show (self, "banner-error", "dialog-error-symbolic", _("Your answer was not sent"),
          state->answer_error);
  else
    hide (self);

  return FALSE;
}

/**
 * triage_request_banner_update_from:
 * @self: a #TriageRequestBanner
 * @request: (nullable): the request shown
 * @state: what the view keeps of it
 * @sent_answer: (nullable): the answer given here, in its protocol's words
 * @expired_locally: the deadline passed on this computer's clock
 *
 * triage_request_banner_update() for a view that keeps a #TriageRequestState.
 *
 * Returns: whether the view turns read-only
 */
gboolean
triage_request_banner_update_from (TriageRequestBanner      *self,
                                   AtpNotification          *request,
                                   const TriageRequestState *state,
                                   const char               *sent_answer,
                                   gboolean                  expired_locally)
{
  TriageBannerState banner_state = {
    .request = request,
    .status = state->status,
    .status_reason = state->status_reason,
    .status_when = state->status_when,
    .status_detail = state->status_detail,
    .response = state->response,
    .delivery = state->delivery,
    .delivery_message = state->delivery_message,
    .sent_answer = sent_answer,
    .expired_locally = expired_locally,
    .answer_error = state->answer_error,
    .delivery_wait = state->delivery_wait,
  };

  return triage_request_banner_update (self, &banner_state);
}

/**
 * triage_request_banner_get_title:
 *
 * Returns: the banner's title ("" while hidden)
 */
const char *
triage_request_banner_get_title (TriageRequestBanner *self)
{
  g_return_val_if_fail (TRIAGE_IS_REQUEST_BANNER (self), NULL);

  return gtk_label_get_label (self->title);
}

const char *
triage_request_banner_get_detail (TriageRequestBanner *self)
{
  g_return_val_if_fail (TRIAGE_IS_REQUEST_BANNER (self), NULL);

  return gtk_label_get_label (self->detail);
}

gboolean
triage_request_banner_get_shown (TriageRequestBanner *self)
{
  g_return_val_if_fail (TRIAGE_IS_REQUEST_BANNER (self), FALSE);

  return gtk_revealer_get_reveal_child (self->revealer);
}

/* GObject */

static GtkLabel *
banner_label (const char *style)
{
  GtkLabel *label = GTK_LABEL (gtk_label_new (NULL));

  gtk_label_set_use_markup (label, FALSE);
  gtk_label_set_wrap (label, TRUE);
  gtk_label_set_wrap_mode (label, PANGO_WRAP_WORD_CHAR);
  gtk_label_set_xalign (label, 0);
  if (style != NULL)
    gtk_widget_add_css_class (GTK_WIDGET (label), style);

  return label;
}

static void
triage_request_banner_class_init (TriageRequestBannerClass *klass)
{
}

static void
triage_request_banner_init (TriageRequestBanner *self)
{
  GtkWidget *texts;

  triage_widgets_style_init ();

  self->icon = g_object_new (GTK_TYPE_IMAGE,
                             "valign", GTK_ALIGN_START,
                             "accessible-role", GTK_ACCESSIBLE_ROLE_PRESENTATION,
                             NULL);
  self->spinner = GTK_SPINNER (gtk_spinner_new ());
  gtk_widget_set_valign (GTK_WIDGET (self->spinner), GTK_ALIGN_START);
  gtk_widget_set_visible (GTK_WIDGET (self->spinner), FALSE);
  self->title = banner_label ("heading");
  self->detail = banner_label (NULL);

  texts = gtk_box_new (GTK_ORIENTATION_VERTICAL, 3);
  gtk_widget_set_hexpand (texts, TRUE);
  gtk_box_append (GTK_BOX (texts), GTK_WIDGET (self->title));
  gtk_box_append (GTK_BOX (texts), GTK_WIDGET (self->detail));

  self->box = g_object_new (GTK_TYPE_BOX,
                            "spacing", 12,
                            "accessible-role", GTK_ACCESSIBLE_ROLE_STATUS,
                            "css-classes", (const char *[]) { "status-banner", NULL },
                            NULL);
  gtk_box_append (GTK_BOX (self->box), GTK_WIDGET (self->icon));
  gtk_box_append (GTK_BOX (self->box), GTK_WIDGET (self->spinner));
  gtk_box_append (GTK_BOX (self->box), texts);
  /* Not there while hidden: GTK 4.8 named a status without a text by its
   * type ("GtkBox"). */
  gtk_widget_set_visible (self->box, FALSE);

  self->revealer = GTK_REVEALER (gtk_revealer_new ());
  gtk_revealer_set_transition_type (self->revealer, GTK_REVEALER_TRANSITION_TYPE_SLIDE_DOWN);
  gtk_revealer_set_child (self->revealer, self->box);
  g_signal_connect_object (self->revealer, "notify::child-revealed",
                           G_CALLBACK (on_child_revealed), self, G_CONNECT_SWAPPED);
  adw_bin_set_child (ADW_BIN (self), GTK_WIDGET (self->revealer));
}

/**
 * triage_request_banner_take_focus:
 * @self: a #TriageRequestBanner
 *
 * Puts the keyboard on the banner while it is shown, so that a screen
 * reader reads where the request or its answer stands: for a view whose
 * focused control has just turned insensitive (the button an answer was
 * given with), which would leave the keyboard nowhere. It stays in the Tab
 * order until the banner hides.
 *
 * Returns: %TRUE if the banner took the focus
 */
gboolean
triage_request_banner_take_focus (TriageRequestBanner *self)
{
  g_return_val_if_fail (TRIAGE_IS_REQUEST_BANNER (self), FALSE);

  if (!triage_request_banner_get_shown (self))
    return FALSE;

  gtk_widget_set_focusable (self->box, TRUE);
  return gtk_widget_grab_focus (self->box);
}

/**
 * triage_request_banner_focus_within:
 * @view: a request view
 *
 * Returns: whether the keyboard focus is in @view: asked before its
 *   controls change, for triage_request_banner_keep_focus()
 */
gboolean
triage_request_banner_focus_within (GtkWidget *view)
{
  GtkRoot *root = gtk_widget_get_root (view);
  GtkWidget *focus = root != NULL ? gtk_root_get_focus (root) : NULL;

  return focus != NULL && gtk_widget_is_ancestor (focus, view);
}

/**
 * triage_request_banner_keep_focus:
 * @self: the banner of @view
 * @view: a request view whose controls just turned read-only
 * @focus_was_within: triage_request_banner_focus_within() before
 *
 * The control the keyboard was on (the button an answer was given with,
 * clicked or pressed) turns insensitive or hides once the view is
 * read-only, and GTK drops the focus: a keyboard or screen-reader user
 * would be nowhere. The banner, which says where the request or the answer
 * stands (sending, waiting for the server, sent, settled), takes it then.
 */
void
triage_request_banner_keep_focus (TriageRequestBanner *self,
                                  GtkWidget           *view,
                                  gboolean             focus_was_within)
{
  GtkRoot *root;
  GtkWidget *focus;

  g_return_if_fail (TRIAGE_IS_REQUEST_BANNER (self));

  root = gtk_widget_get_root (view);
  if (!focus_was_within || root == NULL)
    return;

  focus = gtk_root_get_focus (root);
  if (focus == NULL || !gtk_widget_is_sensitive (focus) || !gtk_widget_is_visible (focus))
    triage_request_banner_take_focus (self);
}

/**
 * triage_request_banner_gone_detail:
 *
 * Returns: what is known of a request the server answered 404 for (or
 *   ATP's 403, its twin) once it left the pending set, for a banner's detail
 */
const char *
triage_request_banner_gone_detail (void)
{
  return _("The server no longer has it, or no longer shows it to you (it may have been "
           "answered, expired or withdrawn, then forgotten; or another account is signed in "
           "now). Whether it was answered is not known.");
}

/**
 * triage_request_banner_unreadable_detail:
 *
 * Returns: what is known of a request whose row the server can no longer
 *   read (500 NOTIFICATION_UNREADABLE to an answer), for a banner's detail;
 *   a banner given it is titled "No longer readable on the server"
 */
const char *
triage_request_banner_unreadable_detail (void)
{
  return _("The server's copy of it is damaged and can no longer be read, so your answer "
           "was not recorded. Whether it was answered is not known.");
}

/**
 * triage_request_banner_new:
 *
 * Returns: (transfer floating): a banner, hidden
 */
GtkWidget *
triage_request_banner_new (void)
{
  return g_object_new (TRIAGE_TYPE_REQUEST_BANNER, NULL);
}
