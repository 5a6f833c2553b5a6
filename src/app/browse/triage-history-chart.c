/* triage-history-chart.c
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "triage-history"

#include <glib/gi18n.h>

#include "triage-browse-style.h"
#include "triage-history-chart.h"
#include "triage-history-entry.h"

/*
 * Decisions over time: one stacked bar per day (or per few days) with what
 * became of the requests, bottom to top in the order of
 * TriageHistoryCategory, and a line with dots for the median time to an
 * answer given here (its own scale, labelled on the right).
 *
 * Colours are libadwaita's named colours looked up in the style context at
 * every draw, so the chart follows dark mode and high contrast; the legend
 * below names every colour in words, and the accessible description says
 * the whole chart in a sentence (triage_history_stats_dup_summary()).
 *
 * The plot is drawn into the allocation of an empty child ("plot") so the
 * layout (plot above, legend below) stays a plain box layout.
 */

struct _TriageHistoryChart
{
  GtkWidget           parent_instance;

  TriageHistoryStats *stats;
  char               *service;
  char               *summary;

  /* template */
  GtkWidget          *plot;
  GtkWidget          *legend;
};

G_DEFINE_FINAL_TYPE (TriageHistoryChart, triage_history_chart, GTK_TYPE_WIDGET)

enum {
  PROP_0,
  PROP_SUMMARY,
  N_PROPS
};

static GParamSpec *properties [N_PROPS];

/* Named colours per category, with a fallback for themes that lack them. */
static const struct
{
  const char *name;
  const char *fallback;
  double      alpha;
} category_colors[TRIAGE_HISTORY_N_CATEGORIES] = {
  [TRIAGE_HISTORY_CATEGORY_ANSWERED] = { "success_color", "#26a269", 1.0 },
  [TRIAGE_HISTORY_CATEGORY_ANSWERED_ELSEWHERE] = { "accent_color", "#1c71d8", 1.0 },
  [TRIAGE_HISTORY_CATEGORY_EXPIRED] = { "warning_color", "#cd9309", 1.0 },
  [TRIAGE_HISTORY_CATEGORY_WITHDRAWN] = { "purple_3", "#9141ac", 1.0 },
  [TRIAGE_HISTORY_CATEGORY_REFUSED] = { "error_color", "#e01b24", 1.0 },
  [TRIAGE_HISTORY_CATEGORY_PENDING] = { "window_fg_color", "#808080", 0.25 },
};

static void
lookup_color (GtkWidget  *widget,
              const char *name,
              const char *fallback,
              GdkRGBA    *color)
{
  GtkStyleContext *context = gtk_widget_get_style_context (widget);

  if (!gtk_style_context_lookup_color (context, name, color))
    gdk_rgba_parse (color, fallback);
}

static PangoLayout *
make_label (GtkWidget  *widget,
            const char *text,
            int        *width,
            int        *height)
{
  PangoLayout *layout = gtk_widget_create_pango_layout (widget, text);
  PangoAttrList *attrs = pango_attr_list_new ();

  pango_attr_list_insert (attrs, pango_attr_scale_new (0.8));
  pango_layout_set_attributes (layout, attrs);
  pango_attr_list_unref (attrs);
  pango_layout_get_pixel_size (layout, width, height);

  return layout;
}

static void
draw_label (GtkSnapshot   *snapshot,
            PangoLayout   *layout,
            float          x,
            float          y,
            const GdkRGBA *color)
{
  gtk_snapshot_save (snapshot);
  gtk_snapshot_translate (snapshot, &GRAPHENE_POINT_INIT (x, y));
  gtk_snapshot_append_layout (snapshot, layout, color);
  gtk_snapshot_restore (snapshot);
}

static char *
format_day (gint64 usec)
{
  g_autoptr(GDateTime) time = g_date_time_new_from_unix_local (usec / G_USEC_PER_SEC);

  /* Translators: a day under the chart, strftime format (e.g. "Mar 3") */
  return g_date_time_format (time, _("%b %e"));
}

/* The line's scale tops out a little below the bars' so the two stay
 * apart; its label on the right sits at that height. */
#define MEDIAN_SCALE 0.85

