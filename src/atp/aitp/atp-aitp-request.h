/* atp-aitp-request.h — an AITP-02 request_decision message and its options
 *
 * Copyright 2026 The Triage authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib-object.h>
#include <json-glib/json-glib.h>

G_BEGIN_DECLS

/*
 * AITP-02 Decisions (schema capabilities/aitp-02-decisions/v1.0.0 of
 * nearai/aitp; docs/protocol.md records what Triage decides where it is
 * silent). Objects are immutable and always valid: the only way to get one
 * is to parse JSON. Members a part does not know are kept in its @extra
 * object (never NULL) and written back; so are the unknown members of the
 * message itself, Triage's own `x-triage` included.
 */

/* The options of a request, and the variants of one product: what a person
 * chooses among in one view, where each is a widget of its own (a radio or
 * check button, a button, a product's card or a drop-down's row). A rule of
 * what is submitted (atp_aitp_request_new_submission ()). */
#define ATP_AITP_MAX_OPTIONS 100

typedef enum
{
  ATP_AITP_DECISION_RADIO,          /* the default */
  ATP_AITP_DECISION_CHECKBOX,
  ATP_AITP_DECISION_CONFIRMATION,
  ATP_AITP_DECISION_PRODUCTS,
} AtpAitpDecisionType;

typedef struct
{
  char       *plan_id;
  char       *plan_type;           /* "one-time", the one type the schema has */
  double      amount;              /* ≥ 0 */
  char       *currency;            /* "USD", the one currency the schema has */
  JsonObject *extra;
} AtpAitpPaymentPlan;

typedef struct
{
  char       *quote_id;
  char       *payee_id;
  GPtrArray  *payment_plans;       /* AtpAitpPaymentPlan*, maybe empty */
  GDateTime  *valid_until;
  JsonObject *extra;               /* `type` ("Quote") is known and not kept here */
} AtpAitpQuote;

typedef struct _AtpAitpOption AtpAitpOption;

struct _AtpAitpOption
{
  char          *id;               /* non-empty */
  char          *name;             /* nullable, as every member below */
  char          *short_variant_name;
  char          *description;
  char          *image_url;        /* an absolute URI */
  char          *url;              /* an absolute URI */
  AtpAitpQuote  *quote;
  gboolean       has_rating;
  double         five_star_rating; /* 0–5 */
  gint64         reviews_count;    /* ≥ 0; -1 when absent */
  GPtrArray     *variants;         /* AtpAitpOption* (a variant has none), maybe empty; never NULL */
  JsonObject    *extra;
};

typedef struct
{
  char          *schema;           /* `$schema`, an absolute URI */
  char          *id;               /* request_decision.id, non-empty */
  char          *title;            /* nullable */
  char          *description;      /* nullable */
  AtpAitpDecisionType type;
  gboolean       type_given;       /* `type` was sent (it is written back only then) */
  GPtrArray     *options;          /* AtpAitpOption*, at least one */
  JsonObject    *extra;            /* unknown members of request_decision */
  JsonObject    *message_extra;    /* unknown members of the message, `x-triage` included */

  /* Triage's extension, the message's `x-triage` object (docs/protocol.md) */
  GDateTime     *deadline;         /* x-triage.deadline, nullable */
  char          *project;          /* x-triage.project, nullable */
  gboolean       confirm;          /* x-triage.confirm: ask for a confirmation before sending */
} AtpAitpRequest;

#define ATP_TYPE_AITP_REQUEST (atp_aitp_request_get_type ())

GType            atp_aitp_request_get_type          (void) G_GNUC_CONST;

/**
 * atp_aitp_request_new_from_json:
 * @node: an AITP message holding `request_decision`
 * @error: an %ATP_ERROR naming the field ("request_decision.options[2].quote.valid_until")
 *   and the rule it breaks: %ATP_ERROR_INVALID_REQUEST (not an object),
 *   %ATP_ERROR_MISSING_REQUIRED_FIELD or %ATP_ERROR_INVALID_FIELD_VALUE
 *
 * Every rule of the schema, and Triage's where it is silent. Parts of @node
 * (unknown members) are shared, not copied: do not change @node afterwards.
 *
 * Returns: (transfer full) (nullable): the request
 */
AtpAitpRequest  *atp_aitp_request_new_from_json     (JsonNode        *node,
                                                     GError         **error);
/*
 * The same, for what is submitted (the server's POST, triage-ask --aitp):
 * the rules added since decisions were first stored also apply, which a
 * stored one need not meet (read with the above): at most
 * %ATP_AITP_MAX_OPTIONS options, and as many variants of a product.
 */
AtpAitpRequest  *atp_aitp_request_new_submission    (JsonNode        *node,
                                                     GError         **error);
/* atp_json_parse() bounded by ATP_MAX_NOTIFICATION_SIZE, then the above. */
AtpAitpRequest  *atp_aitp_request_new_from_data     (const char      *data,
                                                     gssize           length,
                                                     GError         **error);
AtpAitpRequest  *atp_aitp_request_ref               (AtpAitpRequest  *self);
void             atp_aitp_request_unref             (AtpAitpRequest  *self);

/* The known members in the schema's order, then the unknown ones; parsing
 * the result gives an equal request. */
JsonNode        *atp_aitp_request_to_json           (AtpAitpRequest  *self);

/**
 * atp_aitp_request_find_option:
 * @self: a request
 * @id: (nullable): the id a decision names
 * @product: (out) (optional) (transfer none): the option @id belongs to (itself,
 *   or the product whose variant it is)
 *
 * In a products request a product with variants is chosen by the id of a
 * variant; in the other types variants mean nothing and only options are
 * found.
 *
 * Returns: (transfer none) (nullable): the option or variant with @id
 */
const AtpAitpOption *atp_aitp_request_find_option   (AtpAitpRequest       *self,
                                                     const char           *id,
                                                     const AtpAitpOption **product);

/**
 * atp_aitp_option_dup_shown_name:
 * @option: an option, or a variant of @product
 * @product: (nullable): the product @option is a variant of
 *
 * The name the person is shown for @option, and so the `name` a decision
 * gives it: its `name`, else its product's, with the variant's
 * `short_variant_name` after it when the name does not hold it already
 * ("JBL Tour One M2 (Sand)"); the short name alone when there is no name.
 *
 * Returns: (transfer full) (nullable): the name; %NULL when there is none
 */
char            *atp_aitp_option_dup_shown_name     (const AtpAitpOption  *option,
                                                     const AtpAitpOption  *product);

/* The quote that prices @option (a variant of @product): its own, else the product's. */
const AtpAitpQuote *atp_aitp_option_quote           (const AtpAitpOption  *option,
                                                     const AtpAitpOption  *product);

/* Whether @option (a variant of @product) can still be chosen at @now: FALSE
 * once its quote's valid_until has come. */
gboolean         atp_aitp_option_is_available       (const AtpAitpOption  *option,
                                                     const AtpAitpOption  *product,
                                                     GDateTime            *now);

GDateTime       *atp_aitp_request_dup_quotes_end    (AtpAitpRequest       *self);
gboolean         atp_aitp_request_check_answerable  (AtpAitpRequest       *self,
                                                     GDateTime            *now,
                                                     GError              **error);

const char      *atp_aitp_decision_type_to_string   (AtpAitpDecisionType   type);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (AtpAitpRequest, atp_aitp_request_unref)

G_END_DECLS
