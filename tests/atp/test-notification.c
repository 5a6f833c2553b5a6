/* test-notification.c — every definition rule, seeds, round trips, hostile input
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "atp-test-common.h"

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
  { "actions[3].constraints.max_selections", "1e30", ATP_ERROR_MALFORMED_ACTION, "actions[3].constraints.max_selections: must be an integer ≥ 0, got 1e+30" },
  { "actions[3].constraints.max_selections", "0", ATP_ERROR_MALFORMED_ACTION, "actions[3].constraints.max_selections: must be ≥ min_selections (0 < 1)" },
  { "actions[3].constraints.max_selections", "1", OK, NULL },
  { "actions[3].constraints.max_selections", "9007199254740992", OK, NULL },
  { "actions[3].constraints.max_selections", "9007199254740993", ATP_ERROR_MALFORMED_ACTION, "actions[3].constraints.max_selections: must be an integer ≥ 0, got 9007199254740993" },
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
  { "actions[6].constraints.min", "-9007199254740993", ATP_ERROR_MALFORMED_ACTION, "actions[6].constraints.min: must be an integer, got -9007199254740993" },
  { "actions[6].constraints.max", "9223372036854775807", ATP_ERROR_MALFORMED_ACTION, "actions[6].constraints.max: must be an integer, got 9223372036854775807" },
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

static void
test_not_an_object (void)
{
  static const char * const inputs[] = { "[]", "null", "\"x\"", "42", "true" };

  for (guint i = 0; i < G_N_ELEMENTS (inputs); i++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(AtpNotification) notification = NULL;

      notification = atp_notification_new_from_data (inputs[i], -1, ATP_PARSE_DEFAULT, &error);
      g_assert_null (notification);
      atp_assert_error (error, ATP_ERROR_INVALID_REQUEST, "A notification must be a JSON object");
    }

  {
    g_autoptr(GError) error = NULL;
    g_autoptr(AtpNotification) notification = atp_notification_new_from_json (NULL, 0, &error);

    g_assert_null (notification);
    atp_assert_error (error, ATP_ERROR_INVALID_REQUEST, "got null");
  }
}

static void
test_base (void)
{
  g_autoptr(JsonNode) root = atp_test_load_json ("base-notification.json");
  g_autoptr(GError) error = NULL;
  g_autoptr(AtpNotification) n = NULL;
  const AtpAction *a;
  const AtpAttachment *attachment;
  g_autofree char *text = NULL;

  n = atp_notification_new_from_json (root, ATP_PARSE_DEFAULT, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (n->actions->len, ==, 7);

  g_assert_cmpuint (n->context.attachments->len, ==, 2);
  attachment = g_ptr_array_index (n->context.attachments, 0);
  g_assert_cmpstr (attachment->uri, ==, "https://example.com/notes.txt");
  g_assert_null (attachment->data);
  g_assert_cmpuint (attachment->decoded_size, ==, 0);
  attachment = g_ptr_array_index (n->context.attachments, 1);
  g_assert_null (attachment->uri);
  g_assert_cmpstr (attachment->data, ==, "aGk=");
  g_assert_cmpuint (attachment->decoded_size, ==, 2);

  a = atp_notification_find_action (n, "a1");
  g_assert_cmpstr (a->true_label, ==, "Yes");
  g_assert_cmpstr (a->false_label, ==, "No");
  g_assert_null (a->options);
  g_assert_null (a->extra_options);

  a = atp_notification_find_action (n, "a2");
  g_assert_cmpuint (a->options->len, ==, 2);
  g_assert_cmpstr (((AtpOption *) g_ptr_array_index (a->options, 1))->value, ==, "y");
  g_assert_cmpint (a->min_selections, ==, 0);
  g_assert_cmpint (a->max_selections, ==, -1);

  a = atp_notification_find_action (n, "a3");
  g_assert_cmpint (a->min_selections, ==, 1);
  g_assert_cmpint (a->max_selections, ==, 2);

  a = atp_notification_find_action (n, "a4");
  g_assert_cmpint (a->min_length, ==, 2);
  g_assert_cmpint (a->max_length, ==, 5);

  a = atp_notification_find_action (n, "a5");
  g_assert_true (a->has_min && a->has_max && a->has_step);
  g_assert_cmpfloat (a->min, ==, 0.1);
  g_assert_cmpfloat (a->max, ==, 0.9);
  g_assert_cmpfloat (a->step, ==, 0.05);

  a = atp_notification_find_action (n, "a6");
  g_assert_true (a->has_min && a->has_max && a->has_step);
  g_assert_cmpfloat (a->min, ==, 1);
  g_assert_cmpfloat (a->max, ==, 9);
  g_assert_cmpfloat (a->step, ==, 2);

  g_assert_null (atp_notification_find_action (n, "a7"));
  g_assert_null (atp_notification_find_action (n, NULL));

  text = atp_test_assert_round_trip (n);
  /* Integral numbers stay integral, fractions stay exact. */
  g_assert_nonnull (strstr (text, "\"constraints\":{\"min\":1,\"max\":9,\"step\":2}"));
  g_assert_nonnull (strstr (text, "\"constraints\":{\"min\":0.1,\"max\":0.9,\"step\":0.05}"));
  g_assert_nonnull (strstr (text, "\"constraints\":{\"min_selections\":1,\"max_selections\":2}"));
}

