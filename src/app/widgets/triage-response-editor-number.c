/* triage-response-editor-number.c — the number field and the slider
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "triage-response-editor"

#include <glib/gi18n.h>
#include <locale.h>
#include <math.h>

#include "triage-decision-format.h"
#include "triage-response-editor-private.h"

/*
 * number: a spin button that starts empty (no answer until one is typed or
 * stepped to), the range and step grid as a hint, the unit beside it; what
 * is typed is read strictly and moved onto the grid and into the range.
 * scale: a slider over the grid, a mark per step (or about ten), the end
 * labels under it, no value until the person moves it, and an exact-value
 * spin button beside a long one.
 */

#define MAX_SCALE_MARKS 21
#define SCALE_SPIN_THRESHOLD 100 /* steps; above, a spin button helps pick exact values */
#define WIDE_RANGE G_MAXDOUBLE   /* a side without a bound: any number may be typed */

/* Parsing */

/* Whether @text has a '.' or ',' other than the locale's decimal point
 * before exactly three digits ("1,000" in English, "1.000" in German): a
 * thousands separator as much as a decimal one, read neither way. */
gboolean
_triage_response_number_is_ambiguous (const char *text)
{
  char point = localeconv ()->decimal_point[0] == ',' ? ',' : '.';
  char other = point == ',' ? '.' : ',';
  const char *separator = strchr (text, other);
  guint digits = 0;

  if (separator == NULL)
    return FALSE;

  while (g_ascii_isdigit (separator[1 + digits]))
    digits++;

  return digits == 3 && separator > text && g_ascii_isdigit (separator[-1]);
}

/* Strict: digits, one sign, one decimal separator ('.' or the ',' many
 * locales type), an exponent; no hex, "inf" or "nan" as strtod would allow,
 * and no separator that may group thousands. */
gboolean
_triage_response_parse_number (const char *text,
                               double     *value)
{
  g_autofree char *copy = g_strstrip (g_strdup (text));
  char *end = NULL;
  double parsed;

  if (*copy == '\0' || _triage_response_number_is_ambiguous (copy))
    return FALSE;

  for (char *p = copy; *p != '\0'; p++)
    {
      if (*p == ',' && strchr (copy, '.') == NULL)
        *p = '.';
      if (!g_ascii_isdigit (*p) && strchr ("+-.eE", *p) == NULL)
        return FALSE;
    }

  parsed = g_ascii_strtod (copy, &end);
  if (end == copy || *end != '\0' || !isfinite (parsed))
    return FALSE;

  *value = parsed;
  return TRUE;
}

gboolean
_triage_response_text_is_blank (const char *text)
{
  for (const char *p = text; *p != '\0'; p++)
    if (!g_ascii_isspace (*p))
      return FALSE;

  return TRUE;
}

/* The number on the step grid (from min, or 0) closest to @value, within the range. */
static double
snap_number (TriageResponseEditor *self,
             double                value)
{
  const AtpAction *action = self->action;
  double k, k_min, k_max, snapped, scale;

  if (!action->has_step)
    {
      if (action->has_min)
        value = MAX (value, action->min);
      if (action->has_max)
        value = MIN (value, action->max);
      return value;
    }

  k = nearbyint ((value - self->grid_base) / action->step);
  if (action->has_min)
    {
      k_min = ceil ((action->min - self->grid_base) / action->step - 1e-9);
      k = MAX (k, k_min);
    }
  if (action->has_max)
    {
      k_max = floor ((action->max - self->grid_base) / action->step + 1e-9);
      k = MIN (k, k_max);
    }

  snapped = self->grid_base + k * action->step;

  /* 0.1 + 13 × 0.05 is 0.7500000000000001 in doubles: round to the shown digits. */
  if (self->digits >= 0)
    {
      scale = pow (10, self->digits);
      if (isfinite (snapped * scale) && fabs (snapped * scale) < 1e15)
        snapped = nearbyint (snapped * scale) / scale;
    }

  return snapped;
}

