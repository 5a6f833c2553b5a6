/* atp-token.h — whether a token or key can be sent in an HTTP header
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

/**
 * AtpTokenFault:
 * @ATP_TOKEN_SENDABLE: nothing: the token can be sent
 * @ATP_TOKEN_BLANK: empty, or nothing but white space
 * @ATP_TOKEN_LINE_BREAK: a line break inside
 * @ATP_TOKEN_SPACE: a space inside
 * @ATP_TOKEN_TAB: a tab inside
 * @ATP_TOKEN_CONTROL: another control character inside
 *
 * What keeps a token (a user token, a service key) from being sent in an
 * `Authorization` header, white space around it aside.
 */
typedef enum
{
  ATP_TOKEN_SENDABLE,
  ATP_TOKEN_BLANK,
  ATP_TOKEN_LINE_BREAK,
  ATP_TOKEN_SPACE,
  ATP_TOKEN_TAB,
  ATP_TOKEN_CONTROL,
} AtpTokenFault;

AtpTokenFault atp_token_check (const char  *token,
                               char       **sendable,
                               guint       *position);

G_END_DECLS
