/* triage-tray-item.c
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "triage-tray"

#include "triage-tray-item.h"

G_DEFINE_BOXED_TYPE (TriageTrayItem, triage_tray_item, triage_tray_item_copy, triage_tray_item_free)

/**
 * triage_tray_item_new:
 * @id: the request id
 * @title: its title
 * @deadline: (nullable): its deadline
 *
 * Returns: (transfer full): a new #TriageTrayItem
 */
TriageTrayItem *
triage_tray_item_new (const char *id,
                      const char *title,
                      GDateTime  *deadline)
{
  TriageTrayItem *item;

  g_return_val_if_fail (id != NULL, NULL);

  item = g_new0 (TriageTrayItem, 1);
  item->id = g_strdup (id);
  item->title = g_strdup (title ? title : "");
  item->deadline = deadline ? g_date_time_ref (deadline) : NULL;

  return item;
}

TriageTrayItem *
triage_tray_item_copy (const TriageTrayItem *item)
{
  g_return_val_if_fail (item != NULL, NULL);

  return triage_tray_item_new (item->id, item->title, item->deadline);
}

void
triage_tray_item_free (TriageTrayItem *item)
{
  if (item == NULL)
    return;

  g_free (item->id);
  g_free (item->title);
  g_clear_pointer (&item->deadline, g_date_time_unref);
  g_free (item);
}
