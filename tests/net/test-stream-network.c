/* test-stream-network.c — AtpStream and the network as GIO reports it (GNetworkMonitor)
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "stream-test-common.h"

/* The network, as GIO reports it: a monitor the test turns on and off (the
 * machine's own cannot be), and a name that is not a loopback name, so the
 * stream believes it needs the network (for 127.0.0.1 it rightly ignores
 * it): triage.localhost, resolved here to 127.0.0.1, in the test
 * certificate. */

typedef struct
{
  GObject  parent_instance;
  gboolean available;
} StreamTestMonitor;

typedef GObjectClass StreamTestMonitorClass;

GType stream_test_monitor_get_type (void);
static void stream_test_monitor_iface_init (GNetworkMonitorInterface *iface);

static gboolean
stream_test_monitor_init_initable (GInitable     *initable,
                                   GCancellable  *cancellable,
                                   GError       **error)
{
  return TRUE;
}

static void
stream_test_monitor_initable_iface_init (GInitableIface *iface)
{
  iface->init = stream_test_monitor_init_initable;
}

G_DEFINE_TYPE_WITH_CODE (StreamTestMonitor, stream_test_monitor, G_TYPE_OBJECT,
                         G_IMPLEMENT_INTERFACE (G_TYPE_INITABLE,
                                                stream_test_monitor_initable_iface_init)
                         G_IMPLEMENT_INTERFACE (G_TYPE_NETWORK_MONITOR,
                                                stream_test_monitor_iface_init))

G_DEFINE_AUTOPTR_CLEANUP_FUNC (StreamTestMonitor, g_object_unref)

enum { MONITOR_PROP_AVAILABLE = 1, MONITOR_PROP_METERED, MONITOR_PROP_CONNECTIVITY };

