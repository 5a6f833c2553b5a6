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
 * Decisions over time, per service: one stacked bar per day (or per few
 * days) with the requests of each service, the busiest first from the
 * bottom and the rest together as "Other" (TriageHistorySeries), and a line
 * with dots for the median time to an answer given here over all services
 * (its own scale, labelled on the right). Below, the legend is a second
 * small panel: per service its swatch, name and count, and a bar of its
 * median response time with the time in words.
 *
 * Every service has a colour AND a pattern (plain, stripes, dots, lines,
 * cross-hatch), in the bars and in the legend, so the chart never relies on
 * colour alone. Colours are libadwaita's named colours looked up in the
 * style context at every draw, so the chart follows dark mode and high
 * contrast; text is laid out with the widget's font, so rows grow with large
 * text; the accessible description says the whole chart, service by
 * service, in words (triage_history_stats_dup_summary()).
 *
 * Plot and legend are drawn into the allocations of empty children ("plot",
 * "services") so the layout stays a plain box layout.
 */

struct _TriageHistoryChart
{
  GtkWidget           parent_instance;

  TriageHistoryStats *stats;
  char               *service;
  char               *summary;

  /* template */
  GtkWidget          *plot;
  GtkWidget          *services;
};

G_DEFINE_FINAL_TYPE (TriageHistoryChart, triage_history_chart, GTK_TYPE_WIDGET)

enum {
  PROP_0,
  PROP_SUMMARY,
  N_PROPS
};

static GParamSpec *properties [N_PROPS];

/* A series' look: a named colour (with a fallback for themes that lack it)
 * and a pattern; the busiest service first, "Other" always the last one. */
typedef enum
{
  PATTERN_PLAIN,
  PATTERN_STRIPES,
  PATTERN_DOTS,
  PATTERN_LINES,
  PATTERN_CROSS,
  PATTERN_GRID,
} Pattern;

/* Up to TRIAGE_HISTORY_STATS_MAX_SERIES + 1 services by name, and "Other". */
#define N_LOOKS (TRIAGE_HISTORY_STATS_MAX_SERIES + 2)

static const struct
{
  const char *name;
  const char *fallback;
  double      alpha;
  Pattern     pattern;
} series_looks[N_LOOKS] = {
  { "blue_3", "#3584e4", 1.0, PATTERN_PLAIN },
  { "orange_3", "#ff7800", 1.0, PATTERN_STRIPES },
  { "green_4", "#2ec27e", 1.0, PATTERN_DOTS },
  { "purple_2", "#c061cb", 1.0, PATTERN_LINES },
  { "brown_2", "#b5835a", 1.0, PATTERN_CROSS },   /* a fifth service, when it is the last */
  { "window_fg_color", "#808080", 0.4, PATTERN_GRID },   /* "Other" */
};

/* Named series by rank; "Other" has a look of its own. */
static guint
series_look (const TriageHistorySeries *series,
             guint                      index)
{
  return series->name == NULL ? N_LOOKS - 1 : MIN (index, N_LOOKS - 2);
}

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