/* Whether @spin is being updated because its window stopped being the
 * active one, the focus in it. GTK 4.8 reads a spin button's text when the
 * focus leaves it, and a window left (another one chosen, or taking the
 * focus) counts as leaving it: the number typed and not entered would be
 * put in range, or replaced by the last one, and kept so when the request
 * is settled meanwhile. But the person left the window, not the field, and
 * comes back to it as they left it. GTK runs that update with the window
 * already inactive and the field still focused; any other update of it
 * sees the window active, or the field no longer focused. */
static gboolean
spin_window_left (GtkSpinButton *spin)
{
  GtkRoot *root = gtk_widget_get_root (GTK_WIDGET (spin));
  GtkWidget *text = GTK_WIDGET (gtk_editable_get_delegate (GTK_EDITABLE (spin)));

  return GTK_IS_WINDOW (root) && !gtk_window_is_active (GTK_WINDOW (root)) && gtk_widget_has_focus (text);
}

static int
on_spin_input (GtkSpinButton        *spin,
               double               *new_value,
               TriageResponseEditor *self)
{
  double value;

  *new_value = gtk_adjustment_get_value (self->adjustment);

  if (spin_window_left (spin))
    return TRUE;

  if (_triage_response_text_is_blank (gtk_editable_get_text (GTK_EDITABLE (spin))))
    self->has_value = FALSE;
  else if (_triage_response_parse_number (gtk_editable_get_text (GTK_EDITABLE (spin)), &value))
    {
      self->has_value = TRUE;
      *new_value = snap_number (self, value);
    }
  /* Anything else: back to the last number (or to empty). */

  return TRUE;
}

static gboolean
on_spin_output (GtkSpinButton        *spin,
                TriageResponseEditor *self)
{
  g_autofree char *text = NULL;

  /* No number chosen yet: the text stays as it is (empty, or being typed),
   * never the adjustment's starting value; nor is a number typed over the
   * last one replaced by it when the window is left. */
  if (!self->has_value || spin_window_left (spin))
    return TRUE;

  text = triage_format_number (gtk_adjustment_get_value (self->adjustment), self->digits);
  if (g_strcmp0 (gtk_editable_get_text (GTK_EDITABLE (spin)), text) != 0)
    gtk_editable_set_text (GTK_EDITABLE (spin), text);

  return TRUE;
}

/* A slider with no value chosen shows none: no number over it, and no fill
 * from its start to the knob (which waits in the middle), which would read
 * as a value chosen. Both come with the person's first move. */
static void
show_scale_value (GtkScale *scale,
                  gboolean  chosen)
{
  gtk_scale_set_draw_value (scale, chosen);
  gtk_scale_set_has_origin (scale, chosen);
}

static void
on_adjustment_value_changed (TriageResponseEditor *self)
{
  /* Connected before the spin button's own handler: a value stepped to with
   * the arrows is an answer, and is shown as one. */
  self->has_value = TRUE;

  if (self->action->response_type == ATP_RESPONSE_TYPE_SCALE)
    {
      show_scale_value (GTK_SCALE (self->input), TRUE);
      _triage_response_editor_update (self);
    }
}

/* The service's text (a unit, a placeholder, an end label) as every label
 * shows it: hidden characters made visible, cut; NULL for none or blank. */
static char *
shown_constraint (const char *text,
                  gsize       max_chars)
{
  return atp_str_is_blank (text) ? NULL : triage_format_shown_text (text, max_chars);
}