static void
test_seed_notification (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(AtpNotification) n = NULL;
  g_autoptr(GBytes) bytes = NULL;
  gsize length;
  g_autofree char *text = atp_test_load ("seed-002-notification.json", &length);
  g_autofree char *out = NULL;
  g_autofree char *timestamp = NULL;
  const AtpAttachment *attachment;
  const AtpAction *action;

  n = atp_notification_new_from_data (text, length, ATP_PARSE_DEFAULT, &error);
  g_assert_no_error (error);

  g_assert_cmpstr (n->id, ==, "550e8400-e29b-41d4-a716-446655440000");
  g_assert_cmpstr (n->version, ==, "1.0");
  timestamp = atp_format_timestamp (n->timestamp);
  g_assert_cmpstr (timestamp, ==, "2025-05-25T10:30:00Z");
  g_assert_nonnull (n->deadline);
  g_assert_cmpstr (n->service.id, ==, "lovelace-ide");
  g_assert_cmpstr (n->service.name, ==, "Lovelace IDE");
  g_assert_cmpstr (n->service.icon, ==, "https://lovelace.dev/icon.png");
  g_assert_cmpstr (n->context.title, ==, "Deploy to Production?");
  g_assert_cmpstr (n->context.project, ==, "backend-api");
  g_assert_cmpint (json_object_get_int_member (n->context.metadata, "changes"), ==, 47);
  g_assert_cmpint (n->status, ==, ATP_STATUS_CREATED);
  g_assert_null (n->response);

  attachment = g_ptr_array_index (n->context.attachments, 0);
  g_assert_cmpstr (attachment->type, ==, "text/plain");
  g_assert_cmpstr (attachment->description, ==, "Release notes");
  bytes = atp_attachment_decode (attachment, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (g_bytes_get_size (bytes), ==, attachment->decoded_size);
  g_assert_cmpmem (g_bytes_get_data (bytes, NULL), 15, "Version 2.1.0 i", 15);

  action = g_ptr_array_index (n->actions, 0);
  g_assert_cmpint (action->response_type, ==, ATP_RESPONSE_TYPE_SIMPLE);
  g_assert_cmpint (action->flags, ==, ATP_FLAG_IRREVERSIBLE);
  g_assert_true (atp_action_needs_confirmation (action));
  action = g_ptr_array_index (n->actions, 1);
  g_assert_cmpint (action->response_type, ==, ATP_RESPONSE_TYPE_TEXT);
  g_assert_cmpstr (action->placeholder, ==, "Reason for rejection");
  g_assert_false (atp_action_needs_confirmation (action));
  g_assert_cmpint (atp_notification_get_flags (n), ==, ATP_FLAG_IRREVERSIBLE);

  out = atp_test_assert_round_trip (n);
}

static const char * const seed_actions[] = {
  "simple", "binary", "choice", "multi_choice", "text", "number", "scale"
};

static void
test_seed_action (gconstpointer data)
{
  const char *type = data;
  g_autofree char *file = g_strdup_printf ("seed-000-action-%s.json", type);
  g_autoptr(JsonNode) action = atp_test_load_json (file);
  g_autoptr(JsonNode) answers = atp_test_load_json ("seed-000-answers.json");
  g_autoptr(JsonNode) root = atp_test_load_json ("base-notification.json");
  g_autoptr(GError) error = NULL;
  g_autoptr(AtpNotification) n = NULL;
  g_autofree char *text = NULL;
  JsonArray *actions = json_array_new ();
  const AtpAction *parsed;
  AtpResponseType expected;

  json_array_add_element (actions, json_node_ref (action));
  json_object_set_array_member (json_node_get_object (root), "actions", actions);

  n = atp_notification_new_from_json (root, ATP_PARSE_DEFAULT, &error);
  g_assert_no_error (error);
  parsed = g_ptr_array_index (n->actions, 0);
  g_assert_true (atp_response_type_from_string (type, &expected));
  g_assert_cmpint (parsed->response_type, ==, expected);

  /* The seed's example answer is valid. */
  atp_action_validate_response (parsed,
                                json_object_get_member (json_node_get_object (answers), parsed->id),
                                &error);
  g_assert_no_error (error);

  text = atp_test_assert_round_trip (n);

  /* The action written back equals the seed's action, member for member. */
  {
    g_autoptr(JsonNode) out = atp_notification_to_json (n);
    JsonNode *written = json_array_get_element (json_object_get_array_member (json_node_get_object (out), "actions"), 0);

    if (g_str_equal (type, "scale"))
      {
        /* step 1 is the default and not written back */
        json_object_set_int_member (json_object_get_object_member (json_node_get_object (written), "constraints"), "step", 1);
      }
    g_assert_true (atp_json_node_equal (written, action));
  }
}

static void
test_seed_action_details (void)
{
  g_autoptr(JsonNode) root = atp_test_load_json ("base-notification.json");
  g_autoptr(GError) error = NULL;
  g_autoptr(AtpNotification) n = NULL;
  JsonArray *actions = json_array_new ();
  const AtpAction *a;

  for (guint i = 0; i < G_N_ELEMENTS (seed_actions); i++)
    {
      g_autofree char *file = g_strdup_printf ("seed-000-action-%s.json", seed_actions[i]);

      json_array_add_element (actions, atp_test_load_json (file));
    }
  json_object_set_array_member (json_node_get_object (root), "actions", actions);
  n = atp_notification_new_from_json (root, ATP_PARSE_DEFAULT, &error);
  g_assert_no_error (error);

  a = atp_notification_find_action (n, "include_logs");
  g_assert_cmpstr (a->true_label, ==, "Yes, include logs");
  g_assert_cmpstr (a->false_label, ==, "No, skip logs");
  a = atp_notification_find_action (n, "select_priority");
  g_assert_cmpuint (a->options->len, ==, 4);
  g_assert_cmpstr (((AtpOption *) g_ptr_array_index (a->options, 3))->label, ==, "Low - Minor issue");
  a = atp_notification_find_action (n, "select_recipients");
  g_assert_cmpint (a->min_selections, ==, 1);
  g_assert_cmpint (a->max_selections, ==, 3);
  g_assert_cmpint (a->flags, ==, ATP_FLAG_AFFECTS_OTHERS);
  a = atp_notification_find_action (n, "feedback");
  g_assert_cmpint (a->min_length, ==, 10);
  g_assert_cmpint (a->max_length, ==, 1000);
  g_assert_cmpstr (a->placeholder, ==, "What would you change about this suggestion?");
  a = atp_notification_find_action (n, "set_threshold");
  g_assert_cmpstr (a->unit, ==, "confidence");
  g_assert_cmpstr (a->placeholder, ==, "Enter value between 0.1 and 0.9");
  a = atp_notification_find_action (n, "confidence_rating");
  g_assert_cmpstr (a->min_label, ==, "Not confident at all");
  g_assert_cmpstr (a->max_label, ==, "Extremely confident");
  g_assert_cmpfloat (a->step, ==, 1);
  g_assert_cmpint (atp_notification_get_flags (n), ==, ATP_FLAG_IRREVERSIBLE | ATP_FLAG_AFFECTS_OTHERS);
}

static void
test_unknown_members (void)
{
  g_autoptr(JsonNode) root = atp_test_load_json ("base-notification.json");
  g_autoptr(GError) error = NULL;
  g_autoptr(AtpNotification) n = NULL;
  g_autofree char *text = NULL;
  const AtpAction *a;

  atp_test_patch (root, "x_top", "{\"nested\": [1, 2.5, \"s\"]}");
  atp_test_patch (root, "service.x_service", "true");
  atp_test_patch (root, "context.x_context", "\"c\"");
  atp_test_patch (root, "context.attachments[0].x_attachment", "1");
  atp_test_patch (root, "actions[0].x_action", "null");
  atp_test_patch (root, "actions[0].options", "[\"meaningless for simple\"]");
  atp_test_patch (root, "actions[0].constraints", "{\"whatever\": 1}");
  atp_test_patch (root, "actions[1].options.x_options", "\"o\"");
  atp_test_patch (root, "actions[2].options[0].description", "\"An option description\"");
  atp_test_patch (root, "actions[3].constraints.x_constraint", "[]");
  atp_test_patch (root, "actions[4].options", "{}");

  n = atp_notification_new_from_json (root, ATP_PARSE_DEFAULT, &error);
  g_assert_no_error (error);

  g_assert_true (json_object_has_member (n->extra, "x_top"));
  g_assert_cmpuint (json_object_get_size (n->extra), ==, 1);
  g_assert_true (json_object_has_member (n->service.extra, "x_service"));
  g_assert_true (json_object_has_member (n->context.extra, "x_context"));
  g_assert_true (json_object_has_member (((AtpAttachment *) g_ptr_array_index (n->context.attachments, 0))->extra,
                                         "x_attachment"));
  a = g_ptr_array_index (n->actions, 0);
  g_assert_true (json_object_has_member (a->extra, "x_action"));
  g_assert_true (json_object_has_member (a->extra, "options"));
  g_assert_true (json_object_has_member (a->extra_constraints, "whatever"));
  a = g_ptr_array_index (n->actions, 1);
  g_assert_true (json_object_has_member (a->extra_options, "x_options"));
  a = g_ptr_array_index (n->actions, 2);
  g_assert_true (json_object_has_member (((AtpOption *) g_ptr_array_index (a->options, 0))->extra, "description"));
  a = g_ptr_array_index (n->actions, 3);
  g_assert_true (json_object_has_member (a->extra_constraints, "x_constraint"));
  g_assert_false (json_object_has_member (a->extra_constraints, "min_selections"));
  a = g_ptr_array_index (n->actions, 4);
  g_assert_true (json_object_has_member (a->extra, "options"));

  text = atp_test_assert_round_trip (n);
  g_assert_nonnull (strstr (text, "\"x_top\":{\"nested\":[1,2.5,\"s\"]}"));
  g_assert_nonnull (strstr (text, "\"x_service\":true"));
  g_assert_nonnull (strstr (text, "\"x_context\":\"c\""));
  g_assert_nonnull (strstr (text, "\"x_attachment\":1"));
  g_assert_nonnull (strstr (text, "\"x_action\":null"));
  g_assert_nonnull (strstr (text, "\"options\":[\"meaningless for simple\"]"));
  g_assert_nonnull (strstr (text, "\"constraints\":{\"whatever\":1}"));
  g_assert_nonnull (strstr (text, "\"false_label\":\"No\",\"x_options\":\"o\""));
  g_assert_nonnull (strstr (text, "{\"value\":\"x\",\"label\":\"X\",\"description\":\"An option description\"}"));
  g_assert_nonnull (strstr (text, "\"max_selections\":2,\"x_constraint\":[]"));

  /* Every member of the input survives: the output equals the input as JSON. */
  {
    g_autoptr(JsonNode) out = atp_notification_to_json (n);

    g_assert_true (atp_json_node_equal (out, root));
  }
}

static void
test_flags (void)
{
  g_autoptr(JsonNode) root = atp_test_load_json ("base-notification.json");
  g_autoptr(GError) error = NULL;
  g_autoptr(AtpNotification) n = NULL;
  const AtpAction *a;

  atp_test_patch (root, "actions[0].flags", "[\"costly\", \"self_destruct\", \"destructive\"]");
  atp_test_patch (root, "actions[1].flags", "[\"requires_confirmation\"]");
  atp_test_patch (root, "actions[2].flags", "[\"time_sensitive\", \"experimental\"]");
  n = atp_notification_new_from_json (root, ATP_PARSE_DEFAULT, &error);
  g_assert_no_error (error);

  a = g_ptr_array_index (n->actions, 0);
  g_assert_cmpint (a->flags, ==, ATP_FLAG_COSTLY | ATP_FLAG_DESTRUCTIVE);
  g_assert_cmpuint (g_strv_length (a->flag_names), ==, 3);
  g_assert_cmpstr (a->flag_names[1], ==, "self_destruct");
  g_assert_true (atp_action_needs_confirmation (a));
  a = g_ptr_array_index (n->actions, 1);
  g_assert_true (atp_action_needs_confirmation (a));
  a = g_ptr_array_index (n->actions, 2);
  g_assert_false (atp_action_needs_confirmation (a));
  a = g_ptr_array_index (n->actions, 3);
  g_assert_nonnull (a->flag_names);
  g_assert_null (a->flag_names[0]);
  g_assert_cmpint (atp_notification_get_flags (n), ==,
                   ATP_FLAG_COSTLY | ATP_FLAG_DESTRUCTIVE | ATP_FLAG_REQUIRES_CONFIRMATION |
                   ATP_FLAG_TIME_SENSITIVE | ATP_FLAG_EXPERIMENTAL);
}

static void
test_normalization (void)
{
  g_autoptr(JsonNode) root = atp_test_load_json ("base-notification.json");
  g_autoptr(GError) error = NULL;
  g_autoptr(AtpNotification) n = NULL;
  g_autofree char *text = NULL;

  atp_test_patch (root, "id", "\"7D444840-9DC0-41F4-A0B4-8F2B2D3C5E6A\"");
  atp_test_patch (root, "timestamp", "\"2025-05-25T12:30:00.250+02:00\"");
  atp_test_patch (root, "deadline", "\"2025-05-25T06:00:00-05:00\"");
  atp_test_patch (root, "actions[5].constraints.min", "1.0");
  atp_test_patch (root, "actions[5].constraints.max", "2E1");
  n = atp_notification_new_from_json (root, ATP_PARSE_DEFAULT, &error);
  g_assert_no_error (error);

  g_assert_cmpstr (n->id, ==, "7d444840-9dc0-41f4-a0b4-8f2b2d3c5e6a");
  text = atp_test_assert_round_trip (n);
  g_assert_nonnull (strstr (text, "\"timestamp\":\"2025-05-25T10:30:00.250000Z\""));
  g_assert_nonnull (strstr (text, "\"deadline\":\"2025-05-25T11:00:00Z\""));
  g_assert_nonnull (strstr (text, "\"min\":1,\"max\":20,\"step\":0.05"));
}

static void
test_submission (void)
{
  g_autoptr(JsonNode) root = atp_test_load_json ("base-notification.json");
  g_autoptr(GError) error = NULL;
  g_autoptr(AtpNotification) n = NULL;
  g_autoptr(AtpNotification) full = NULL;
  g_autoptr(GDateTime) now = g_date_time_new_utc (2025, 5, 25, 10, 31, 0);
  g_autofree char *text = NULL;
  g_autofree char *full_text = NULL;

  /* What a service posts: no id, timestamp, version, service, status. */
  atp_test_patch (root, "id", NULL);
  atp_test_patch (root, "timestamp", NULL);
  atp_test_patch (root, "version", NULL);
  atp_test_patch (root, "service", "\"filled in by the server, never read\"");
  atp_test_patch (root, "status", "\"responded\"");
  atp_test_patch (root, "response", "42");

  n = atp_notification_new_from_json (root, ATP_PARSE_DEFAULT, &error);
  g_assert_null (n);
  atp_assert_error (error, ATP_ERROR_MISSING_REQUIRED_FIELD, "id: required field is missing");
  g_clear_error (&error);

  n = atp_notification_new_from_json (root, ATP_PARSE_SUBMISSION, &error);
  g_assert_no_error (error);
  g_assert_null (n->id);
  g_assert_null (n->timestamp);
  g_assert_cmpstr (n->version, ==, "1.0");
  g_assert_null (n->service.id);
  g_assert_null (n->service.name);
  g_assert_cmpint (n->status, ==, ATP_STATUS_CREATED);
  g_assert_null (n->response);
  g_assert_null (n->extra);

  text = atp_notification_to_string (n, NULL);
  g_assert_null (strstr (text, "\"id\":\"7d"));
  g_assert_null (strstr (text, "\"service\""));
  g_assert_null (strstr (text, "\"timestamp\""));
  g_assert_null (strstr (text, "\"response\""));

  /* The server completes it. */
  full = atp_notification_copy_with (n, "6F9619FF-8B86-4011-B42D-00C04FC964FF", now,
                                     "ci-bot", "CI bot", "https://ci.example/icon.png",
                                     ATP_STATUS_DELIVERED);
  g_assert_cmpstr (full->id, ==, "6f9619ff-8b86-4011-b42d-00c04fc964ff");
  g_assert_true (g_date_time_equal (full->timestamp, now));
  g_assert_cmpstr (full->service.id, ==, "ci-bot");
  g_assert_cmpstr (full->service.name, ==, "CI bot");
  g_assert_cmpstr (full->service.icon, ==, "https://ci.example/icon.png");
  g_assert_cmpint (full->status, ==, ATP_STATUS_DELIVERED);
  g_assert_cmpuint (full->actions->len, ==, n->actions->len);
  full_text = atp_test_assert_round_trip (full);

  /* The original is unchanged. */
  g_assert_null (n->id);
  g_assert_null (n->service.id);
}

static void
test_submission_rules (void)
{
  g_autoptr(JsonNode) root = atp_test_load_json ("base-notification.json");
  g_autoptr(GError) error = NULL;
  g_autoptr(AtpNotification) n = NULL;

  /* Whatever is there is still checked. */
  atp_test_patch (root, "id", "\"123\"");
  n = atp_notification_new_from_json (root, ATP_PARSE_SUBMISSION, &error);
  g_assert_null (n);
  atp_assert_error (error, ATP_ERROR_INVALID_FIELD_VALUE, "id: must be a UUID v4");
  g_clear_error (&error);

  atp_test_patch (root, "id", NULL);
  atp_test_patch (root, "version", "\"0.9\"");
  n = atp_notification_new_from_json (root, ATP_PARSE_SUBMISSION, &error);
  g_assert_null (n);
  atp_assert_error (error, ATP_ERROR_INVALID_FIELD_VALUE, "version: must be \"1.0\"");
  g_clear_error (&error);

  atp_test_patch (root, "version", NULL);
  atp_test_patch (root, "actions[6].constraints.max", "-3");
  n = atp_notification_new_from_json (root, ATP_PARSE_SUBMISSION, &error);
  g_assert_null (n);
  atp_assert_error (error, ATP_ERROR_MALFORMED_ACTION, "actions[6].constraints.max: must be > min");
  g_clear_error (&error);

  /* Without a timestamp a deadline cannot be compared: the server compares
   * it with the timestamp it fills in. */
  atp_test_patch (root, "actions[6].constraints.max", "3");
  atp_test_patch (root, "timestamp", NULL);
  atp_test_patch (root, "deadline", "\"2000-01-01T00:00:00Z\"");
  n = atp_notification_new_from_json (root, ATP_PARSE_SUBMISSION, &error);
  g_assert_no_error (error);
  g_assert_nonnull (n->deadline);
}

static void
test_copy_with (void)
{
  g_autoptr(JsonNode) root = atp_test_load_json ("base-notification.json");
  g_autoptr(GError) error = NULL;
  g_autoptr(AtpNotification) n = NULL;
  g_autoptr(AtpNotification) same = NULL;
  g_autoptr(AtpNotification) answered = NULL;
  g_autoptr(AtpNotification) cleared = NULL;
  g_autoptr(AtpResponse) response = NULL;
  g_autoptr(GDateTime) when = g_date_time_new_utc (2025, 5, 25, 10, 35, 0);
  g_autofree char *a = NULL;
  g_autofree char *b = NULL;
  g_autofree char *c = NULL;

  n = atp_notification_new_from_json (root, ATP_PARSE_DEFAULT, &error);
  g_assert_no_error (error);

  same = atp_notification_copy_with (n, NULL, NULL, NULL, NULL, NULL, -1);
  a = atp_notification_to_string (n, NULL);
  b = atp_notification_to_string (same, NULL);
  g_assert_cmpstr (a, ==, b);
  g_assert_true (same != n);
  g_assert_true (g_ptr_array_index (same->actions, 0) != g_ptr_array_index (n->actions, 0));

  response = atp_response_new (n->id, "a0", NULL, when, "alice", ATP_RESPONDER_HUMAN);
  answered = atp_notification_copy_with_response (n, response);
  g_assert_true (answered->response == response);
  g_assert_cmpint (answered->status, ==, n->status);
  g_assert_null (n->response);
  c = atp_test_assert_round_trip (answered);
  g_assert_nonnull (strstr (c, "\"response\":{\"notification_id\":\"7d444840-9dc0-41f4-a0b4-8f2b2d3c5e6a\","
                               "\"action_id\":\"a0\",\"response_data\":null,"
                               "\"responded_at\":\"2025-05-25T10:35:00Z\","
                               "\"responder\":{\"id\":\"alice\",\"type\":\"human\"}}"));

  cleared = atp_notification_copy_with_response (answered, NULL);
  g_assert_null (cleared->response);
}

/* Completed in place, a submission writes exactly what the completed copy
 * writes, and the id passed may be its own. */
static void
test_complete (void)
{
  g_autoptr(JsonNode) root = atp_test_load_json ("base-notification.json");
  g_autoptr(GError) error = NULL;
  g_autoptr(AtpNotification) n = NULL;
  g_autoptr(AtpNotification) copy = NULL;
  g_autoptr(GDateTime) when = g_date_time_new_utc (2025, 5, 25, 10, 35, 0);
  g_autofree char *a = NULL;
  g_autofree char *b = NULL;

  n = atp_notification_new_from_json (root, ATP_PARSE_SUBMISSION, &error);
  g_assert_no_error (error);
  copy = atp_notification_copy_with (n, "6F9619FF-8B86-4011-B42D-00C04FC964FF", when, "svc-1",
                                     "Service One", NULL, ATP_STATUS_CREATED);
  atp_notification_complete (n, "6F9619FF-8B86-4011-B42D-00C04FC964FF", when, "svc-1",
                             "Service One", NULL, ATP_STATUS_CREATED);
  g_assert_cmpstr (n->id, ==, "6f9619ff-8b86-4011-b42d-00c04fc964ff");
  a = atp_notification_to_string (n, NULL);
  b = atp_notification_to_string (copy, NULL);
  g_assert_cmpstr (a, ==, b);

  atp_notification_complete (n, n->id, n->timestamp, n->service.id, n->service.name, NULL, -1);
  g_clear_pointer (&a, g_free);
  a = atp_notification_to_string (n, NULL);
  g_assert_cmpstr (a, ==, b);
}

static void
test_ref_counting (void)
{
  g_autoptr(JsonNode) root = atp_test_load_json ("base-notification.json");
  g_autoptr(GError) error = NULL;
  AtpNotification *n;
  AtpNotification *boxed;

  n = atp_notification_new_from_json (root, ATP_PARSE_DEFAULT, &error);
  g_assert_no_error (error);

  g_assert_true (atp_notification_ref (n) == n);
  atp_notification_unref (n);
  boxed = g_boxed_copy (ATP_TYPE_NOTIFICATION, n);
  g_assert_true (boxed == n);
  g_boxed_free (ATP_TYPE_NOTIFICATION, boxed);
  atp_notification_unref (n);
}

static void
test_attachment_decode (void)
{
  g_autoptr(JsonNode) root = atp_test_load_json ("base-notification.json");
  g_autoptr(GError) error = NULL;
  g_autoptr(AtpNotification) n = NULL;
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(GBytes) empty = NULL;
  g_autoptr(AtpNotification) m = NULL;

  n = atp_notification_new_from_json (root, ATP_PARSE_DEFAULT, &error);
  g_assert_no_error (error);

  bytes = atp_attachment_decode (g_ptr_array_index (n->context.attachments, 0), &error);
  g_assert_null (bytes);
  atp_assert_error (error, ATP_ERROR_INVALID_FIELD_VALUE, "no inline data", "https://example.com/notes.txt");
  g_clear_error (&error);

  bytes = atp_attachment_decode (g_ptr_array_index (n->context.attachments, 1), &error);
  g_assert_no_error (error);
  g_assert_cmpmem (g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes), "hi", 2);

  atp_test_patch (root, "context.attachments[1].data", "\"\"");
  m = atp_notification_new_from_json (root, ATP_PARSE_DEFAULT, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (((AtpAttachment *) g_ptr_array_index (m->context.attachments, 1))->decoded_size, ==, 0);
  empty = atp_attachment_decode (g_ptr_array_index (m->context.attachments, 1), &error);
  g_assert_no_error (error);
  g_assert_cmpuint (g_bytes_get_size (empty), ==, 0);
}

static void
test_attachment_sizes (void)
{
  /* decoded_size is exact for every padding, checked against g_base64_decode. */
  for (gsize n = 0; n < 64; n++)
    {
      g_autoptr(JsonNode) root = atp_test_load_json ("base-notification.json");
      g_autoptr(GError) error = NULL;
      g_autoptr(AtpNotification) notification = NULL;
      g_autoptr(GBytes) bytes = NULL;
      g_autofree guchar *raw = g_malloc (n + 1);
      g_autofree char *encoded = NULL;
      g_autofree char *value = NULL;
      const AtpAttachment *attachment;

      for (gsize i = 0; i < n; i++)
        raw[i] = (guchar) (i * 37 + 11);
      encoded = g_base64_encode (raw, n);
      value = g_strdup_printf ("\"%s\"", encoded);
      atp_test_patch (root, "context.attachments[1].data", value);

      notification = atp_notification_new_from_json (root, ATP_PARSE_DEFAULT, &error);
      g_assert_no_error (error);
      attachment = g_ptr_array_index (notification->context.attachments, 1);
      g_assert_cmpuint (attachment->decoded_size, ==, n);
      bytes = atp_attachment_decode (attachment, &error);
      g_assert_no_error (error);
      g_assert_cmpmem (g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes), raw, n);
    }
}