static double
median_y (const graphene_rect_t *area,
          gint64                 median,
          gint64                 max_median)
{
  return area->origin.y + area->size.height -
         (double) median / max_median * area->size.height * MEDIAN_SCALE;
}

static void
draw_median_line (TriageHistoryChart    *self,
                  GtkSnapshot           *snapshot,
                  const graphene_rect_t *area,
                  float                  slot,
                  gint64                 max_median,
                  const GdkRGBA         *color)
{
  guint n = triage_history_stats_get_n_buckets (self->stats);
  cairo_t *cr = gtk_snapshot_append_cairo (snapshot, area);
  gboolean drawing = FALSE;

  gdk_cairo_set_source_rgba (cr, color);
  cairo_set_line_width (cr, 2.0);
  cairo_set_line_join (cr, CAIRO_LINE_JOIN_ROUND);

  for (guint i = 0; i < n; i++)
    {
      const TriageHistoryBucket *bucket = triage_history_stats_get_bucket (self->stats, i);
      double x = area->origin.x + slot * (i + 0.5);
      double y;

      if (bucket->median_response < 0)
        {
          drawing = FALSE;
          continue;
        }

      y = median_y (area, bucket->median_response, max_median);
      if (drawing)
        cairo_line_to (cr, x, y);
      else
        cairo_move_to (cr, x, y);
      drawing = TRUE;
    }
  cairo_stroke (cr);

  for (guint i = 0; i < n; i++)
    {
      const TriageHistoryBucket *bucket = triage_history_stats_get_bucket (self->stats, i);
      double x = area->origin.x + slot * (i + 0.5);
      double y;

      if (bucket->median_response < 0)
        continue;

      y = median_y (area, bucket->median_response, max_median);
      cairo_new_sub_path (cr);
      cairo_arc (cr, x, y, 3.0, 0, 2 * G_PI);
    }
  cairo_fill (cr);

  cairo_destroy (cr);
}