static char *
number_hint (TriageResponseEditor *self)
{
  const AtpAction *action = self->action;
  g_autofree char *min = action->has_min ? triage_format_number (action->min, -1) : NULL;
  g_autofree char *max = action->has_max ? triage_format_number (action->max, -1) : NULL;
  g_autofree char *step = action->has_step ? triage_format_number (action->step, -1) : NULL;
  g_autofree char *range = NULL;

  if (min != NULL && max != NULL)
    /* Translators: the range of a number, e.g. "From 0.1 to 0.9" */
    range = g_strdup_printf (_("From %s to %s"), min, max);
  else if (min != NULL)
    /* Translators: the minimum of a number */
    range = g_strdup_printf (_("At least %s"), min);
  else if (max != NULL)
    /* Translators: the maximum of a number */
    range = g_strdup_printf (_("At most %s"), max);

  if (step != NULL && range != NULL)
    /* Translators: a range and a step, e.g. "From 0.1 to 0.9, in steps of 0.05" */
    return g_strdup_printf (_("%s, in steps of %s"), range, step);
  if (step != NULL)
    /* Translators: the step of a number without bounds */
    return g_strdup_printf (_("In steps of %s"), step);

  return g_steal_pointer (&range);
}

void
_triage_response_editor_build_number (TriageResponseEditor *self)
{
  const AtpAction *action = self->action;
  double lower = action->has_min ? action->min : -WIDE_RANGE;
  double upper = action->has_max ? action->max : WIDE_RANGE;
  double step = action->has_step ? action->step : 1.0;
  g_autofree char *hint = NULL;
  g_autofree char *unit = shown_constraint (action->unit, TRIAGE_SHOWN_LABEL_CHARS);
  g_autofree char *placeholder = shown_constraint (action->placeholder, TRIAGE_SHOWN_LABEL_CHARS);
  GtkWidget *row, *spin;
  GtkEditable *text;

  self->grid_base = action->has_min ? action->min : 0.0;
  if (action->has_step)
    self->digits = CLAMP (MAX (triage_number_digits (action->step),
                               triage_number_digits (self->grid_base)), 0, 12);
  else
    self->digits = -1;

  lower = MIN (lower, upper);
  self->adjustment = g_object_ref_sink (gtk_adjustment_new (snap_number (self, CLAMP (0.0, lower, upper)),
                                                            lower, upper, step, step * 10, 0));
  g_signal_connect_object (self->adjustment, "value-changed",
                           G_CALLBACK (on_adjustment_value_changed), self, G_CONNECT_SWAPPED);

  spin = gtk_spin_button_new (self->adjustment, 0, CLAMP (self->digits, 0, 12));
  gtk_spin_button_set_numeric (GTK_SPIN_BUTTON (spin), FALSE);
  gtk_spin_button_set_update_policy (GTK_SPIN_BUTTON (spin), GTK_UPDATE_ALWAYS);
  gtk_editable_set_width_chars (GTK_EDITABLE (spin), 12);
  gtk_widget_set_hexpand (spin, TRUE);
  g_signal_connect_object (spin, "input", G_CALLBACK (on_spin_input), self, 0);
  g_signal_connect_object (spin, "output", G_CALLBACK (on_spin_output), self, 0);
  self->input = spin;
  self->has_value = FALSE;
  _triage_response_editor_label_input (self, spin);

  /* Nothing chosen yet: empty, with the placeholder. */
  gtk_editable_set_text (GTK_EDITABLE (spin), "");
  text = gtk_editable_get_delegate (GTK_EDITABLE (spin));
  if (GTK_IS_TEXT (text) && placeholder != NULL)
    gtk_text_set_placeholder_text (GTK_TEXT (text), placeholder);
  g_signal_connect_object (spin, "changed", G_CALLBACK (_triage_response_editor_update), self, G_CONNECT_SWAPPED);

  row = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 12);
  gtk_box_append (GTK_BOX (row), spin);
  if (unit != NULL)
    {
      GtkWidget *unit_label = gtk_label_new (unit);

      gtk_label_set_use_markup (GTK_LABEL (unit_label), FALSE);
      gtk_label_set_ellipsize (GTK_LABEL (unit_label), PANGO_ELLIPSIZE_END);
      gtk_label_set_max_width_chars (GTK_LABEL (unit_label), 20);
      gtk_widget_add_css_class (unit_label, "dim-label");
      gtk_box_append (GTK_BOX (row), unit_label);
    }
  gtk_box_append (self->input_box, row);

  hint = number_hint (self);
  if (hint != NULL)
    {
      GtkWidget *label = gtk_label_new (hint);

      gtk_label_set_wrap (GTK_LABEL (label), TRUE);
      gtk_label_set_xalign (GTK_LABEL (label), 0);
      gtk_widget_add_css_class (label, "caption");
      gtk_widget_add_css_class (label, "dim-label");
      gtk_box_append (self->input_box, label);
    }

  if (hint != NULL && unit != NULL)
    /* Translators: the description of a number field: its range, then its unit */
    self->input_hint = g_strdup_printf (_("%s (%s)"), hint, unit);
  else
    self->input_hint = g_strdup (hint ? hint : unit);

  _triage_response_editor_add_send_button (self);
}

