/* triage-pg-addresses.h — the host names of a PostgreSQL URI looked up, as
 * libpq's host, hostaddr and port lists
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef struct _TriagePgAddresses TriagePgAddresses;

TriagePgAddresses *triage_pg_addresses_look_up      (const char * const *hosts,
                                                     const char * const *ports,
                                                     const char         *last_host,
                                                     const char         *last_address);
guint              triage_pg_addresses_get_n        (TriagePgAddresses  *self);
char              *triage_pg_addresses_dup_hosts    (TriagePgAddresses  *self);
char              *triage_pg_addresses_dup_hostaddrs (TriagePgAddresses *self);
char              *triage_pg_addresses_dup_ports    (TriagePgAddresses  *self);
char              *triage_pg_addresses_name         (TriagePgAddresses  *self,
                                                     const char         *message);
void               triage_pg_addresses_free         (TriagePgAddresses  *self);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (TriagePgAddresses, triage_pg_addresses_free)

G_END_DECLS
