/* test-notification-rules.c — every definition rule of a notification, one test each
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "notification-test-common.h"

typedef struct
{
  const char *path;        /* patched member of base-notification.json */
  const char *value;       /* JSON text, NULL to remove the member */
  int         code;        /* -1: must parse */
  const char *needle;      /* a part of the message: the field path and the rule */
} RuleCase;

#define OK -1

static const RuleCase rule_cases[] = {
  /* id */
  { "id", NULL, ATP_ERROR_MISSING_REQUIRED_FIELD, "id: required field is missing" },
  { "id", "null", ATP_ERROR_MISSING_REQUIRED_FIELD, "id: required field is missing" },
  { "id", "5", ATP_ERROR_INVALID_FIELD_VALUE, "id: must be a string, got 5" },
  { "id", "\"not-a-uuid\"", ATP_ERROR_INVALID_FIELD_VALUE, "id: must be a UUID v4" },
  { "id", "\"550e8400-e29b-11d4-a716-446655440000\"", ATP_ERROR_INVALID_FIELD_VALUE, "id: must be a UUID v4" },
  { "id", "\"550E8400-E29B-41D4-A716-446655440000\"", OK, NULL },
  /* version */
  { "version", NULL, ATP_ERROR_MISSING_REQUIRED_FIELD, "version: required field is missing" },
  { "version", "\"2.0\"", ATP_ERROR_INVALID_FIELD_VALUE, "version: must be \"1.0\", got \"2.0\"" },
  { "version", "1.0", ATP_ERROR_INVALID_FIELD_VALUE, "version: must be a string, got 1.0" },
  /* timestamp, deadline */
  { "timestamp", NULL, ATP_ERROR_MISSING_REQUIRED_FIELD, "timestamp: required field is missing" },
  { "timestamp", "\"yesterday\"", ATP_ERROR_INVALID_FIELD_VALUE, "timestamp: must be an RFC 3339 date-time" },
  { "timestamp", "\"2025-05-25T10:30:00\"", ATP_ERROR_INVALID_FIELD_VALUE, "timestamp: must be an RFC 3339" },
  { "timestamp", "1748169000", ATP_ERROR_INVALID_FIELD_VALUE, "timestamp: must be a string, got 1748169000" },
  { "timestamp", "\"2025-05-25T12:30:00+02:00\"", OK, NULL },
  { "deadline", NULL, OK, NULL },
  { "deadline", "null", OK, NULL },
  { "deadline", "\"soon\"", ATP_ERROR_INVALID_FIELD_VALUE, "deadline: must be an RFC 3339" },
  { "deadline", "\"2025-05-25T10:30:00Z\"", ATP_ERROR_INVALID_FIELD_VALUE, "deadline: must be after the timestamp" },
  { "deadline", "\"2025-05-25T10:00:00Z\"", ATP_ERROR_INVALID_FIELD_VALUE, "deadline: must be after the timestamp" },
  { "deadline", "\"2025-05-25T12:29:00+02:00\"", ATP_ERROR_INVALID_FIELD_VALUE, "deadline: must be after the timestamp" },
  { "deadline", "\"2025-05-25T12:40:00+02:00\"", OK, NULL },
  /* service */
  { "service", NULL, ATP_ERROR_MISSING_REQUIRED_FIELD, "service: required field is missing" },
  { "service", "null", ATP_ERROR_MISSING_REQUIRED_FIELD, "service: required field is missing" },
  { "service", "\"ci-bot\"", ATP_ERROR_INVALID_FIELD_VALUE, "service: must be an object, got \"ci-bot\"" },
  { "service.id", NULL, ATP_ERROR_MISSING_REQUIRED_FIELD, "service.id: required field is missing" },
  { "service.id", "\"\"", ATP_ERROR_INVALID_FIELD_VALUE, "service.id: must be a non-empty string" },
  { "service.id", "7", ATP_ERROR_INVALID_FIELD_VALUE, "service.id: must be a non-empty string, got 7" },
  { "service.name", NULL, ATP_ERROR_MISSING_REQUIRED_FIELD, "service.name: required field is missing" },
  { "service.name", "\" \"", ATP_ERROR_INVALID_FIELD_VALUE, "service.name: must be a non-empty string" },
  { "service.icon", "\"icon.png\"", ATP_ERROR_INVALID_FIELD_VALUE, "service.icon: must be an absolute URI" },
  { "service.icon", "true", ATP_ERROR_INVALID_FIELD_VALUE, "service.icon: must be a string, got true" },
  { "service.icon", "\"https://lovelace.dev/icon.png\"", OK, NULL },
  { "service.icon", "\"data:image/png;base64,aGk=\"", OK, NULL },
  /* context */
  { "context", NULL, ATP_ERROR_MISSING_REQUIRED_FIELD, "context: required field is missing" },
  { "context", "null", ATP_ERROR_MISSING_REQUIRED_FIELD, "context: required field is missing" },
  { "context", "[]", ATP_ERROR_INVALID_FIELD_VALUE, "context: must be an object, got an array" },
  { "context.title", NULL, ATP_ERROR_MISSING_REQUIRED_FIELD, "context.title: required field is missing" },
  { "context.title", "\"\"", ATP_ERROR_INVALID_FIELD_VALUE, "context.title: must be a non-empty string" },
  { "context.title", "\" \\t\\n\"", ATP_ERROR_INVALID_FIELD_VALUE, "context.title: must be a non-empty string (not only spaces)" },
  { "context.title", "5", ATP_ERROR_INVALID_FIELD_VALUE, "context.title: must be a non-empty string, got 5" },
  { "context.description", NULL, ATP_ERROR_MISSING_REQUIRED_FIELD, "context.description: required field is missing" },
  { "context.description", "\"\"", ATP_ERROR_INVALID_FIELD_VALUE, "context.description: must be a non-empty string" },
  { "context.description", "{}", ATP_ERROR_INVALID_FIELD_VALUE, "context.description: must be a non-empty string, got an object" },
  { "context.project", "5", ATP_ERROR_INVALID_FIELD_VALUE, "context.project: must be a string, got 5" },
  { "context.project", "null", OK, NULL },
  { "context.project", "\"backend-api\"", OK, NULL },
  { "context.metadata", "[]", ATP_ERROR_INVALID_FIELD_VALUE, "context.metadata: must be an object, got an array" },
  { "context.metadata", "\"x\"", ATP_ERROR_INVALID_FIELD_VALUE, "context.metadata: must be an object, got \"x\"" },
  { "context.metadata", "null", OK, NULL },
  { "context.metadata", "{\"a\": [1, {\"b\": null}], \"c\": 2.5}", OK, NULL },
  { "context.attachments", "{}", ATP_ERROR_INVALID_FIELD_VALUE, "context.attachments: must be an array, got an object" },
  { "context.attachments", "[\"x\"]", ATP_ERROR_INVALID_FIELD_VALUE, "context.attachments[0]: must be an object, got \"x\"" },
  { "context.attachments", "[null]", ATP_ERROR_INVALID_FIELD_VALUE, "context.attachments[0]: must be an object, got null" },
  { "context.attachments", "[]", OK, NULL },
  /* attachments */
  { "context.attachments[0].type", NULL, ATP_ERROR_MISSING_REQUIRED_FIELD, "context.attachments[0].type: required field is missing" },
  { "context.attachments[0].type", "\"text\"", ATP_ERROR_INVALID_FIELD_VALUE, "context.attachments[0].type: must be a MIME type" },
  { "context.attachments[0].type", "\"text/\"", ATP_ERROR_INVALID_FIELD_VALUE, "context.attachments[0].type: must be a MIME type" },
  { "context.attachments[0].type", "\"/plain\"", ATP_ERROR_INVALID_FIELD_VALUE, "context.attachments[0].type: must be a MIME type" },
  { "context.attachments[0].type", "\"text/ plain\"", ATP_ERROR_INVALID_FIELD_VALUE, "context.attachments[0].type: must be a MIME type" },
  { "context.attachments[0].type", "\"text/plain;\"", ATP_ERROR_INVALID_FIELD_VALUE, "context.attachments[0].type: must be a MIME type" },
  { "context.attachments[0].type", "\"text/plain; charset\"", ATP_ERROR_INVALID_FIELD_VALUE, "context.attachments[0].type: must be a MIME type" },
  { "context.attachments[0].type", "\"text/pl(ai)n\"", ATP_ERROR_INVALID_FIELD_VALUE, "context.attachments[0].type: must be a MIME type" },
  { "context.attachments[0].type", "\"text/plain; charset=utf-8\"", OK, NULL },
  { "context.attachments[0].type", "\"text/plain;charset=\\\"utf-8\\\"; format=flowed\"", OK, NULL },
  { "context.attachments[0].type", "\"image/svg+xml\"", OK, NULL },
  { "context.attachments[0].type", "\"application/vnd.api+json\"", OK, NULL },
  { "context.attachments[0].description", "3", ATP_ERROR_INVALID_FIELD_VALUE, "context.attachments[0].description: must be a string, got 3" },
  { "context.attachments[0].description", "\"Release notes\"", OK, NULL },
  { "context.attachments[0].data", "\"aGk=\"", ATP_ERROR_INVALID_FIELD_VALUE, "context.attachments[0]: has both uri and data" },
  { "context.attachments[0].uri", NULL, ATP_ERROR_MISSING_REQUIRED_FIELD, "context.attachments[0]: needs exactly one of uri and data" },
  { "context.attachments[0].uri", "null", ATP_ERROR_MISSING_REQUIRED_FIELD, "context.attachments[0]: needs exactly one of uri and data" },
  { "context.attachments[0].uri", "\"/notes.txt\"", ATP_ERROR_INVALID_FIELD_VALUE, "context.attachments[0].uri: must be an absolute URI" },
  { "context.attachments[0].uri", "\"notes.txt\"", ATP_ERROR_INVALID_FIELD_VALUE, "context.attachments[0].uri: must be an absolute URI" },
  { "context.attachments[0].uri", "\"https://exa mple.com/\"", ATP_ERROR_INVALID_FIELD_VALUE, "context.attachments[0].uri: must be an absolute URI" },
  { "context.attachments[0].uri", "\"https://example.com/%zz\"", ATP_ERROR_INVALID_FIELD_VALUE, "context.attachments[0].uri: must be an absolute URI" },
  { "context.attachments[0].uri", "\"\"", ATP_ERROR_INVALID_FIELD_VALUE, "context.attachments[0].uri: must be an absolute URI" },
  { "context.attachments[0].uri", "[]", ATP_ERROR_INVALID_FIELD_VALUE, "context.attachments[0].uri: must be a string, got an array" },
  { "context.attachments[0].uri", "\"urn:isbn:0451450523\"", OK, NULL },
  { "context.attachments[0].uri", "\"file:///etc/passwd\"", OK, NULL },
  { "context.attachments[1].data", "\"aGk\"", ATP_ERROR_INVALID_FIELD_VALUE, "context.attachments[1].data: is not valid base64: its length 3 is not a multiple of 4" },
  { "context.attachments[1].data", "\"aG k\"", ATP_ERROR_INVALID_FIELD_VALUE, "context.attachments[1].data: is not valid base64: character ' ' at offset 2" },
  { "context.attachments[1].data", "\"aGk=\\n\\n\\n\\n\"", ATP_ERROR_INVALID_FIELD_VALUE, "context.attachments[1].data: is not valid base64: character '=' at offset 3" },
  { "context.attachments[1].data", "\"aG-_\"", ATP_ERROR_INVALID_FIELD_VALUE, "context.attachments[1].data: is not valid base64: character '-' at offset 2" },
  { "context.attachments[1].data", "\"a===\"", ATP_ERROR_INVALID_FIELD_VALUE, "context.attachments[1].data: is not valid base64: character '=' at offset 1" },
  { "context.attachments[1].data", "\"=aGk\"", ATP_ERROR_INVALID_FIELD_VALUE, "context.attachments[1].data: is not valid base64: character '=' at offset 0" },
  { "context.attachments[1].data", "\"aGl=\"", ATP_ERROR_INVALID_FIELD_VALUE, "context.attachments[1].data: is not valid base64: the bits cut off by the padding are not zero" },
  { "context.attachments[1].data", "\"aB==\"", ATP_ERROR_INVALID_FIELD_VALUE, "context.attachments[1].data: is not valid base64: the bits cut off" },
  { "context.attachments[1].data", "\"\\u00e9AAA\"", ATP_ERROR_INVALID_FIELD_VALUE, "context.attachments[1].data: is not valid base64" },
  { "context.attachments[1].data", "12", ATP_ERROR_INVALID_FIELD_VALUE, "context.attachments[1].data: must be a string, got 12" },
  { "context.attachments[1].data", "\"\"", OK, NULL },
  { "context.attachments[1].data", "\"aGVsbG8=\"", OK, NULL },
  { "context.attachments[1].data", "\"aA==\"", OK, NULL },
  { "context.attachments[1].data", "\"+/+/\"", OK, NULL },
  /* actions */
  { "actions", NULL, ATP_ERROR_MISSING_REQUIRED_FIELD, "actions: required field is missing" },
  { "actions", "{}", ATP_ERROR_INVALID_FIELD_VALUE, "actions: must be an array, got an object" },
  { "actions", "[]", ATP_ERROR_MALFORMED_ACTION, "actions: must hold at least one action" },
  { "actions", "[\"approve\"]", ATP_ERROR_MALFORMED_ACTION, "actions[0]: must be an object, got \"approve\"" },
  { "actions", "[null]", ATP_ERROR_MALFORMED_ACTION, "actions[0]: must be an object, got null" },
  { "actions[0].id", NULL, ATP_ERROR_MALFORMED_ACTION, "actions[0].id: required field is missing" },
  { "actions[0].id", "\"\"", ATP_ERROR_MALFORMED_ACTION, "actions[0].id: must be a non-empty string" },
  { "actions[0].id", "5", ATP_ERROR_MALFORMED_ACTION, "actions[0].id: must be a non-empty string, got 5" },
  { "actions[3].id", "\"a1\"", ATP_ERROR_MALFORMED_ACTION, "actions[3].id: duplicate action id \"a1\"" },
  { "actions[0].label", NULL, ATP_ERROR_MALFORMED_ACTION, "actions[0].label: required field is missing" },
  { "actions[0].label", "\"\"", ATP_ERROR_MALFORMED_ACTION, "actions[0].label: must be a non-empty string" },
  { "actions[0].label", "\"   \"", ATP_ERROR_MALFORMED_ACTION, "actions[0].label: must be a non-empty string" },
  { "actions[0].label", "[]", ATP_ERROR_MALFORMED_ACTION, "actions[0].label: must be a non-empty string, got an array" },
  { "actions[0].response_type", NULL, ATP_ERROR_MALFORMED_ACTION, "actions[0].response_type: required field is missing" },
  { "actions[0].response_type", "3", ATP_ERROR_MALFORMED_ACTION, "actions[0].response_type: must be a string, got 3" },
  { "actions[0].response_type", "\"slider\"", ATP_ERROR_INVALID_RESPONSE_TYPE, "actions[0].response_type: unknown response type \"slider\"" },
  { "actions[0].response_type", "\"SIMPLE\"", ATP_ERROR_INVALID_RESPONSE_TYPE, "actions[0].response_type: unknown response type \"SIMPLE\"" },
  { "actions[0].response_type", "\"\"", ATP_ERROR_INVALID_RESPONSE_TYPE, "actions[0].response_type: unknown response type" },
  /* flags */
  { "actions[0].flags", "\"destructive\"", ATP_ERROR_MALFORMED_ACTION, "actions[0].flags: must be an array, got \"destructive\"" },
  { "actions[0].flags", "[\"destructive\", 1]", ATP_ERROR_MALFORMED_ACTION, "actions[0].flags[1]: must be a string, got 1" },
  { "actions[0].flags", "[]", OK, NULL },
  { "actions[0].flags", "[\"destructive\", \"self_destruct\", \"\"]", OK, NULL },
  /* binary */
  { "actions[1].options", NULL, ATP_ERROR_MALFORMED_ACTION, "actions[1].options: required for a binary action" },
  { "actions[1].options", "null", ATP_ERROR_MALFORMED_ACTION, "actions[1].options: required for a binary action" },
  { "actions[1].options", "[]", ATP_ERROR_MALFORMED_ACTION, "actions[1].options: must be an object, got an array" },
  { "actions[1].options.true_label", NULL, ATP_ERROR_MALFORMED_ACTION, "actions[1].options.true_label: required field is missing" },
  { "actions[1].options.true_label", "\"\"", ATP_ERROR_MALFORMED_ACTION, "actions[1].options.true_label: must be a non-empty string" },
  { "actions[1].options.false_label", NULL, ATP_ERROR_MALFORMED_ACTION, "actions[1].options.false_label: required field is missing" },
  { "actions[1].options.false_label", "false", ATP_ERROR_MALFORMED_ACTION, "actions[1].options.false_label: must be a non-empty string, got false" },
  /* choice */
  { "actions[2].options", NULL, ATP_ERROR_MALFORMED_ACTION, "actions[2].options: required for a choice action" },
  { "actions[2].options", "{}", ATP_ERROR_MALFORMED_ACTION, "actions[2].options: must be an array, got an object" },
  { "actions[2].options", "[]", ATP_ERROR_MALFORMED_ACTION, "actions[2].options: must hold at least one option" },
  { "actions[2].options", "[\"x\"]", ATP_ERROR_MALFORMED_ACTION, "actions[2].options[0]: must be an object with value and label, got \"x\"" },
  { "actions[2].options", "[{\"label\": \"X\"}]", ATP_ERROR_MALFORMED_ACTION, "actions[2].options[0].value: required field is missing" },
  { "actions[2].options", "[{\"value\": 1, \"label\": \"X\"}]", ATP_ERROR_MALFORMED_ACTION, "actions[2].options[0].value: must be a non-empty string, got 1" },
  { "actions[2].options", "[{\"value\": \"\", \"label\": \"X\"}]", ATP_ERROR_MALFORMED_ACTION, "actions[2].options[0].value: must be a non-empty string" },
  { "actions[2].options", "[{\"value\": \"x\"}]", ATP_ERROR_MALFORMED_ACTION, "actions[2].options[0].label: required field is missing" },
  { "actions[2].options", "[{\"value\": \"x\", \"label\": \" \"}]", ATP_ERROR_MALFORMED_ACTION, "actions[2].options[0].label: must be a non-empty string" },
  { "actions[2].options", "[{\"value\": \"x\", \"label\": \"X\"}, {\"value\": \"x\", \"label\": \"Y\"}]", ATP_ERROR_MALFORMED_ACTION, "actions[2].options[1].value: duplicate option value \"x\"" },
  { "actions[2].options", "[{\"value\": \"x\", \"label\": \"X\"}]", OK, NULL },
  { "actions[2].options", "[{\"value\": \"x\", \"label\": \"X\"}, {\"value\": \"X\", \"label\": \"X\"}]", OK, NULL },
  /* multi_choice */
  { "actions[3].options", NULL, ATP_ERROR_MALFORMED_ACTION, "actions[3].options: required for a multi_choice action" },
  { "actions[3].options", "[]", ATP_ERROR_MALFORMED_ACTION, "actions[3].options: must hold at least one option" },
  { "actions[3].options", "[{\"value\": \"x\", \"label\": \"X\"}, {\"value\": \"x\", \"label\": \"Y\"}]", ATP_ERROR_MALFORMED_ACTION, "actions[3].options[1].value: duplicate option value \"x\"" },
  { "actions[3].constraints", "\"x\"", ATP_ERROR_MALFORMED_ACTION, "actions[3].constraints: must be an object, got \"x\"" },
  { "actions[3].constraints", "{}", OK, NULL },
  { "actions[3].constraints", NULL, OK, NULL },
  { "actions[3].constraints.min_selections", "\"1\"", ATP_ERROR_MALFORMED_ACTION, "actions[3].constraints.min_selections: must be an integer ≥ 0, got \"1\"" },
  { "actions[3].constraints.min_selections", "-1", ATP_ERROR_MALFORMED_ACTION, "actions[3].constraints.min_selections: must be an integer ≥ 0, got -1" },
  { "actions[3].constraints.min_selections", "0.5", ATP_ERROR_MALFORMED_ACTION, "actions[3].constraints.min_selections: must be an integer ≥ 0, got 0.5" },
  { "actions[3].constraints.min_selections", "1.0", OK, NULL },
  { "actions[3].constraints.min_selections", "0", OK, NULL },
  { "actions[3].constraints.max_selections", "\"3\"", ATP_ERROR_MALFORMED_ACTION, "actions[3].constraints.max_selections: must be an integer ≥ 0, got \"3\"" },
  { "actions[3].constraints.max_selections", "true", ATP_ERROR_MALFORMED_ACTION, "actions[3].constraints.max_selections: must be an integer ≥ 0, got true" },
  { "actions[3].constraints.max_selections", "1e30", ATP_ERROR_MALFORMED_ACTION, "actions[3].constraints.max_selections: must be an integer from 0 to 9007199254740992, got 1e+30" },
  { "actions[3].constraints.max_selections", "0", ATP_ERROR_MALFORMED_ACTION, "actions[3].constraints.max_selections: must be ≥ min_selections (0 < 1)" },
  { "actions[3].constraints.max_selections", "1", OK, NULL },
  { "actions[3].constraints.max_selections", "9007199254740992", OK, NULL },
  { "actions[3].constraints.max_selections", "9007199254740993", ATP_ERROR_MALFORMED_ACTION, "actions[3].constraints.max_selections: must be an integer from 0 to 9007199254740992, got 9007199254740993" },
  { "actions[3].constraints.max_selections", "10", OK, NULL },
  { "actions[3].constraints.min_selections", "4", ATP_ERROR_MALFORMED_ACTION, "actions[3].constraints.min_selections: must be at most the number of options (4 > 3)" },
  /* text */
  { "actions[4].constraints.min_length", "-1", ATP_ERROR_MALFORMED_ACTION, "actions[4].constraints.min_length: must be an integer ≥ 0, got -1" },
  { "actions[4].constraints.min_length", "\"2\"", ATP_ERROR_MALFORMED_ACTION, "actions[4].constraints.min_length: must be an integer ≥ 0, got \"2\"" },
  { "actions[4].constraints.max_length", "2.5", ATP_ERROR_MALFORMED_ACTION, "actions[4].constraints.max_length: must be an integer ≥ 0, got 2.5" },
  { "actions[4].constraints.max_length", "1", ATP_ERROR_MALFORMED_ACTION, "actions[4].constraints.max_length: must be ≥ min_length (1 < 2)" },
  { "actions[4].constraints.max_length", "2", OK, NULL },
  { "actions[4].constraints.max_length", "0", ATP_ERROR_MALFORMED_ACTION, "actions[4].constraints.max_length: must be ≥ min_length (0 < 2)" },
  { "actions[4].constraints.placeholder", "5", ATP_ERROR_MALFORMED_ACTION, "actions[4].constraints.placeholder: must be a string, got 5" },
  { "actions[4].constraints.placeholder", "\"Why?\"", OK, NULL },
  { "actions[4].constraints", NULL, OK, NULL },
  /* number */
  { "actions[5].constraints.min", "\"0\"", ATP_ERROR_MALFORMED_ACTION, "actions[5].constraints.min: must be a number, got \"0\"" },
  { "actions[5].constraints.min", "false", ATP_ERROR_MALFORMED_ACTION, "actions[5].constraints.min: must be a number, got false" },
  { "actions[5].constraints.max", "[1]", ATP_ERROR_MALFORMED_ACTION, "actions[5].constraints.max: must be a number, got an array" },
  { "actions[5].constraints.max", "0.05", ATP_ERROR_MALFORMED_ACTION, "actions[5].constraints.max: must be ≥ min (0.05 < 0.1)" },
  { "actions[5].constraints.max", "0.1", OK, NULL },
  { "actions[5].constraints.step", "0", ATP_ERROR_MALFORMED_ACTION, "actions[5].constraints.step: must be a number > 0, got 0" },
  { "actions[5].constraints.step", "-0.05", ATP_ERROR_MALFORMED_ACTION, "actions[5].constraints.step: must be a number > 0, got -0.05" },
  { "actions[5].constraints.step", "\"0.05\"", ATP_ERROR_MALFORMED_ACTION, "actions[5].constraints.step: must be a number, got \"0.05\"" },
  { "actions[5].constraints.unit", "5", ATP_ERROR_MALFORMED_ACTION, "actions[5].constraints.unit: must be a string, got 5" },
  { "actions[5].constraints.unit", "\"%\"", OK, NULL },
  { "actions[5].constraints.placeholder", "{}", ATP_ERROR_MALFORMED_ACTION, "actions[5].constraints.placeholder: must be a string, got an object" },
  { "actions[5].constraints", NULL, OK, NULL },
  { "actions[5].constraints", "{\"min\": -1e300, \"max\": 1e300}", OK, NULL },
  /* scale */
  { "actions[6].constraints", NULL, ATP_ERROR_MALFORMED_ACTION, "actions[6].constraints: required for a scale" },
  { "actions[6].constraints", "[]", ATP_ERROR_MALFORMED_ACTION, "actions[6].constraints: must be an object, got an array" },
  { "actions[6].constraints.min", NULL, ATP_ERROR_MALFORMED_ACTION, "actions[6].constraints.min: required for a scale" },
  { "actions[6].constraints.max", NULL, ATP_ERROR_MALFORMED_ACTION, "actions[6].constraints.max: required for a scale" },
  { "actions[6].constraints.min", "1.5", ATP_ERROR_MALFORMED_ACTION, "actions[6].constraints.min: must be an integer, got 1.5" },
  { "actions[6].constraints.min", "\"1\"", ATP_ERROR_MALFORMED_ACTION, "actions[6].constraints.min: must be an integer, got \"1\"" },
  { "actions[6].constraints.min", "-5", OK, NULL },
  { "actions[6].constraints.min", "-9007199254740992", OK, NULL },
  { "actions[6].constraints.min", "-9007199254740993", ATP_ERROR_MALFORMED_ACTION, "actions[6].constraints.min: must be an integer from -9007199254740992 to 9007199254740992, got -9007199254740993" },
  { "actions[6].constraints.max", "9223372036854775807", ATP_ERROR_MALFORMED_ACTION, "actions[6].constraints.max: must be an integer from -9007199254740992 to 9007199254740992, got 9223372036854775807" },
  { "actions[6].constraints.max", "1", ATP_ERROR_MALFORMED_ACTION, "actions[6].constraints.max: must be > min (1 ≤ 1)" },
  { "actions[6].constraints.max", "0", ATP_ERROR_MALFORMED_ACTION, "actions[6].constraints.max: must be > min (0 ≤ 1)" },
  { "actions[6].constraints.max", "9.0", OK, NULL },
  { "actions[6].constraints.step", "0", ATP_ERROR_MALFORMED_ACTION, "actions[6].constraints.step: must be a positive integer, got 0" },
  { "actions[6].constraints.step", "-2", ATP_ERROR_MALFORMED_ACTION, "actions[6].constraints.step: must be a positive integer, got -2" },
  { "actions[6].constraints.step", "0.5", ATP_ERROR_MALFORMED_ACTION, "actions[6].constraints.step: must be an integer, got 0.5" },
  { "actions[6].constraints.step", NULL, OK, NULL },
  { "actions[6].constraints.min_label", "5", ATP_ERROR_MALFORMED_ACTION, "actions[6].constraints.min_label: must be a string, got 5" },
  { "actions[6].constraints.max_label", "\"Very\"", OK, NULL },
  /* status and response */
  { "status", NULL, OK, NULL },
  { "status", "\"pending\"", ATP_ERROR_INVALID_FIELD_VALUE, "status: must be one of created, delivered" },
  { "status", "1", ATP_ERROR_INVALID_FIELD_VALUE, "status: must be a string, got 1" },
  { "status", "\"expired\"", OK, NULL },
  { "response", "\"yes\"", ATP_ERROR_INVALID_FIELD_VALUE, "response: A response must be a JSON object" },
  { "response", "{\"notification_id\": \"7d444840-9dc0-41f4-a0b4-8f2b2d3c5e6a\", \"action_id\": \"a0\", "
                "\"responded_at\": \"2025-05-25T10:35:12Z\", \"responder\": {\"id\": \"u\", \"type\": \"human\"}}", OK, NULL },
  { "response", "{\"notification_id\": \"550e8400-e29b-41d4-a716-446655440000\", \"action_id\": \"a0\", "
                "\"responded_at\": \"2025-05-25T10:35:12Z\", \"responder\": {\"id\": \"u\", \"type\": \"human\"}}",
    ATP_ERROR_INVALID_FIELD_VALUE, "response.notification_id: must be the id of the notification" },
  { "response", "{\"notification_id\": \"7d444840-9dc0-41f4-a0b4-8f2b2d3c5e6a\", \"action_id\": \"nope\", "
                "\"responded_at\": \"2025-05-25T10:35:12Z\", \"responder\": {\"id\": \"u\", \"type\": \"human\"}}",
    ATP_ERROR_INVALID_FIELD_VALUE, "response.action_id: names no action of the notification: \"nope\"" },
  { "response", "{\"notification_id\": \"7d444840-9dc0-41f4-a0b4-8f2b2d3c5e6a\", \"action_id\": \"a3\", \"response_data\": [\"x\", \"y\"], "
                "\"responded_at\": \"2025-05-25T10:35:12Z\", \"responder\": {\"id\": \"u\", \"type\": \"agent\"}}", OK, NULL },
  { "response", "{\"notification_id\": \"7d444840-9dc0-41f4-a0b4-8f2b2d3c5e6a\", \"action_id\": \"a3\", \"response_data\": [\"x\", \"y\", \"z\"], "
                "\"responded_at\": \"2025-05-25T10:35:12Z\", \"responder\": {\"id\": \"u\", \"type\": \"agent\"}}",
    ATP_ERROR_INVALID_FIELD_VALUE, "response.response_data: 3 selected, at most 2 allowed" },
  { "response", "{\"notification_id\": \"7d444840-9dc0-41f4-a0b4-8f2b2d3c5e6a\", \"action_id\": \"a1\", "
                "\"responded_at\": \"2025-05-25T10:35:12Z\", \"responder\": {\"id\": \"u\", \"type\": \"human\"}}",
    ATP_ERROR_INVALID_FIELD_VALUE, "response.response_data: must be true or false for the binary action \"a1\", got null" },
  { "response", "{\"notification_id\": \"7d444840-9dc0-41f4-a0b4-8f2b2d3c5e6a\", \"action_id\": \"a0\", "
                "\"responded_at\": \"2025-05-25T10:35:12Z\"}",
    ATP_ERROR_MISSING_REQUIRED_FIELD, "response: responder: required field is missing" },
};