/* The slider's exact value is the default spin button's but for a window
 * left: what was typed there stays, and the slider stays where it was. */
static int
on_scale_spin_input (GtkSpinButton        *spin,
                     double               *new_value,
                     TriageResponseEditor *self)
{
  if (!spin_window_left (spin))
    return FALSE;

  *new_value = gtk_adjustment_get_value (self->adjustment);
  return TRUE;
}

static gboolean
on_scale_spin_output (GtkSpinButton *spin)
{
  return spin_window_left (spin);
}

static gboolean
on_scale_change_value (GtkRange             *range,
                       GtkScrollType         scroll,
                       double                value,
                       TriageResponseEditor *self)
{
  double step = self->action->step;
  double snapped = self->action->min + nearbyint ((value - self->action->min) / step) * step;

  /* Only the person moves the slider: even a click on the value it shows chooses it. */
  self->has_value = TRUE;
  show_scale_value (GTK_SCALE (range), TRUE);
  gtk_range_set_value (range, CLAMP (snapped, self->action->min, self->grid_top));
  _triage_response_editor_update (self);
  return TRUE;
}

static GtkWidget *
scale_end_label (double      value,
                 const char *text,
                 float       xalign)
{
  g_autofree char *number = triage_format_number (value, 0);
  g_autofree char *shown = shown_constraint (text, TRIAGE_SHOWN_LABEL_CHARS);
  g_autofree char *full = shown ? g_strdup_printf ("%s · %s", number, shown) : g_strdup (number);
  GtkWidget *label = gtk_label_new (full);

  gtk_label_set_use_markup (GTK_LABEL (label), FALSE);
  gtk_label_set_wrap (GTK_LABEL (label), TRUE);
  gtk_label_set_wrap_mode (GTK_LABEL (label), PANGO_WRAP_WORD_CHAR);
  gtk_label_set_xalign (GTK_LABEL (label), xalign);
  gtk_label_set_justify (GTK_LABEL (label), xalign > 0.5 ? GTK_JUSTIFY_RIGHT : GTK_JUSTIFY_LEFT);
  gtk_widget_set_hexpand (label, TRUE);
  gtk_widget_add_css_class (label, "caption");
  gtk_widget_add_css_class (label, "dim-label");

  return label;
}

