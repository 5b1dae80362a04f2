#ifndef CENSORED_PRINT_H
#define CENSORED_PRINT_H
/* censored_print: the line (text) and member (JSON) that say how many of
 * the runs behind a figure were still going when their file was written,
 * and up to when they are counted (#29 item 1: their hours are a lower
 * bound). Used by stats and profile. */

#include <cJSON.h>
#include <stdio.h>

#include "data/store/store_censored.h"

/* "censored: N runs ..." and a newline; nothing when c->runs is 0. scope:
 * words after "runs" naming what was counted ("", " in every group"). */
void censored_text(const StoreCensored *c, const char *scope, FILE *out);

/* o.censored = {"runs": N, "first_cut": "YYYY-MM-DDTHH:MM:SSZ" or null,
 * "last_cut": ... or null}. */
void censored_json(cJSON *o, const StoreCensored *c);

#endif