static void
test_rule (gconstpointer data)
{
  const RuleCase *c = data;
  g_autoptr(JsonNode) root = atp_test_load_json ("base-notification.json");
  g_autoptr(GError) error = NULL;
  g_autoptr(AtpNotification) notification = NULL;

  atp_test_patch (root, c->path, c->value);
  notification = atp_notification_new_from_json (root, ATP_PARSE_DEFAULT, &error);

  if (c->code == OK)
    {
      g_autofree char *text = NULL;

      g_assert_no_error (error);
      g_assert_nonnull (notification);
      text = atp_test_assert_round_trip (notification);
    }
  else
    {
      g_assert_null (notification);
      atp_assert_error (error, c->code, c->needle);
    }
}

void
notification_test_add_rules (void)
{
  for (guint i = 0; i < G_N_ELEMENTS (rule_cases); i++)
    {
      g_autofree char *value = g_strdup (rule_cases[i].value != NULL ? rule_cases[i].value : "removed");
      g_autofree char *path = NULL;

      /* Test paths may not hold '/' beyond the separators, nor be too long. */
      g_strdelimit (value, "/ ", '_');
      if (strlen (value) > 40)
        value[40] = '\0';
      path = g_strdup_printf ("/atp/notification/rule/%s=%s/%u", rule_cases[i].path, value, i);
      g_test_add_data_func (path, &rule_cases[i], test_rule);
    }
}
