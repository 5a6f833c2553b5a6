/* triage-inbox-model.c
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "triage-inbox-model"

#include "triage-inbox-model.h"

/*
 * The pending requests as a GListModel of TriageRequest, kept in inbox order
 * (triage_request_compare(): deadline, then age). Fed by the stream, the
 * resync and the store; a request leaves when it is answered, expires or is
 * withdrawn. An index by id keeps updates from the stream cheap.
 *
 * A resync or the store's load adds thousands at once: held
 * (triage_inbox_model_hold()), the changes are told as one items-changed
 * when released, over the range that differs. One by one, each moved every
 * row below it in the window's list, which rebound them all: 10,000 pending
 * took the app 29 s of CPU (bench/app's full day). A request refreshed in
 * place with another title, description, service or project is in that
 * range too: the list's search and filters go by those.
 *
 * :n-waiting counts what waits for the person: the requests not answered
 * here, or whose answer the server refused. One answered here stays listed until the server has the answer (its
 * row says where the answer stands), but no longer waits for anyone; the
 * window's badge and the tray count those waiting (docs/protocol.md).
 */

struct _TriageInboxModel
{
  GObject     parent_instance;

  GPtrArray  *items;     /* TriageRequest*, sorted */
  GHashTable *by_id;     /* id (owned by the request) -> TriageRequest* */

  GHashTable *answered;  /* TriageRequest* of the items answered here (not waiting) */
  guint       n_waiting; /* items not answered here, as last told */
  guint       holds;     /* triage_inbox_model_hold() calls not yet released */
  GPtrArray  *told;      /* while held: the items as last told (references) */
  GHashTable *refreshed; /* while held: TriageRequest* whose searched text changed */
};

static GType
triage_inbox_model_get_item_type (GListModel *model)
{
  return TRIAGE_TYPE_REQUEST;
}

static guint
triage_inbox_model_get_n_items (GListModel *model)
{
  return TRIAGE_INBOX_MODEL (model)->items->len;
}

static gpointer
triage_inbox_model_get_item (GListModel *model,
                             guint       position)
{
  TriageInboxModel *self = TRIAGE_INBOX_MODEL (model);

  if (position >= self->items->len)
    return NULL;

  return g_object_ref (g_ptr_array_index (self->items, position));
}

static void
list_model_iface_init (GListModelInterface *iface)
{
  iface->get_item_type = triage_inbox_model_get_item_type;
  iface->get_n_items = triage_inbox_model_get_n_items;
  iface->get_item = triage_inbox_model_get_item;
}

G_DEFINE_FINAL_TYPE_WITH_CODE (TriageInboxModel, triage_inbox_model, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (G_TYPE_LIST_MODEL, list_model_iface_init))

enum {
  PROP_0,
  PROP_N_ITEMS,
  PROP_N_WAITING,
  N_PROPS
};

static GParamSpec *properties [N_PROPS];

static void
triage_inbox_model_finalize (GObject *object)
{
  TriageInboxModel *self = (TriageInboxModel *)object;

  g_clear_pointer (&self->by_id, g_hash_table_unref);
  g_clear_pointer (&self->answered, g_hash_table_unref);
  g_clear_pointer (&self->items, g_ptr_array_unref);
  g_clear_pointer (&self->told, g_ptr_array_unref);
  g_clear_pointer (&self->refreshed, g_hash_table_unref);

  G_OBJECT_CLASS (triage_inbox_model_parent_class)->finalize (object);
}

