/* fuzz-common.h — what every libFuzzer target of libatp shares
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <stdint.h>
#include <stdlib.h>

#include <glib.h>

/* The entry points libFuzzer calls; LLVMFuzzerInitialize is in fuzz-common.c. */
int LLVMFuzzerInitialize (int *argc, char ***argv);
int LLVMFuzzerTestOneInput (const uint8_t *data, size_t size);

/* abort() rather than g_error(): libFuzzer saves the input on SIGABRT, not on
 * the SIGTRAP g_error() raises. */
#define fuzz_fail(...) G_STMT_START { g_printerr (__VA_ARGS__); g_printerr ("\n"); abort (); } G_STMT_END
