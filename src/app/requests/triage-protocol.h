/* triage-protocol.h
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>

#include "atp.h"

G_BEGIN_DECLS

/* A bubble has room for this many answers beside Open. */
#define TRIAGE_BUBBLE_MAX_ANSWERS 3

/**
 * TriageBubbleAnswer:
 * @key: what the bubble's button gives back when pressed (see
 *   triage_protocol_get_bubble_answer()); unique within a request
 * @label: the button's label, plain text
 * @cut: whether @label had to be cut to fit a button
 *
 * One answer a bubble offers as a button.
 */
typedef struct
{
  char     *key;
  char     *label;
  gboolean  cut;
} TriageBubbleAnswer;

TriageBubbleAnswer *triage_bubble_answer_new  (const char         *key,
                                               const char         *label);
void                triage_bubble_answer_free (TriageBubbleAnswer *answer);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (TriageBubbleAnswer, triage_bubble_answer_free)

#define TRIAGE_TYPE_PROTOCOL (triage_protocol_get_type ())

G_DECLARE_INTERFACE (TriageProtocol, triage_protocol, TRIAGE, PROTOCOL, GObject)

/**
 * TRIAGE_DEFINE_PROTOCOL:
 * @TypeName: the implementation's type, e.g. `TriageAfpProtocol`
 * @type_name: its prefix, e.g. `triage_afp_protocol`
 *
 * Defines an implementation of #TriageProtocol, a stateless singleton: its
 * instance struct, its final type (implementing the interface with
 * `type_name_iface_init()`, which the file defines) and
 * `type_name_get_default()`, which returns (transfer none) the one instance.
 */
#define TRIAGE_DEFINE_PROTOCOL(TypeName, type_name)                                     \
  struct _##TypeName                                                                    \
  {                                                                                     \
    GObject parent_instance;                                                            \
  };                                                                                    \
                                                                                        \
  static void type_name##_iface_init (TriageProtocolInterface *iface);                  \
                                                                                        \
  G_DEFINE_FINAL_TYPE_WITH_CODE (TypeName, type_name, G_TYPE_OBJECT,                    \
                                 G_IMPLEMENT_INTERFACE (TRIAGE_TYPE_PROTOCOL,           \
                                                        type_name##_iface_init))        \
                                                                                        \
  static void type_name##_class_init (TypeName##Class *klass) { }                       \
                                                                                        \
  static void type_name##_init (TypeName *self) { }                                     \
                                                                                        \
  TriageProtocol *                                                                      \
  type_name##_get_default (void)                                                        \
  {                                                                                     \
    static TriageProtocol *protocol;                                                    \
                                                                                        \
    if (g_once_init_enter (&protocol))                                                  \
      g_once_init_leave (&protocol, g_object_new (type_name##_get_type (), NULL));      \
                                                                                        \
    return protocol;                                                                    \
  }

/**
 * TriageProtocolInterface:
 * @get_protocol: which protocol this is
 * @get_mark: a short mark shown beside the service in lists (inbox, tray,
 *   bubble, history), or %NULL for none (ATP, the app's native protocol)
 * @get_display_name: the protocol's name for a tooltip or a screen reader
 * @dup_headline: what a bubble says the request is (optional: the request's
   title; AFP: "Review requested: …")
 * @dup_bubble_answers: the answers a bubble may offer as buttons (each
 *   needs no input and no confirmation); none: the bubble only opens the
 *   request
 * @get_bubble_answer: the answer a bubble button gives
 * @needs_confirmation: whether an answer must be confirmed before it leaves
 * @validate_answer: checks an answer exactly as the server will, before it
 *   enters the outbox
 * @describe_answer: an answer in words, for the history, the export and
 *   the banners
 *
 * What differs between the protocols a request may arrive in
 * (docs/architecture.md). Every method takes the request's envelope; the
 * protocol reads its own part (ATP's actions, another protocol's payload).
 * Implementations are stateless singletons, usable from any thread.
 */
struct _TriageProtocolInterface
{
  GTypeInterface parent_iface;

  AtpProtocol  (*get_protocol)       (TriageProtocol   *self);
  const char  *(*get_mark)           (TriageProtocol   *self);
  const char  *(*get_display_name)   (TriageProtocol   *self);
  char        *(*dup_headline)       (TriageProtocol   *self,
                                      AtpNotification  *request);
  GPtrArray   *(*dup_bubble_answers) (TriageProtocol   *self,
                                      AtpNotification  *request);
  gboolean     (*get_bubble_answer)  (TriageProtocol   *self,
                                      AtpNotification  *request,
                                      const char       *key,
                                      char            **action_id,
                                      JsonNode        **response_data,
                                      GError          **error);
  gboolean     (*needs_confirmation) (TriageProtocol   *self,
                                      AtpNotification  *request,
                                      const char       *action_id,
                                      JsonNode         *response_data);
  gboolean     (*validate_answer)    (TriageProtocol   *self,
                                      AtpNotification  *request,
                                      const char       *action_id,
                                      JsonNode         *response_data,
                                      GError          **error);
  char        *(*describe_answer)    (TriageProtocol   *self,
                                      AtpNotification  *request,
                                      const char       *action_id,
                                      JsonNode         *response_data);
};

/* The implementations */

TriageProtocol *triage_protocol_get                (AtpProtocol       protocol);
TriageProtocol *triage_protocol_for_request        (AtpNotification  *request);
guint           triage_protocol_get_supported_mask (void);

/* The interface */

AtpProtocol     triage_protocol_get_protocol       (TriageProtocol   *self);
const char     *triage_protocol_get_mark           (TriageProtocol   *self);
const char     *triage_protocol_get_display_name   (TriageProtocol   *self);
char           *triage_protocol_dup_headline       (TriageProtocol   *self,
                                                    AtpNotification  *request);
GPtrArray      *triage_protocol_dup_bubble_answers (TriageProtocol   *self,
                                                    AtpNotification  *request);
gboolean        triage_protocol_get_bubble_answer  (TriageProtocol   *self,
                                                    AtpNotification  *request,
                                                    const char       *key,
                                                    char            **action_id,
                                                    JsonNode        **response_data,
                                                    GError          **error);
gboolean        triage_protocol_needs_confirmation (TriageProtocol   *self,
                                                    AtpNotification  *request,
                                                    const char       *action_id,
                                                    JsonNode         *response_data);
gboolean        triage_protocol_validate_answer    (TriageProtocol   *self,
                                                    AtpNotification  *request,
                                                    const char       *action_id,
                                                    JsonNode         *response_data,
                                                    GError          **error);
char           *triage_protocol_describe_answer    (TriageProtocol   *self,
                                                    AtpNotification  *request,
                                                    const char       *action_id,
                                                    JsonNode         *response_data);

char           *triage_protocol_dup_marked         (AtpProtocol       protocol,
                                                    const char       *text);
JsonNode       *triage_protocol_get_payload        (AtpNotification  *request,
                                                    AtpProtocol       protocol,
                                                    const char       *what,
                                                    GError          **error);

G_END_DECLS