static void
triage_inbox_model_get_property (GObject    *object,
                                 guint       prop_id,
                                 GValue     *value,
                                 GParamSpec *pspec)
{
  TriageInboxModel *self = TRIAGE_INBOX_MODEL (object);

  switch (prop_id)
    {
    case PROP_N_ITEMS:
      g_value_set_uint (value, self->items->len);
      break;

    case PROP_N_WAITING:
      g_value_set_uint (value, self->n_waiting);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
triage_inbox_model_class_init (TriageInboxModelClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = triage_inbox_model_finalize;
  object_class->get_property = triage_inbox_model_get_property;

  properties [PROP_N_ITEMS] =
    g_param_spec_uint ("n-items", NULL, NULL, 0, G_MAXUINT, 0,
                       (G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));

  /**
   * TriageInboxModel:n-waiting:
   *
   * How many requests wait for the person: those not answered here (an
   * answer given here and still in the outbox waits for the server, not
   * for the person; one the server refused waits for another). Told with
   * the changes, so not while held.
   */
  properties [PROP_N_WAITING] =
    g_param_spec_uint ("n-waiting", NULL, NULL, 0, G_MAXUINT, 0,
                       (G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));

  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
triage_inbox_model_init (TriageInboxModel *self)
{
  self->items = g_ptr_array_new_with_free_func (g_object_unref);
  self->by_id = g_hash_table_new (g_str_hash, g_str_equal);
  self->answered = g_hash_table_new (NULL, NULL);
}

TriageInboxModel *
triage_inbox_model_new (void)
{
  return g_object_new (TRIAGE_TYPE_INBOX_MODEL, NULL);
}

/* Tells a new number waiting (not while held). */
static void
tell_n_waiting (TriageInboxModel *self)
{
  guint n = self->items->len - g_hash_table_size (self->answered);

  if (self->holds > 0 || n == self->n_waiting)
    return;

  self->n_waiting = n;
  g_object_notify_by_pspec (G_OBJECT (self), properties [PROP_N_WAITING]);
}

/* An item answered here, or its answer refused and it waits again. */
static void
on_answer_state_changed (TriageInboxModel *self,
                         GParamSpec       *pspec,
                         TriageRequest    *request)
{
  TriageAnswerState state = triage_request_get_answer_state (request);

  if (state == TRIAGE_ANSWER_NONE || state == TRIAGE_ANSWER_FAILED)
    g_hash_table_remove (self->answered, request);
  else
    g_hash_table_add (self->answered, request);
  tell_n_waiting (self);
}

/* Tells a change now, or once released when held. */
static void
changed (TriageInboxModel *self,
         guint             position,
         guint             removed,
         guint             added)
{
  if (self->holds > 0)
    return;

  g_list_model_items_changed (G_LIST_MODEL (self), position, removed, added);
  if (removed != added)
    g_object_notify_by_pspec (G_OBJECT (self), properties [PROP_N_ITEMS]);
  tell_n_waiting (self);
}

static gpointer
ref_item (gconstpointer item,
          gpointer      data)
{
  return g_object_ref ((gpointer) item);
}

/**
 * triage_inbox_model_hold:
 * @self: a #TriageInboxModel
 *
 * Keeps the changes that follow from being told one by one, until the
 * matching triage_inbox_model_release(). The model itself (its items, their
 * order, lookups) is up to date all along; only its signals wait.
 */
void
triage_inbox_model_hold (TriageInboxModel *self)
{
  g_return_if_fail (TRIAGE_IS_INBOX_MODEL (self));

  if (self->holds++ > 0)
    return;

  /* With references: an item removed meanwhile must not be mistaken for a
   * new one that the allocator put at its address. */
  self->told = g_ptr_array_copy (self->items, ref_item, NULL);
  g_ptr_array_set_free_func (self->told, g_object_unref);
  self->refreshed = g_hash_table_new_full (NULL, NULL, g_object_unref, NULL);
}

/* The same in the told and the current items, and not refreshed meanwhile. */
static gboolean
unchanged (TriageInboxModel *self,
           GPtrArray        *told,
           guint             told_index,
           guint             index,
           GHashTable       *refreshed)
{
  gpointer item = self->items->pdata[index];

  return told->pdata[told_index] == item && !g_hash_table_contains (refreshed, item);
}

/**
 * triage_inbox_model_release:
 * @self: a #TriageInboxModel
 *
 * Ends a triage_inbox_model_hold(); the last one tells what changed while
 * held as one items-changed over the range between the unchanged start and
 * end (a request shown or selected outside it stays where it was).
 */
void
triage_inbox_model_release (TriageInboxModel *self)
{
  g_autoptr(GPtrArray) told = NULL;
  g_autoptr(GHashTable) refreshed = NULL;
  guint start = 0;
  guint end = 0;

  g_return_if_fail (TRIAGE_IS_INBOX_MODEL (self));
  g_return_if_fail (self->holds > 0);

  if (--self->holds > 0)
    return;

  told = g_steal_pointer (&self->told);
  refreshed = g_steal_pointer (&self->refreshed);
  while (start < told->len && start < self->items->len &&
         unchanged (self, told, start, start, refreshed))
    start++;
  while (end < told->len - start && end < self->items->len - start &&
         unchanged (self, told, told->len - 1 - end, self->items->len - 1 - end, refreshed))
    end++;

  if (start + end < MAX (told->len, self->items->len))
    changed (self, start, told->len - start - end, self->items->len - start - end);
  else
    tell_n_waiting (self);   /* answered here meanwhile, nothing moved */
}

gboolean
triage_inbox_model_is_held (TriageInboxModel *self)
{
  g_return_val_if_fail (TRIAGE_IS_INBOX_MODEL (self), FALSE);

  return self->holds > 0;
}

/* Where @request belongs (binary search, the first index whose item sorts after it). */
static guint
insertion_point (TriageInboxModel *self,
                 TriageRequest    *request)
{
  guint lo = 0;
  guint hi = self->items->len;

  /* A resync lists the oldest first, which mostly go last: one comparison
   * instead of the search's fourteen for each of 10,000. */
  if (hi > 0 && triage_request_compare (g_ptr_array_index (self->items, hi - 1), request) < 0)
    return hi;

  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;

      if (triage_request_compare (g_ptr_array_index (self->items, mid), request) < 0)
        lo = mid + 1;
      else
        hi = mid;
    }

  return lo;
}

gboolean
triage_inbox_model_find (TriageInboxModel *self,
                         const char       *notification_id,
                         guint            *position)
{
  TriageRequest *request;
  guint pos;

  g_return_val_if_fail (TRIAGE_IS_INBOX_MODEL (self), FALSE);
  g_return_val_if_fail (notification_id != NULL, FALSE);

  request = g_hash_table_lookup (self->by_id, notification_id);
  if (request == NULL)
    return FALSE;

  /* The sorted position is found by search; the items are unique. */
  pos = insertion_point (self, request);
  g_assert (pos < self->items->len && g_ptr_array_index (self->items, pos) == request);

  if (position != NULL)
    *position = pos;

  return TRUE;
}

/* @a and @b differ in what the inbox searches and filters by. */
static gboolean
searched_text_differs (AtpNotification *a,
                       AtpNotification *b)
{
  return g_strcmp0 (a->context.title, b->context.title) != 0 ||
         g_strcmp0 (a->context.description, b->context.description) != 0 ||
         g_strcmp0 (a->service.name, b->service.name) != 0 ||
         g_strcmp0 (a->context.project, b->context.project) != 0;
}

/**
 * triage_inbox_model_add:
 * @self: a #TriageInboxModel
 * @notification: a pending request
 * @is_new: (out) (optional): set to %TRUE if it was not in the model yet
 *
 * Adds a request in inbox order, or refreshes the one with the same id.
 *
 * Returns: (transfer none): the request in the model
 */
TriageRequest *
triage_inbox_model_add (TriageInboxModel *self,
                        AtpNotification  *notification,
                        gboolean         *is_new)
{
  TriageRequest *request;
  guint old_pos;
  guint pos;

  g_return_val_if_fail (TRIAGE_IS_INBOX_MODEL (self), NULL);
  g_return_val_if_fail (notification != NULL, NULL);

  if (triage_inbox_model_find (self, notification->id, &old_pos))
    {
      request = g_ptr_array_index (self->items, old_pos);
      if (is_new != NULL)
        *is_new = FALSE;

      /* The sort keys (deadline, timestamp) may have changed: move it if so. */
      g_ptr_array_steal_index (self->items, old_pos);
      /* The index key is the id string of the old notification: re-key it. */
      g_hash_table_steal (self->by_id, notification->id);
      if (self->holds > 0 &&
          searched_text_differs (triage_request_get_notification (request), notification))
        g_hash_table_add (self->refreshed, g_object_ref (request));
      triage_request_set_notification (request, notification);
      g_hash_table_insert (self->by_id, (gpointer) triage_request_get_id (request), request);
      pos = insertion_point (self, request);
      g_ptr_array_insert (self->items, pos, request);

      if (pos == old_pos)
        changed (self, pos, 1, 1);
      else if (self->holds == 0)
        {
          /* One move: the count stays, so n-items is not notified. */
          g_list_model_items_changed (G_LIST_MODEL (self), old_pos, 1, 0);
          g_list_model_items_changed (G_LIST_MODEL (self), pos, 0, 1);
        }

      return request;
    }

  request = triage_request_new (notification);
  g_signal_connect_object (request, "notify::answer-state",
                           G_CALLBACK (on_answer_state_changed), self, G_CONNECT_SWAPPED);
  pos = insertion_point (self, request);
  g_ptr_array_insert (self->items, pos, request);
  g_hash_table_insert (self->by_id, (gpointer) triage_request_get_id (request), request);

  if (is_new != NULL)
    *is_new = TRUE;

  changed (self, pos, 0, 1);

  return request;
}

/**
 * triage_inbox_model_lookup:
 *
 * Returns: (transfer none) (nullable): the request with that id
 */
TriageRequest *
triage_inbox_model_lookup (TriageInboxModel *self,
                           const char       *notification_id)
{
  g_return_val_if_fail (TRIAGE_IS_INBOX_MODEL (self), NULL);
  g_return_val_if_fail (notification_id != NULL, NULL);

  return g_hash_table_lookup (self->by_id, notification_id);
}

/**
 * triage_inbox_model_remove:
 *
 * Returns: (transfer full) (nullable): the request removed, %NULL if there was none
 */
TriageRequest *
triage_inbox_model_remove (TriageInboxModel *self,
                           const char       *notification_id)
{
  TriageRequest *request;
  guint pos;

  g_return_val_if_fail (TRIAGE_IS_INBOX_MODEL (self), NULL);
  g_return_val_if_fail (notification_id != NULL, NULL);

  if (!triage_inbox_model_find (self, notification_id, &pos))
    return NULL;

  request = g_ptr_array_steal_index (self->items, pos);
  g_hash_table_remove (self->by_id, notification_id);
  g_signal_handlers_disconnect_by_data (request, self);
  g_hash_table_remove (self->answered, request);

  changed (self, pos, 1, 0);

  return request;
}

/**
 * triage_inbox_model_get_n_waiting:
 * @self: a #TriageInboxModel
 *
 * Returns: how many requests wait for the person (#TriageInboxModel:n-waiting)
 */
guint
triage_inbox_model_get_n_waiting (TriageInboxModel *self)
{
  g_return_val_if_fail (TRIAGE_IS_INBOX_MODEL (self), 0);

  return self->n_waiting;
}

/**
 * triage_inbox_model_count_urgent:
 * @self: a #TriageInboxModel
 * @now: (nullable): the time to judge by, %NULL for now
 *
 * Returns: how many of the requests waiting for the person are urgent
 */
guint
triage_inbox_model_count_urgent (TriageInboxModel *self,
                                 GDateTime        *now)
{
  guint count = 0;

  g_return_val_if_fail (TRIAGE_IS_INBOX_MODEL (self), 0);

  for (guint i = 0; i < self->items->len; i++)
    {
      TriageRequest *request = g_ptr_array_index (self->items, i);

      if (!g_hash_table_contains (self->answered, request) &&
          triage_request_is_urgent (request, now))
        count++;
    }

  return count;
}

/**
 * triage_inbox_model_dup_ids:
 *
 * Returns: (transfer container) (element-type utf8): the ids, in order
 */
GPtrArray *
triage_inbox_model_dup_ids (TriageInboxModel *self)
{
  GPtrArray *ids = g_ptr_array_new_with_free_func (g_free);

  g_return_val_if_fail (TRIAGE_IS_INBOX_MODEL (self), ids);

  for (guint i = 0; i < self->items->len; i++)
    g_ptr_array_add (ids, g_strdup (triage_request_get_id (g_ptr_array_index (self->items, i))));

  return ids;
}
