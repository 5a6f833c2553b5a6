/* triage-tray-item.h
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib-object.h>

G_BEGIN_DECLS

/**
 * TriageTrayItem:
 * @id: the notification id, the parameter of the `open-request` action
 * @title: the request's title (untrusted; the tray makes it safe for a menu label)
 * @deadline: (nullable): its deadline
 *
 * A pending request as listed in the tray menu.
 */
typedef struct
{
  char      *id;
  char      *title;
  GDateTime *deadline;
} TriageTrayItem;

#define TRIAGE_TYPE_TRAY_ITEM (triage_tray_item_get_type ())

GType           triage_tray_item_get_type (void) G_GNUC_CONST;
TriageTrayItem *triage_tray_item_new      (const char           *id,
                                           const char           *title,
                                           GDateTime            *deadline);
TriageTrayItem *triage_tray_item_copy     (const TriageTrayItem *item);
void            triage_tray_item_free     (TriageTrayItem       *item);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (TriageTrayItem, triage_tray_item_free)

G_END_DECLS