/* ---- hostile input ---- */

static void
test_hostile_deep_metadata (void)
{
  g_autoptr(JsonNode) root = atp_test_load_json ("base-notification.json");
  g_autoptr(GError) error = NULL;
  g_autoptr(AtpNotification) n = NULL;
  g_autofree char *base = atp_json_to_string (root, NULL);
  GString *deep = g_string_new (NULL);
  g_autofree char *text = NULL;
  const char *cut;

  /* {"context": {"metadata": [[[…]]]}} past the limit, inside a real notification */
  cut = strstr (base, "\"title\"");
  g_string_append_len (deep, base, cut - base);
  g_string_append (deep, "\"metadata\":{\"d\":");
  for (guint i = 0; i < 100000; i++)
    g_string_append_c (deep, '[');
  for (guint i = 0; i < 100000; i++)
    g_string_append_c (deep, ']');
  g_string_append (deep, "},");
  g_string_append (deep, cut);
  text = g_string_free (deep, FALSE);

  n = atp_notification_new_from_data (text, -1, ATP_PARSE_DEFAULT, &error);
  g_assert_null (n);
  atp_assert_error (error, ATP_ERROR_INVALID_JSON, "nested deeper than 64 levels");
}

static void
test_hostile_size (void)
{
  g_autoptr(JsonNode) root = atp_test_load_json ("base-notification.json");
  g_autoptr(GError) error = NULL;
  g_autoptr(AtpNotification) n = NULL;
  g_autoptr(AtpNotification) m = NULL;
  g_autofree char *big = g_malloc (ATP_MAX_NOTIFICATION_SIZE + 1);
  g_autofree char *text = NULL;
  g_autofree char *value = NULL;
  gsize length;

  /* Just under the limit: fine. */
  memset (big, 'A', ATP_MAX_NOTIFICATION_SIZE - 4096);
  big[ATP_MAX_NOTIFICATION_SIZE - 4096] = '\0';
  value = g_strdup_printf ("\"%s\"", big);
  atp_test_patch (root, "context.attachments[1].data", value);
  text = atp_json_to_string (root, &length);
  g_assert_cmpuint (length, <=, ATP_MAX_NOTIFICATION_SIZE);
  n = atp_notification_new_from_data (text, length, ATP_PARSE_DEFAULT, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (((AtpAttachment *) g_ptr_array_index (n->context.attachments, 1))->decoded_size, ==,
                    (ATP_MAX_NOTIFICATION_SIZE - 4096) / 4 * 3);

  /* Over it: refused before parsing. */
  g_free (value);
  g_free (text);
  memset (big, 'A', ATP_MAX_NOTIFICATION_SIZE);
  big[ATP_MAX_NOTIFICATION_SIZE] = '\0';
  value = g_strdup_printf ("\"%s\"", big);
  atp_test_patch (root, "context.attachments[1].data", value);
  text = atp_json_to_string (root, &length);
  m = atp_notification_new_from_data (text, length, ATP_PARSE_DEFAULT, &error);
  g_assert_null (m);
  atp_assert_error (error, ATP_ERROR_PAYLOAD_TOO_LARGE, "larger than the limit");
}

static void
test_hostile_text (void)
{
  static const struct { const char *text; int code; const char *needle; } cases[] = {
    { "{\"id\": \"\xff\"}", ATP_ERROR_INVALID_JSON, "invalid UTF-8" },
    { "{\"actions\": [], \"actions\": []}", ATP_ERROR_INVALID_JSON, "duplicate member name \"actions\"" },
    { "{\"context\": {\"metadata\": {\"n\": 1e400}}}", ATP_ERROR_INVALID_JSON, "number out of range" },
    { "{\"context\": {\"metadata\": {\"n\": 99999999999999999999}}}", ATP_ERROR_INVALID_JSON, "integer out of range" },
    { "{\"id\": \"a\\u0000b\"}", ATP_ERROR_INVALID_JSON, "\\u0000" },
    { "{\"id\": \"\\udc00\"}", ATP_ERROR_INVALID_JSON, "surrogate" },
    { "{\"id\": 1} trailing", ATP_ERROR_INVALID_JSON, "line 1, column 11" },
    { "", ATP_ERROR_INVALID_JSON, "unexpected end of input" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(AtpNotification) n = NULL;

      n = atp_notification_new_from_data (cases[i].text, -1, ATP_PARSE_DEFAULT, &error);
      g_assert_null (n);
      atp_assert_error (error, cases[i].code, cases[i].needle);
    }
}

static void
test_hostile_huge_values (void)
{
  g_autoptr(JsonNode) root = atp_test_load_json ("base-notification.json");
  g_autoptr(GError) error = NULL;
  g_autoptr(AtpNotification) n = NULL;
  gsize big = 512 * 1024;
  g_autofree char *title = g_malloc (big + 3);
  g_autofree char *out = NULL;

  /* A huge title and large numbers are legal; they survive unchanged. */
  title[0] = '"';
  memset (title + 1, 'T', big);
  title[big + 1] = '"';
  title[big + 2] = '\0';
  atp_test_patch (root, "context.title", title);
  atp_test_patch (root, "context.metadata", "{\"big\": 9223372036854775807, \"small\": -9223372036854775808, "
                                            "\"tiny\": 5e-324, \"max\": 1.7976931348623157e308, \"negzero\": -0.0}");
  atp_test_patch (root, "actions[5].constraints.max", "1e300");
  n = atp_notification_new_from_json (root, ATP_PARSE_DEFAULT, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (strlen (n->context.title), ==, big);
  out = atp_test_assert_round_trip (n);
  g_assert_nonnull (strstr (out, "\"big\":9223372036854775807,\"small\":-9223372036854775808"));
  g_assert_nonnull (strstr (out, "\"max\":1e+300"));
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

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

  g_test_add_func ("/atp/notification/not-an-object", test_not_an_object);
  g_test_add_func ("/atp/notification/base", test_base);
  g_test_add_func ("/atp/notification/seed-002", test_seed_notification);
  for (guint i = 0; i < G_N_ELEMENTS (seed_actions); i++)
    {
      g_autofree char *path = g_strdup_printf ("/atp/notification/seed-000/%s", seed_actions[i]);

      g_test_add_data_func (path, seed_actions[i], test_seed_action);
    }
  g_test_add_func ("/atp/notification/seed-000/details", test_seed_action_details);
  g_test_add_func ("/atp/notification/unknown-members", test_unknown_members);
  g_test_add_func ("/atp/notification/flags", test_flags);
  g_test_add_func ("/atp/notification/normalization", test_normalization);
  g_test_add_func ("/atp/notification/submission", test_submission);
  g_test_add_func ("/atp/notification/submission-rules", test_submission_rules);
  g_test_add_func ("/atp/notification/copy-with", test_copy_with);
  g_test_add_func ("/atp/notification/complete", test_complete);
  g_test_add_func ("/atp/notification/ref-counting", test_ref_counting);
  g_test_add_func ("/atp/notification/attachment-decode", test_attachment_decode);
  g_test_add_func ("/atp/notification/attachment-sizes", test_attachment_sizes);
  g_test_add_func ("/atp/notification/hostile/deep-metadata", test_hostile_deep_metadata);
  g_test_add_func ("/atp/notification/hostile/size", test_hostile_size);
  g_test_add_func ("/atp/notification/hostile/text", test_hostile_text);
  g_test_add_func ("/atp/notification/hostile/huge-values", test_hostile_huge_values);

  return g_test_run ();
}
