/* atp-client-pending.c — every pending notification, page after page, the next asked for ahead
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "atp-client"

#include <libsoup/soup.h>

#include "atp-client-private.h"
#include "atp-error.h"

/*
 * A resync lists the whole pending set, oldest first. A page's cursor is at
 * the end of its JSON, so a client that waits for it has the server idle
 * while it parses the page, and itself idle while the server makes the next
 * one (10,000 pending: ten pages, each a wait for the other). triage-server
 * also sends the cursor as the header X-Triage-Next-Cursor: as soon as a
 * page's headers are in, the next one is asked for, and made while this one
 * is read and parsed.
 * The pages are still taken in their order. A server without the header is
 * read one page after the other, as before.
 * A paged list (the stream's resync) hands each page on as it is taken in,
 * so the owner works on one page while the next is made and read, instead
 * of on all 10,000 once the last is in.
 *
 * The pages are made one after the other, and the first and the last are
 * waited for with nothing else to do: the first is made before anything can
 * be read, the last read and parsed once the server is done. So the first
 * page is small (ATP's 100: the window has its first requests and the server
 * counts the total at once), and once the first page's total_count tells how
 * many remain, the pages shrink towards the end (half of what remains, down
 * to LAST_PAGE_LIMIT), so the last one is quick to read and parse. 10,000
 * pending: 120 ms of the first page and 80 ms of the last one's parse were
 * 20 % of the wait for the inbox (bench/app's full day). The sizes only
 * shape the pages; has_more and the cursors still decide what is read.
 */

#define NEXT_CURSOR_HEADER "X-Triage-Next-Cursor"
#define LAST_PAGE_LIMIT    200

typedef struct
{
  AtpNotificationPage *page;    /* once answered */
  GError              *error;   /* or this */
  gboolean             answered;
  guint                limit;   /* asked for */
} Page;

typedef struct
{
  GPtrArray  *items;
  GHashTable *seen;
  char       *cursor;   /* of the page taken in next; "" for the first */
  guint       limit;    /* the largest page asked for */
  gint64      total;    /* the first page's total_count, or -1 */
  guint64     received; /* items in the pages taken in */
  GHashTable *pages;    /* cursor → Page*: asked for, not yet taken in */
  gboolean    returned;
  AtpClientPageFunc page_func;   /* or NULL */
  gpointer          page_data;
} ListPending;

static void
page_free (Page *page)
{
  g_clear_pointer (&page->page, atp_notification_page_unref);
  g_clear_error (&page->error);
  g_free (page);
}

static void
list_pending_free (ListPending *state)
{
  g_ptr_array_unref (state->items);
  g_hash_table_unref (state->seen);
  g_hash_table_unref (state->pages);
  g_free (state->cursor);
  g_free (state);
}

static void ask (GTask      *task,
                 const char *cursor);

static void
return_error (GTask  *task,
              GError *error)
{
  ListPending *state = g_task_get_task_data (task);

  state->returned = TRUE;
  g_task_return_error (task, error);
}

/* Takes in the pages that are answered, in their order, while the next one is. */
static void
take_in (GTask *task)
{
  ListPending *state = g_task_get_task_data (task);
  AtpClient *self = g_task_get_source_object (task);
  Page *page;
  guint from;

  while (!state->returned &&
         (page = g_hash_table_lookup (state->pages, state->cursor)) != NULL && page->answered)
    {
      g_autoptr(AtpNotificationPage) answer = g_steal_pointer (&page->page);
      g_autoptr(GError) error = g_steal_pointer (&page->error);

      g_hash_table_remove (state->pages, state->cursor);
      if (answer == NULL && state->limit > ATP_CLIENT_ATP_PAGE_LIMIT &&
          error->domain == ATP_ERROR && atp_error_code_http_status (error->code) == 400)
        {
          /* A server that keeps to ATP's 100: the same page again, that size.
           * Whatever its 400 says (INVALID_PARAMETER; INVALID_FIELD_VALUE from
           * an older triage-server; another ATP server's own code, or none). */
          state->limit = ATP_CLIENT_ATP_PAGE_LIMIT;
          ask (task, state->cursor);
          return;
        }
      if (answer == NULL)
        {
          return_error (task, g_steal_pointer (&error));
          return;
        }

      if (state->total < 0)
        state->total = answer->total_count;
      state->received += answer->notifications->len;
      from = state->items->len;
      for (guint i = 0; i < answer->notifications->len; i++)
        {
          AtpNotification *notification = g_ptr_array_index (answer->notifications, i);

          if (g_hash_table_contains (state->seen, notification->id))
            continue;
          g_hash_table_add (state->seen, g_strdup (notification->id));
          g_ptr_array_add (state->items, atp_notification_ref (notification));
        }
      if (state->page_func != NULL && state->items->len > from)
        {
          GError *error_cancelled = NULL;

          /* Any code of the owner's runs here, which may end the list. */
          state->page_func (state->items, from, state->page_data);
          if (g_cancellable_set_error_if_cancelled (g_task_get_cancellable (task), &error_cancelled))
            {
              return_error (task, error_cancelled);
              return;
            }
        }

      if (!answer->has_more)
        {
          state->returned = TRUE;
          g_task_return_pointer (task, g_ptr_array_ref (state->items),
                                 (GDestroyNotify) g_ptr_array_unref);
          return;
        }
      if (answer->next_cursor == NULL || g_strcmp0 (answer->next_cursor, state->cursor) == 0)
        {
          return_error (task, g_error_new (ATP_ERROR, ATP_ERROR_PROTOCOL,
                                           "%s says more notifications follow but gives no new "
                                           "cursor", atp_client_get_display_name (self)));
          return;
        }
      if (state->items->len >= ATP_CLIENT_MAX_PENDING_ITEMS)
        {
          return_error (task, g_error_new (ATP_ERROR, ATP_ERROR_PROTOCOL,
                                           "%s lists more than %d pending notifications",
                                           atp_client_get_display_name (self),
                                           ATP_CLIENT_MAX_PENDING_ITEMS));
          return;
        }

      g_free (state->cursor);
      state->cursor = g_strdup (answer->next_cursor);
      if (!g_hash_table_contains (state->pages, state->cursor))
        ask (task, state->cursor);
    }
}

