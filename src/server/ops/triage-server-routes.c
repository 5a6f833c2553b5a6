/* triage-server-routes.c
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The route of a request path: its template, with the id a path carries
 * written {id}. Logs and metrics name requests by route, never by path, so a
 * metric has one series per route (not one per notification) and an id in a
 * path is not repeated in every log line.
 */

#define G_LOG_DOMAIN "triage-server"

#include <string.h>

#include "triage-server-private.h"

typedef struct
{
  const char *prefix;    /* the path, or what comes before its id */
  gboolean    with_id;   /* one segment follows */
  const char *route;
} Route;

static const Route routes[] = {
  { "/api/v1/notifications", FALSE, "/api/v1/notifications" },
  { "/api/v1/notifications/", TRUE, "/api/v1/notifications/{id}" },
  { "/api/v1/client/notifications", FALSE, "/api/v1/client/notifications" },
  { "/api/v1/client/notifications/", TRUE, "/api/v1/client/notifications/{id}" },
  { "/api/v1/client/respond", FALSE, "/api/v1/client/respond" },
  { "/api/v1/client/stream", FALSE, "/api/v1/client/stream" },
  { "/api/v1/client/events", FALSE, "/api/v1/client/events" },
  { "/api/v1/aitp/decisions", FALSE, "/api/v1/aitp/decisions" },
  { "/api/v1/aitp/decisions/", TRUE, "/api/v1/aitp/decisions/{id}" },
  { "/api/v1/afp/reviews", FALSE, "/api/v1/afp/reviews" },
  { "/api/v1/afp/reviews/", TRUE, "/api/v1/afp/reviews/{id}" },
  { "/api/v1/afp/sessions/", TRUE, "/api/v1/afp/sessions/{id}" },
  { "/api/v1/services", FALSE, "/api/v1/services" },
  { "/api/v1/admin/users", FALSE, "/api/v1/admin/users" },
  { TRIAGE_HEALTHZ_PATH, FALSE, TRIAGE_HEALTHZ_PATH },
  { TRIAGE_READYZ_PATH, FALSE, TRIAGE_READYZ_PATH },
  { TRIAGE_METRICS_PATH, FALSE, TRIAGE_METRICS_PATH },
};

G_STATIC_ASSERT (G_N_ELEMENTS (routes) + 1 == TRIAGE_N_ROUTES);

/* The route of @path, an index for triage_server_route_name(): every path
 * but these is "other" (a 404, whatever it asked for). */
guint
triage_server_route (const char *path)
{
  for (guint i = 0; path != NULL && i < G_N_ELEMENTS (routes); i++)
    {
      const Route *route = &routes[i];

      if (!route->with_id)
        {
          if (strcmp (path, route->prefix) == 0)
            return i;
        }
      else if (g_str_has_prefix (path, route->prefix))
        {
          const char *id = path + strlen (route->prefix);

          if (*id != '\0' && strchr (id, '/') == NULL)
            return i;
        }
    }
  return G_N_ELEMENTS (routes);
}

const char *
triage_server_route_name (guint route)
{
  return route < G_N_ELEMENTS (routes) ? routes[route].route : "other";
}