void
_triage_response_editor_build_scale (TriageResponseEditor *self)
{
  const AtpAction *action = self->action;
  double step = action->step;
  double steps = floor ((action->max - action->min) / step);
  double middle, marks_every;
  GtkWidget *scale, *ends;
  g_autofree char *description = NULL;
  g_autofree char *min_label = shown_constraint (action->min_label, TRIAGE_SHOWN_LABEL_CHARS);
  g_autofree char *max_label = shown_constraint (action->max_label, TRIAGE_SHOWN_LABEL_CHARS);

  self->grid_top = action->min + steps * step;
  middle = action->min + floor (steps / 2) * step;

  self->adjustment = g_object_ref_sink (gtk_adjustment_new (middle, action->min, self->grid_top,
                                                            step, step * MAX (1, floor (steps / 10)), 0));
  g_signal_connect_object (self->adjustment, "value-changed",
                           G_CALLBACK (on_adjustment_value_changed), self, G_CONNECT_SWAPPED);

  scale = gtk_scale_new (GTK_ORIENTATION_HORIZONTAL, self->adjustment);
  gtk_scale_set_digits (GTK_SCALE (scale), 0);
  show_scale_value (GTK_SCALE (scale), FALSE);
  gtk_scale_set_value_pos (GTK_SCALE (scale), GTK_POS_TOP);
  gtk_range_set_round_digits (GTK_RANGE (scale), 0);
  gtk_widget_set_hexpand (scale, TRUE);
  g_signal_connect_object (scale, "change-value", G_CALLBACK (on_scale_change_value), self, 0);
  self->input = scale;
  self->has_value = FALSE;
  _triage_response_editor_label_input (self, scale);

  /* A mark at every step, or at about ten evenly spaced steps of a long scale. */
  marks_every = steps + 1 <= MAX_SCALE_MARKS ? 1 : ceil (steps / 10);
  for (double k = 0; k <= steps; k += marks_every)
    gtk_scale_add_mark (GTK_SCALE (scale), action->min + k * step, GTK_POS_BOTTOM, NULL);
  if (fmod (steps, marks_every) != 0)
    gtk_scale_add_mark (GTK_SCALE (scale), self->grid_top, GTK_POS_BOTTOM, NULL);
  gtk_box_append (self->input_box, scale);

  ends = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 12);
  gtk_box_set_homogeneous (GTK_BOX (ends), TRUE);
  gtk_box_append (GTK_BOX (ends), scale_end_label (action->min, action->min_label, 0));
  gtk_box_append (GTK_BOX (ends), scale_end_label (action->max, action->max_label, 1));
  gtk_box_append (self->input_box, ends);

  description = g_strdup_printf ("%s – %s", min_label ? min_label : "", max_label ? max_label : "");
  if (min_label != NULL || max_label != NULL)
    self->input_hint = g_steal_pointer (&description);

  if (steps > SCALE_SPIN_THRESHOLD)
    {
      GtkWidget *row = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 12);
      GtkWidget *label = gtk_label_new (_("Exact value"));

      gtk_widget_add_css_class (label, "dim-label");
      self->scale_spin = gtk_spin_button_new (self->adjustment, 0, 0);
      gtk_spin_button_set_numeric (GTK_SPIN_BUTTON (self->scale_spin), TRUE);
      gtk_spin_button_set_snap_to_ticks (GTK_SPIN_BUTTON (self->scale_spin), TRUE);
      g_signal_connect_object (self->scale_spin, "input", G_CALLBACK (on_scale_spin_input), self, 0);
      g_signal_connect (self->scale_spin, "output", G_CALLBACK (on_scale_spin_output), NULL);
      _triage_response_editor_label_input (self, self->scale_spin);
      gtk_box_append (GTK_BOX (row), label);
      gtk_box_append (GTK_BOX (row), self->scale_spin);
      gtk_box_append (self->input_box, row);
    }

  _triage_response_editor_add_send_button (self);
}

/* Shows @value (an answer given) in the number field or on the slider, as
 * if the person had chosen it. */
void
_triage_response_editor_show_number (TriageResponseEditor *self,
                                     double                value)
{
  self->has_value = TRUE;
  gtk_adjustment_set_value (self->adjustment, value);

  if (self->action->response_type == ATP_RESPONSE_TYPE_SCALE)
    show_scale_value (GTK_SCALE (self->input), TRUE);
  else
    {
      g_autofree char *text = triage_format_number (gtk_adjustment_get_value (self->adjustment),
                                                    self->digits);

      gtk_editable_set_text (GTK_EDITABLE (self->input), text);
    }

  _triage_response_editor_update (self);
}
