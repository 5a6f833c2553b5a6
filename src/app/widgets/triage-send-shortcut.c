/* triage-send-shortcut.c
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "triage-send-shortcut"

#include "triage-send-shortcut.h"

/*
 * Ctrl+Return sends an answer only from where it is written: an ATP
 * response editor, an AITP view's options, an AFP review's editor, and
 * their Send buttons. A request opens with the keyboard on its heading, and
 * a Ctrl+Return held or repeated for the request before, or pressed as the
 * next one opens by itself, lands there: bound to the whole view it sent
 * an answer the person had not seen (a valid AFP draft read back, an AITP
 * option ticked before).
 */

/**
 * triage_send_shortcut_attach:
 * @widget: the part of a view where an answer is written
 * @action: (transfer full): what Ctrl+Return (or Ctrl+Enter on the keypad)
 *   does there
 *
 * Runs @action for Ctrl+Return pressed while the keyboard is inside
 * @widget, before the widget with the focus sees the key (a text view
 * would take it as a new line); nowhere else.
 */
void
triage_send_shortcut_attach (GtkWidget         *widget,
                             GtkShortcutAction *action)
{
  GtkEventController *shortcuts;
  GtkShortcutTrigger *trigger;

  g_return_if_fail (GTK_IS_WIDGET (widget));
  g_return_if_fail (GTK_IS_SHORTCUT_ACTION (action));

  shortcuts = gtk_shortcut_controller_new ();
  gtk_event_controller_set_propagation_phase (shortcuts, GTK_PHASE_CAPTURE);
  trigger = gtk_alternative_trigger_new (gtk_keyval_trigger_new (GDK_KEY_Return, GDK_CONTROL_MASK),
                                         gtk_keyval_trigger_new (GDK_KEY_KP_Enter, GDK_CONTROL_MASK));
  gtk_shortcut_controller_add_shortcut (GTK_SHORTCUT_CONTROLLER (shortcuts),
                                        gtk_shortcut_new (trigger, action));
  gtk_widget_add_controller (widget, shortcuts);
}