static void
stream_test_monitor_get_property (GObject    *object,
                                  guint       prop_id,
                                  GValue     *value,
                                  GParamSpec *pspec)
{
  StreamTestMonitor *self = (StreamTestMonitor *) object;

  switch (prop_id)
    {
    case MONITOR_PROP_AVAILABLE:
      g_value_set_boolean (value, self->available);
      break;
    case MONITOR_PROP_METERED:
      g_value_set_boolean (value, FALSE);
      break;
    case MONITOR_PROP_CONNECTIVITY:
      g_value_set_enum (value, self->available ? G_NETWORK_CONNECTIVITY_FULL
                                               : G_NETWORK_CONNECTIVITY_LOCAL);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static gboolean
stream_test_monitor_can_reach (GNetworkMonitor     *monitor,
                               GSocketConnectable  *connectable,
                               GCancellable        *cancellable,
                               GError             **error)
{
  return ((StreamTestMonitor *) monitor)->available;
}

static void
stream_test_monitor_iface_init (GNetworkMonitorInterface *iface)
{
  iface->can_reach = stream_test_monitor_can_reach;
}

static void
stream_test_monitor_class_init (StreamTestMonitorClass *klass)
{
  klass->get_property = stream_test_monitor_get_property;
  g_object_class_override_property (klass, MONITOR_PROP_AVAILABLE, "network-available");
  g_object_class_override_property (klass, MONITOR_PROP_METERED, "network-metered");
  g_object_class_override_property (klass, MONITOR_PROP_CONNECTIVITY, "connectivity");
}

static void
stream_test_monitor_init (StreamTestMonitor *self)
{
  self->available = TRUE;
}

static void
stream_test_monitor_set_available (StreamTestMonitor *self,
                                   gboolean           available)
{
  self->available = available;
  g_object_notify (G_OBJECT (self), "network-available");
  g_signal_emit_by_name (self, "network-changed", available);
}

#define TEST_HOST "triage.localhost"

typedef GResolver StreamTestResolver;
typedef GResolverClass StreamTestResolverClass;

GType stream_test_resolver_get_type (void);

G_DEFINE_TYPE (StreamTestResolver, stream_test_resolver, G_TYPE_RESOLVER)

static GResolver *system_resolver;

static GList *
stream_test_resolver_lookup_by_name_with_flags (GResolver                 *resolver,
                                                const char                *hostname,
                                                GResolverNameLookupFlags   flags,
                                                GCancellable              *cancellable,
                                                GError                   **error)
{
  if (g_strcmp0 (hostname, TEST_HOST) != 0)
    return g_resolver_lookup_by_name_with_flags (system_resolver, hostname, flags, cancellable, error);
  if (flags & G_RESOLVER_NAME_LOOKUP_FLAGS_IPV6_ONLY)
    {
      g_set_error (error, G_RESOLVER_ERROR, G_RESOLVER_ERROR_NOT_FOUND, "no IPv6 address");
      return NULL;
    }

  return g_list_prepend (NULL, g_inet_address_new_loopback (G_SOCKET_FAMILY_IPV4));
}

static GList *
stream_test_resolver_lookup_by_name (GResolver     *resolver,
                                     const char    *hostname,
                                     GCancellable  *cancellable,
                                     GError       **error)
{
  return stream_test_resolver_lookup_by_name_with_flags (resolver, hostname,
                                                         G_RESOLVER_NAME_LOOKUP_FLAGS_DEFAULT,
                                                         cancellable, error);
}

static void
stream_test_resolver_lookup_by_name_with_flags_async (GResolver                *resolver,
                                                      const char               *hostname,
                                                      GResolverNameLookupFlags  flags,
                                                      GCancellable             *cancellable,
                                                      GAsyncReadyCallback       callback,
                                                      gpointer                  user_data)
{
  g_autoptr(GTask) task = g_task_new (resolver, cancellable, callback, user_data);
  GError *error = NULL;
  GList *addresses;

  addresses = stream_test_resolver_lookup_by_name_with_flags (resolver, hostname, flags,
                                                              cancellable, &error);
  if (addresses != NULL)
    g_task_return_pointer (task, addresses, (GDestroyNotify) g_resolver_free_addresses);
  else
    g_task_return_error (task, error);
}

static void
stream_test_resolver_lookup_by_name_async (GResolver           *resolver,
                                           const char          *hostname,
                                           GCancellable        *cancellable,
                                           GAsyncReadyCallback  callback,
                                           gpointer             user_data)
{
  stream_test_resolver_lookup_by_name_with_flags_async (resolver, hostname,
                                                        G_RESOLVER_NAME_LOOKUP_FLAGS_DEFAULT,
                                                        cancellable, callback, user_data);
}

static GList *
stream_test_resolver_lookup_by_name_finish (GResolver     *resolver,
                                            GAsyncResult  *result,
                                            GError       **error)
{
  return g_task_propagate_pointer (G_TASK (result), error);
}

static void
stream_test_resolver_class_init (StreamTestResolverClass *klass)
{
  klass->lookup_by_name = stream_test_resolver_lookup_by_name;
  klass->lookup_by_name_async = stream_test_resolver_lookup_by_name_async;
  klass->lookup_by_name_finish = stream_test_resolver_lookup_by_name_finish;
  klass->lookup_by_name_with_flags = stream_test_resolver_lookup_by_name_with_flags;
  klass->lookup_by_name_with_flags_async = stream_test_resolver_lookup_by_name_with_flags_async;
  klass->lookup_by_name_with_flags_finish = stream_test_resolver_lookup_by_name_finish;
}

static void
stream_test_resolver_init (StreamTestResolver *self)
{
}

static const TriageTestServerOptions tls_server = { .tls = TRUE };

/* Network gone: the stream says offline; back: it connects at once, not
 * when its backoff (up to ten minutes here) would have it try. */
static void
test_network_back (StreamFixture *fixture,
                   gconstpointer  data)
{
  g_autoptr(StreamTestMonitor) monitor = g_object_new (stream_test_monitor_get_type (), NULL);
  g_autoptr(AtpClient) client = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *url = NULL;
  const char *port;
  gint64 due;

  port = strrchr (triage_test_server_get_url (fixture->net.server), ':') + 1;
  url = g_strdup_printf ("https://" TEST_HOST ":%s", port);
  client = atp_client_new (url, &error);
  g_assert_no_error (error);
  atp_client_set_token (client, fixture->net.user_token);

  atp_stream_stop (fixture->stream);
  g_assert_finalize_object (fixture->stream);
  fixture->stream = g_object_new (ATP_TYPE_STREAM,
                                  "client", client,
                                  "network-monitor", monitor,
                                  "backoff-initial-ms", 600000,
                                  "backoff-max-ms", 600000,
                                  NULL);
  g_signal_connect (fixture->stream, "notify::state", G_CALLBACK (stream_test_on_state_changed),
                    fixture);
  atp_stream_start (fixture->stream);
  stream_test_wait_state (fixture, ATP_STREAM_STATE_CONNECTED);

  /* The server goes (a network drop, as the client sees it) and stays away
   * until the next try is far off: far enough that the server's restart and
   * the reconnection fit before it on a loaded machine (under
   * AddressSanitizer beside other builds they took over 8 s). The backoff is
   * random (full jitter, 0 to 10 min): a try less than 20 s away (1 in 30)
   * fails and is followed by another; six such in a row would be needed to
   * outlast the wait. With a one-minute backoff, a third of the tries were
   * that close, and two in a row outlasted the watchdog's 30 s. */
  triage_test_server_kill (fixture->net.server);
  triage_test_wait_until_within (atp_stream_get_state (fixture->stream) ==
                                 ATP_STREAM_STATE_RECONNECTING &&
                                 atp_stream_get_next_retry_time (fixture->stream) >
                                 g_get_monotonic_time () + 20 * G_USEC_PER_SEC,
                                 "a retry more than 20 s away", 120);
  due = atp_stream_get_next_retry_time (fixture->stream);

  stream_test_monitor_set_available (monitor, FALSE);
  g_assert_cmpint (atp_stream_get_state (fixture->stream), ==, ATP_STREAM_STATE_OFFLINE);

  g_assert_true (triage_test_server_restart (fixture->net.server, &error));
  g_assert_no_error (error);
  stream_test_monitor_set_available (monitor, TRUE);
  net_test_wait_until (atp_stream_get_state (fixture->stream) == ATP_STREAM_STATE_CONNECTED,
                       "connected as the network came back");
  g_assert_cmpint (g_get_monotonic_time (), <, due);
}

/* The test certificate is the only one trusted, and triage.localhost is
 * 127.0.0.1, in this process. */
void
stream_test_use_test_host (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GTlsDatabase) trusted = triage_test_server_new_tls_database (&error);
  g_autoptr(GResolver) resolver = g_object_new (stream_test_resolver_get_type (), NULL);

  g_assert_no_error (error);
  g_tls_backend_set_default_database (g_tls_backend_get_default (), trusted);
  system_resolver = g_resolver_get_default ();
  g_resolver_set_default (resolver);
}

void
stream_test_add_network (void)
{
  STREAM_TEST_ADD ("/stream/network-back", &tls_server, test_network_back);
}