/* A rectangle in a series' colour with its pattern over it in @ink. */
static void
fill_series (cairo_t       *cr,
             Pattern        pattern,
             const GdkRGBA *color,
             const GdkRGBA *ink,
             double         x,
             double         y,
             double         width,
             double         height)
{
  cairo_save (cr);
  cairo_rectangle (cr, x, y, width, height);
  cairo_clip (cr);
  gdk_cairo_set_source_rgba (cr, color);
  cairo_paint (cr);

  gdk_cairo_set_source_rgba (cr, ink);
  cairo_set_line_width (cr, 1.5);
  switch (pattern)
    {
    case PATTERN_STRIPES:
    case PATTERN_CROSS:
      for (double d = -height; d < width; d += 5)
        {
          cairo_move_to (cr, x + d, y + height);
          cairo_line_to (cr, x + d + height, y);
          if (pattern == PATTERN_CROSS)
            {
              cairo_move_to (cr, x + d, y);
              cairo_line_to (cr, x + d + height, y + height);
            }
        }
      cairo_stroke (cr);
      break;

    case PATTERN_DOTS:
      for (double dy = 2; dy < height; dy += 4)
        for (double dx = (((int) dy / 4) % 2) * 2 + 2; dx < width; dx += 4)
          {
            cairo_new_sub_path (cr);
            cairo_arc (cr, x + dx, y + height - dy, 1.1, 0, 2 * G_PI);
          }
      cairo_fill (cr);
      break;

    case PATTERN_LINES:
    case PATTERN_GRID:
      for (double dy = 2; dy < height; dy += 4)
        {
          cairo_move_to (cr, x, y + height - dy);
          cairo_line_to (cr, x + width, y + height - dy);
        }
      for (double dx = 2; pattern == PATTERN_GRID && dx < width; dx += 4)
        {
          cairo_move_to (cr, x + dx, y);
          cairo_line_to (cr, x + dx, y + height);
        }
      cairo_stroke (cr);
      break;

    case PATTERN_PLAIN:
    default:
      break;
    }

  cairo_restore (cr);
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

/* The pattern is drawn in the window's background, so it shows on every
 * colour, light or dark. */
static void
lookup_series_colors (GtkWidget *widget,
                      GdkRGBA   *colors,
                      GdkRGBA   *ink)
{
  for (guint i = 0; i < N_LOOKS; i++)
    {
      lookup_color (widget, series_looks[i].name, series_looks[i].fallback, &colors[i]);
      colors[i].alpha *= series_looks[i].alpha;
    }
  lookup_color (widget, "window_bg_color", "#ffffff", ink);
  ink->alpha *= 0.75f;
}

static char *
series_name (const TriageHistorySeries *series)
{
  if (series->name == NULL)
    /* Translators: in the chart's legend, the services not named, together */
    return g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "Other (%u service)",
                                         "Other (%u services)", series->n_services),
                            series->n_services);

  return g_strdup (series->name[0] != '\0' ? series->name : _("No service"));
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
  GdkRGBA ink;
  GdkRGBA colors[N_LOOKS];
  graphene_rect_t area;
  cairo_t *cr;
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

  lookup_series_colors (widget, colors, &ink);

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

  cr = gtk_snapshot_append_cairo (snapshot, &area);
  for (guint i = 0; i < n; i++)
    {
      float x = left + slot * i + slot * 0.15f;
      float width = MAX (1.0f, slot * 0.7f);
      float y = bottom;

      for (guint s = 0; s < triage_history_stats_get_n_series (self->stats); s++)
        {
          const TriageHistorySeries *series = triage_history_stats_get_series (self->stats, s);
          guint look = series_look (series, s);
          float height = (float) series->counts[i] / max_total * area.size.height;

          if (series->counts[i] == 0)
            continue;

          y -= height;
          fill_series (cr, series_looks[look].pattern, &colors[look], &ink, x, y, width, height);
        }
    }
  cairo_destroy (cr);

  if (max_median > 0)
    draw_median_line (self, snapshot, &area, slot, max_median, &fg);
}

/* A legend row: as tall as a line of the widget's text (large text too). */
static int
legend_row_height (TriageHistoryChart *self)
{
  g_autoptr(PangoLayout) probe = NULL;
  int width, height;

  probe = make_label (GTK_WIDGET (self), "Ag", &width, &height);

  return height + 6;
}

static void
update_legend_height (TriageHistoryChart *self)
{
  guint n = self->stats ? triage_history_stats_get_n_series (self->stats) : 0;

  gtk_widget_set_size_request (self->services, -1, n * legend_row_height (self));
}

/* Per service: swatch, "name · count", then a bar of its median response
 * time with the time in words; the name column takes at most two fifths. */