static void
draw_plot (TriageHistoryChart    *self,
           GtkSnapshot           *snapshot,
           const graphene_rect_t *bounds)
{
  GtkWidget *widget = GTK_WIDGET (self);
  g_autoptr(PangoLayout) max_label = NULL;
  g_autoptr(PangoLayout) first_label = NULL;
  g_autoptr(PangoLayout) last_label = NULL;
  g_autoptr(PangoLayout) median_label = NULL;
  g_autofree char *max_text = NULL;
  g_autofree char *first_text = NULL;
  g_autofree char *last_text = NULL;
  GdkRGBA fg;
  GdkRGBA dim;
  GdkRGBA grid;
  GdkRGBA colors[TRIAGE_HISTORY_N_CATEGORIES];
  graphene_rect_t area;
  guint max_total;
  gint64 max_median;
  guint n;
  int max_w, max_h, first_w, first_h, last_w, last_h, median_w = 0, median_h = 0;
  float left, right, top, bottom, slot;

  lookup_color (widget, "window_fg_color", "#000000", &fg);
  dim = fg;
  dim.alpha *= 0.55f;
  grid = fg;
  grid.alpha *= 0.15f;

  if (self->stats == NULL || triage_history_stats_get_total (self->stats) == 0)
    {
      g_autoptr(PangoLayout) empty = NULL;
      int w, h;

      empty = make_label (widget, self->stats ? _("No requests in this period") : _("Loading…"),
                          &w, &h);
      draw_label (snapshot, empty,
                  bounds->origin.x + (bounds->size.width - w) / 2,
                  bounds->origin.y + (bounds->size.height - h) / 2, &dim);
      return;
    }

  for (guint c = 0; c < TRIAGE_HISTORY_N_CATEGORIES; c++)
    {
      lookup_color (widget, category_colors[c].name, category_colors[c].fallback, &colors[c]);
      colors[c].alpha *= category_colors[c].alpha;
    }

  n = triage_history_stats_get_n_buckets (self->stats);
  max_total = MAX (1, triage_history_stats_get_max_bucket_total (self->stats));
  max_median = triage_history_stats_get_max_median (self->stats);

  max_text = g_strdup_printf ("%u", max_total);
  first_text = format_day (triage_history_stats_get_start (self->stats));
  last_text = format_day (triage_history_stats_get_end (self->stats) - G_USEC_PER_SEC);
  max_label = make_label (widget, max_text, &max_w, &max_h);
  first_label = make_label (widget, first_text, &first_w, &first_h);
  last_label = make_label (widget, last_text, &last_w, &last_h);
  if (max_median > 0)
    {
      g_autofree char *median_text = triage_history_format_duration (max_median);

      median_label = make_label (widget, median_text, &median_w, &median_h);
    }

  left = bounds->origin.x + max_w + 6;
  right = bounds->origin.x + bounds->size.width - (median_label ? median_w + 6 : 0);
  top = bounds->origin.y + max_h / 2.0f;
  bottom = bounds->origin.y + bounds->size.height - first_h - 4;
  if (right - left < n || bottom - top < 10)
    return;

  area = GRAPHENE_RECT_INIT (left, top, right - left, bottom - top);
  slot = area.size.width / n;

  /* Axes: the count on the left, the median on the right, days below. */
  gtk_snapshot_append_color (snapshot, &grid, &GRAPHENE_RECT_INIT (left, bottom, area.size.width, 1));
  gtk_snapshot_append_color (snapshot, &grid, &GRAPHENE_RECT_INIT (left, top, area.size.width, 1));
  draw_label (snapshot, max_label, bounds->origin.x, top - max_h / 2.0f, &dim);
  draw_label (snapshot, first_label, left, bottom + 4, &dim);
  if (n > 1)
    draw_label (snapshot, last_label, right - last_w, bottom + 4, &dim);
  if (median_label != NULL)
    draw_label (snapshot, median_label, right + 6,
                median_y (&area, max_median, max_median) - median_h / 2.0f, &fg);

  for (guint i = 0; i < n; i++)
    {
      const TriageHistoryBucket *bucket = triage_history_stats_get_bucket (self->stats, i);
      float x = left + slot * i + slot * 0.15f;
      float width = MAX (1.0f, slot * 0.7f);
      float y = bottom;

      for (guint c = 0; c < TRIAGE_HISTORY_N_CATEGORIES; c++)
        {
          float height = (float) bucket->counts[c] / max_total * area.size.height;

          if (bucket->counts[c] == 0)
            continue;

          y -= height;
          gtk_snapshot_append_color (snapshot, &colors[c],
                                     &GRAPHENE_RECT_INIT (x, y, width, height));
        }
    }

  if (max_median > 0)
    draw_median_line (self, snapshot, &area, slot, max_median, &fg);
}

static void
triage_history_chart_snapshot (GtkWidget   *widget,
                               GtkSnapshot *snapshot)
{
  TriageHistoryChart *self = TRIAGE_HISTORY_CHART (widget);
  graphene_rect_t bounds;

  if (gtk_widget_compute_bounds (self->plot, widget, &bounds))
    draw_plot (self, snapshot, &bounds);

  for (GtkWidget *child = gtk_widget_get_first_child (widget);
       child != NULL;
       child = gtk_widget_get_next_sibling (child))
    gtk_widget_snapshot_child (widget, child, snapshot);
}

static void
triage_history_chart_css_changed (GtkWidget         *widget,
                                  GtkCssStyleChange *change)
{
  GTK_WIDGET_CLASS (triage_history_chart_parent_class)->css_changed (widget, change);

  /* Dark mode, high contrast, accent: the colours are looked up at draw time. */
  gtk_widget_queue_draw (widget);
}

/**
 * triage_history_chart_set_stats:
 * @self: a #TriageHistoryChart
 * @stats: (nullable): finished statistics; %NULL while they load
 * @service: (nullable): the service they are about, %NULL for all
 */