/* One page asked for. */
typedef struct
{
  GTask *task;
  char  *cursor;
} Asked;

static void
page_cb (GObject      *object,
         GAsyncResult *result,
         gpointer      user_data)
{
  Asked *asked = user_data;
  g_autoptr(GTask) task = asked->task;
  g_autofree char *cursor = asked->cursor;
  ListPending *state = g_task_get_task_data (task);
  GError *error = NULL;
  AtpNotificationPage *answer;
  Page *page;

  g_free (asked);
  answer = atp_client_list_notifications_finish (ATP_CLIENT (object), result, &error);
  page = state->returned ? NULL : g_hash_table_lookup (state->pages, cursor);
  if (page == NULL)
    {
      /* The list ended (failed) before this page came. */
      g_clear_pointer (&answer, atp_notification_page_unref);
      g_clear_error (&error);
      return;
    }
  page->page = answer;
  page->error = error;
  page->answered = TRUE;
  take_in (task);
}

/* The page is on its way: the next one is asked for now, so the server makes
 * it while this one is read and parsed. */
static void
on_got_headers (SoupMessage *message,
             GTask       *task)
{
  ListPending *state = g_task_get_task_data (task);
  const char *next;

  if (state->returned || !SOUP_STATUS_IS_SUCCESSFUL (soup_message_get_status (message)))
    return;
  next = soup_message_headers_get_one (soup_message_get_response_headers (message),
                                       NEXT_CURSOR_HEADER);
  if (next != NULL && *next != '\0' && !g_hash_table_contains (state->pages, next) &&
      g_strcmp0 (next, state->cursor) != 0)
    ask (task, next);
}

/* The size of the page asked for next (see the top of this file). */
static guint
next_limit (ListPending *state,
            const char  *cursor)
{
  GHashTableIter iter;
  Page *page;
  gint64 remaining;

  if (*cursor == '\0')
    return MIN (state->limit, ATP_CLIENT_ATP_PAGE_LIMIT);
  if (state->total < 0)
    return state->limit;

  remaining = state->total - (gint64) state->received;
  g_hash_table_iter_init (&iter, state->pages);
  while (g_hash_table_iter_next (&iter, NULL, (gpointer *) &page))
    remaining -= page->limit;
  if (remaining <= 2 * LAST_PAGE_LIMIT)
    return MIN (state->limit, LAST_PAGE_LIMIT * 2);
  return (guint) CLAMP (remaining / 2, LAST_PAGE_LIMIT, (gint64) state->limit);
}

static void
ask (GTask      *task,
     const char *cursor)
{
  ListPending *state = g_task_get_task_data (task);
  AtpClient *self = g_task_get_source_object (task);
  Page *page = g_new0 (Page, 1);
  AtpListQuery query = {
    .status = "pending",
    .cursor = *cursor != '\0' ? cursor : NULL,
    .limit = page->limit = next_limit (state, cursor),
    .oldest_first = TRUE,
  };
  SoupMessage *message = atp_client_new_list_message (self, &query);
  Asked *asked = g_new0 (Asked, 1);

  asked->task = g_object_ref (task);
  asked->cursor = g_strdup (cursor);
  g_hash_table_insert (state->pages, g_strdup (cursor), page);
  g_signal_connect_object (message, "got-headers", G_CALLBACK (on_got_headers), task, 0);
  atp_client_start_list (self, message, g_task_get_cancellable (task), page_cb, asked);
}

void
atp_client_list_pending_async (AtpClient           *self,
                               GCancellable        *cancellable,
                               GAsyncReadyCallback  callback,
                               gpointer             user_data)
{
  g_return_if_fail (ATP_IS_CLIENT (self));

  atp_client_list_pending_paged_async (self, NULL, NULL, cancellable, callback, user_data);
}

void
atp_client_list_pending_paged_async (AtpClient           *self,
                                     AtpClientPageFunc    page_func,
                                     gpointer             page_data,
                                     GCancellable        *cancellable,
                                     GAsyncReadyCallback  callback,
                                     gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  ListPending *state;

  g_return_if_fail (ATP_IS_CLIENT (self));

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, atp_client_list_pending_async);

  state = g_new0 (ListPending, 1);
  state->page_func = page_func;
  state->page_data = page_data;
  state->items = g_ptr_array_new_with_free_func ((GDestroyNotify) atp_notification_unref);
  state->seen = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  state->pages = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, (GDestroyNotify) page_free);
  state->cursor = g_strdup ("");
  state->limit = ATP_CLIENT_PAGE_LIMIT;
  state->total = -1;
  g_task_set_task_data (task, state, (GDestroyNotify) list_pending_free);

  ask (task, state->cursor);
}

GPtrArray *
atp_client_list_pending_finish (AtpClient     *self,
                                GAsyncResult  *result,
                                GError       **error)
{
  return atp_client_request_finish (self, result, atp_client_list_pending_async, error);
}