static void
draw_legend (TriageHistoryChart    *self,
             GtkSnapshot           *snapshot,
             const graphene_rect_t *bounds)
{
  GtkWidget *widget = GTK_WIDGET (self);
  GdkRGBA colors[N_LOOKS];
  GdkRGBA fg, dim, ink;
  guint n = triage_history_stats_get_n_series (self->stats);
  gint64 max_median = triage_history_stats_get_max_series_median (self->stats);
  int row_h = legend_row_height (self);
  float swatch = MIN (12.0f, row_h - 6.0f);
  float name_max = bounds->size.width * 0.4f;
  float name_w = 0;
  cairo_t *cr;

  lookup_color (widget, "window_fg_color", "#000000", &fg);
  dim = fg;
  dim.alpha *= 0.55f;
  lookup_series_colors (widget, colors, &ink);

  for (guint i = 0; i < n; i++)
    {
      g_autofree char *name = series_name (triage_history_stats_get_series (self->stats, i));
      g_autofree char *text = g_strdup_printf ("%s · %u", name,
                                               triage_history_stats_get_series (self->stats, i)->total);
      g_autoptr(PangoLayout) layout = NULL;
      int w, h;

      layout = make_label (widget, text, &w, &h);
      name_w = MAX (name_w, MIN (name_max, w));
    }

  cr = gtk_snapshot_append_cairo (snapshot, bounds);
  for (guint i = 0; i < n; i++)
    {
      const TriageHistorySeries *series = triage_history_stats_get_series (self->stats, i);
      guint look = series_look (series, i);
      g_autofree char *name = series_name (series);
      g_autofree char *text = g_strdup_printf ("%s · %u", name, series->total);
      g_autofree char *took = series->median_response >= 0
        ? triage_history_format_duration (series->median_response)
        /* Translators: in the chart's legend, a service with no answer given here */
        : g_strdup (C_("median response time", "none"));
      g_autoptr(PangoLayout) label = NULL;
      g_autoptr(PangoLayout) value = NULL;
      float y = bounds->origin.y + i * row_h;
      float x = bounds->origin.x;
      float bar_x = x + swatch + 6 + name_w + 8;
      int w, h, took_w, took_h;
      float bar_room;

      fill_series (cr, series_looks[look].pattern, &colors[look], &ink,
                   x, y + (row_h - swatch) / 2, swatch, swatch);

      label = make_label (widget, text, &w, &h);
      pango_layout_set_width (label, (int) (name_w * PANGO_SCALE));
      pango_layout_set_ellipsize (label, PANGO_ELLIPSIZE_END);
      cairo_move_to (cr, x + swatch + 6, y + (row_h - h) / 2.0);
      gdk_cairo_set_source_rgba (cr, &fg);
      pango_cairo_show_layout (cr, label);

      value = make_label (widget, took, &took_w, &took_h);
      bar_room = bounds->origin.x + bounds->size.width - bar_x - took_w - 6;
      if (series->median_response > 0 && max_median > 0 && bar_room > 2)
        {
          float bar_w = MAX (2.0f, bar_room * series->median_response / max_median);

          fill_series (cr, series_looks[look].pattern, &colors[look], &ink,
                       bar_x, y + (row_h - swatch) / 2, bar_w, swatch);
          bar_x += bar_w;
        }
      cairo_move_to (cr, bar_x + 6, y + (row_h - took_h) / 2.0);
      gdk_cairo_set_source_rgba (cr, series->median_response >= 0 ? &fg : &dim);
      pango_cairo_show_layout (cr, value);
    }
  cairo_destroy (cr);
}

static void
triage_history_chart_snapshot (GtkWidget   *widget,
                               GtkSnapshot *snapshot)
{
  TriageHistoryChart *self = TRIAGE_HISTORY_CHART (widget);
  graphene_rect_t bounds;

  if (gtk_widget_compute_bounds (self->plot, widget, &bounds))
    draw_plot (self, snapshot, &bounds);
  if (self->stats != NULL && gtk_widget_compute_bounds (self->services, widget, &bounds))
    draw_legend (self, snapshot, &bounds);

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

  /* Dark mode, high contrast, accent: the colours are looked up at draw time;
   * a larger font makes the legend's rows taller. */
  update_legend_height (TRIAGE_HISTORY_CHART (widget));
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
  update_legend_height (self);

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
  gtk_widget_class_bind_template_child (widget_class, TriageHistoryChart, services);

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

  /* A stop of Tab between the filters and the list, so that the keyboard
   * (and a screen reader) meets the chart in words: its description. */
  gtk_widget_set_focusable (GTK_WIDGET (self), TRUE);

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
