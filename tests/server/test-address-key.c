/* test-address-key.c — the key of an address's limits (triage-server-limits.c)
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Wrong admin tokens, and registrations, were counted per address as
 * libsoup wrote it: an IPv6 host, which usually has a whole /64, drew a
 * fresh allowance from each address it rotated to. They are counted by the
 * /64 now, as the open connections were; an IPv4 address (an IPv4-mapped
 * one, from a dual-stack socket, too) is its own key. The machine has no
 * second address of one /64 to connect from: the addresses are made here.
 */

#include "triage-server-private.h"

static char *
key_of (const char *text)
{
  g_autoptr(GInetAddress) address = g_inet_address_new_from_string (text);

  g_assert_nonnull (address);
  return triage_server_address_key (address);
}

static void
test_ipv6_by_64 (void)
{
  const char * const same[] = {
    "2001:db8:1:2::1", "2001:db8:1:2::2", "2001:db8:1:2:ffff:ffff:ffff:ffff",
    "2001:db8:1:2:a:b:c:d", "2001:DB8:1:2::abcd",
  };
  const char * const apart[] = { "2001:db8:1:3::1", "2001:db8:1::1", "2001:db9:1:2::1", "::1" };
  g_autofree char *first = key_of (same[0]);

  g_assert_cmpstr (first, ==, "2001:0db8:0001:0002::/64");
  for (guint i = 1; i < G_N_ELEMENTS (same); i++)
    {
      g_autofree char *key = key_of (same[i]);

      g_assert_cmpstr (key, ==, first);
    }
  for (guint i = 0; i < G_N_ELEMENTS (apart); i++)
    {
      g_autofree char *key = key_of (apart[i]);

      g_assert_cmpstr (key, !=, first);
    }
}

static void
test_loopback_and_ipv4 (void)
{
  g_autofree char *loopback = key_of ("::1");
  g_autofree char *v4 = key_of ("192.0.2.7");
  g_autofree char *mapped = key_of ("::ffff:192.0.2.7");
  g_autofree char *other_v4 = key_of ("192.0.2.8");
  g_autofree char *local_v4 = key_of ("127.0.0.1");

  g_assert_cmpstr (loopback, ==, "0000:0000:0000:0000::/64");
  g_assert_cmpstr (v4, ==, "192.0.2.7");
  g_assert_cmpstr (mapped, ==, "192.0.2.7");
  g_assert_cmpstr (other_v4, ==, "192.0.2.8");
  g_assert_cmpstr (local_v4, ==, "127.0.0.1");
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/server/address-key/ipv6-by-64", test_ipv6_by_64);
  g_test_add_func ("/server/address-key/loopback-and-ipv4", test_loopback_and_ipv4);
  return g_test_run ();
}