void
triage_history_chart_set_stats (TriageHistoryChart *self,
                                TriageHistoryStats *stats,
                                const char         *service)
{
  g_return_if_fail (TRIAGE_IS_HISTORY_CHART (self));

  if (stats != NULL)
    triage_history_stats_ref (stats);
  g_clear_pointer (&self->stats, triage_history_stats_unref);
  self->stats = stats;
  g_free (self->service);
  self->service = g_strdup (service);

  g_free (self->summary);
  self->summary = stats ? triage_history_stats_dup_summary (stats, service) : g_strdup ("");
  gtk_accessible_update_property (GTK_ACCESSIBLE (self),
                                  GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, self->summary,
                                  -1);
  gtk_widget_set_tooltip_text (self->plot, self->summary[0] ? self->summary : NULL);
  g_object_notify_by_pspec (G_OBJECT (self), properties [PROP_SUMMARY]);

  gtk_widget_queue_draw (GTK_WIDGET (self));
}

/**
 * triage_history_chart_get_stats:
 *
 * Returns: (transfer none) (nullable): what is drawn
 */
TriageHistoryStats *
triage_history_chart_get_stats (TriageHistoryChart *self)
{
  g_return_val_if_fail (TRIAGE_IS_HISTORY_CHART (self), NULL);

  return self->stats;
}

/**
 * triage_history_chart_get_summary:
 *
 * Returns: the chart in words (also its accessible description)
 */
const char *
triage_history_chart_get_summary (TriageHistoryChart *self)
{
  g_return_val_if_fail (TRIAGE_IS_HISTORY_CHART (self), NULL);

  return self->summary;
}

static void
triage_history_chart_dispose (GObject *object)
{
  TriageHistoryChart *self = (TriageHistoryChart *)object;
  GtkWidget *child;

  gtk_widget_dispose_template (GTK_WIDGET (self), TRIAGE_TYPE_HISTORY_CHART);
  /* Children the template did not name are ours to drop too. */
  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self))) != NULL)
    gtk_widget_unparent (child);

  G_OBJECT_CLASS (triage_history_chart_parent_class)->dispose (object);
}

static void
triage_history_chart_finalize (GObject *object)
{
  TriageHistoryChart *self = (TriageHistoryChart *)object;

  g_clear_pointer (&self->stats, triage_history_stats_unref);
  g_free (self->service);
  g_free (self->summary);

  G_OBJECT_CLASS (triage_history_chart_parent_class)->finalize (object);
}

static void
triage_history_chart_get_property (GObject    *object,
                                   guint       prop_id,
                                   GValue     *value,
                                   GParamSpec *pspec)
{
  TriageHistoryChart *self = TRIAGE_HISTORY_CHART (object);

  switch (prop_id)
    {
    case PROP_SUMMARY:
      g_value_set_string (value, self->summary);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
triage_history_chart_class_init (TriageHistoryChartClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = triage_history_chart_dispose;
  object_class->finalize = triage_history_chart_finalize;
  object_class->get_property = triage_history_chart_get_property;

  widget_class->snapshot = triage_history_chart_snapshot;
  widget_class->css_changed = triage_history_chart_css_changed;

  properties [PROP_SUMMARY] =
    g_param_spec_string ("summary", NULL, NULL, NULL,
                         (G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));
  g_object_class_install_properties (object_class, N_PROPS, properties);

  gtk_widget_class_set_template_from_resource (widget_class,
                                               RESOURCE_BASE "/browse/triage-history-chart.ui");
  gtk_widget_class_bind_template_child (widget_class, TriageHistoryChart, plot);
  gtk_widget_class_bind_template_child (widget_class, TriageHistoryChart, legend);

  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BOX_LAYOUT);
  gtk_widget_class_set_css_name (widget_class, "historychart");
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_IMG);
}

static void
triage_history_chart_init (TriageHistoryChart *self)
{
  GtkLayoutManager *layout;

  triage_browse_style_init ();
  gtk_widget_init_template (GTK_WIDGET (self));

  layout = gtk_widget_get_layout_manager (GTK_WIDGET (self));
  gtk_orientable_set_orientation (GTK_ORIENTABLE (layout), GTK_ORIENTATION_VERTICAL);
  gtk_box_layout_set_spacing (GTK_BOX_LAYOUT (layout), 6);

  self->summary = g_strdup ("");
  gtk_accessible_update_property (GTK_ACCESSIBLE (self),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, _("Decisions over time"),
                                  -1);
}

GtkWidget *
triage_history_chart_new (void)
{
  return g_object_new (TRIAGE_TYPE_HISTORY_CHART, NULL);
}
